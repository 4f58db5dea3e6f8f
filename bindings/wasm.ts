// Loads the compiled engine: compiles the wasm once (read from disk in Node, fetched in
// browsers: see load-wasm-node.ts and load-wasm-browser.ts) and instantiates it through
// asc's generated raw bindings. Two builds exist: the network build (NNUE evaluation, needs
// wasm SIMD) and the classical build (hand-crafted evaluation, the smallest download); the
// network build is the default where the host has SIMD.

import { instantiate } from "../build/wasmchess.js";
import { compileWasm, hostCores } from "#load-wasm";

/** The engine module's exports, as asc's generated bindings type them. */
export type EngineExports = Awaited<ReturnType<typeof instantiate>>;

/** Which evaluation an engine instance runs: "nnue" (the network build) or "classical". */
export type EngineBuild = "nnue" | "classical";

const WASM_URLS: Record<EngineBuild, URL> = {
  classical: new URL("../build/wasmchess.wasm", import.meta.url),
  nnue: new URL("../build/wasmchess-nnue.wasm", import.meta.url),
};
const compiled = new Map<string, Promise<WebAssembly.Module>>();

// The smallest module using a SIMD instruction (i8x16.splat of a constant), to ask the host.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

/** True when the host runs wasm SIMD (the network build needs it). */
export function simdSupported(): boolean {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

/** The build an instance runs when none is asked for: the network build where SIMD runs. */
export function defaultBuild(): EngineBuild {
  return simdSupported() ? "nnue" : "classical";
}

/** The module file of a build. */
export function buildUrl(build: EngineBuild): URL {
  return WASM_URLS[build];
}

/** Compiles the engine module once per URL and process; later calls reuse it. */
export function loadModule(url: URL = WASM_URLS[defaultBuild()]): Promise<WebAssembly.Module> {
  let module = compiled.get(url.href);
  if (!module) {
    module = compileWasm(url);
    compiled.set(url.href, module);
    module.catch(() => compiled.delete(url.href));
  }
  return module;
}

/** Host functions the engine imports; all optional. */
export interface HostImports {
  [name: string]: unknown;
}

/** Host functions with no host behind them: a real clock, never a stop, no reports, no
 *  tablebase files. */
export const DEFAULT_HOST: HostImports = {
  hostNow: () => performance.now(),
  hostPoll: () => 0,
  hostInfo: () => undefined,
  hostCurrMove: () => undefined,
  hostTbRead: () => -1,
};

const TABLE_URL = new URL("../build/wasmchess-table.wasm", import.meta.url);

/** The module files a perft of this build runs on: the engine's, and on threads the shared
 *  table's. A distributed perft's signature is their hash. */
export function perftModuleUrls(build: EngineBuild): URL[] {
  return [WASM_URLS[build], TABLE_URL];
}

/** Largest shared memory for a table of HASH_MAX_MB (2048) MB, with room for the header. */
const SHARED_MEMORY_MAX_PAGES = (2048 << 4) + 16;

/** True when this host can share memory between threads: SharedArrayBuffer exists, and in a
 *  browser the page is cross-origin isolated (COOP same-origin, COEP require-corp). */
export function sharedMemorySupported(): boolean {
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
  return typeof SharedArrayBuffer === "function" && isolated !== false;
}

/** What this host offers for a search on several threads: its cores, whether threads can
 *  share memory (in a browser: a cross-origin-isolated page), the most threads an engine
 *  takes here (1 without shared memory), and the count an app would start with: the cores,
 *  less one when even (leaving one for the page and the rest of the machine, as lichess
 *  does), at least 1. */
export function threadSupport(): { cores: number; sharedMemory: boolean; maxThreads: number; defaultThreads: number } {
  const cores = hostCores();
  const sharedMemory = sharedMemorySupported();
  const defaultThreads = sharedMemory ? Math.max(1, cores % 2 === 0 ? cores - 1 : cores) : 1;
  return { cores, sharedMemory, maxThreads: sharedMemory ? 256 : 1, defaultThreads };
}

/** A new memory that the threads of one search share, for the shared module. */
export function createSharedMemory(): WebAssembly.Memory {
  return new WebAssembly.Memory({ initial: 2, maximum: SHARED_MEMORY_MAX_PAGES, shared: true });
}

/** One thread's instance of the shared module (the transposition table and header of
 *  assembly/index-table.ts) over the threads' shared memory: its raw exports, which a thread's
 *  engine instance takes as its `table` imports (createInstance), and the host calls too. */
export async function createTableInstance(memory: WebAssembly.Memory): Promise<WebAssembly.Exports> {
  const instance = await WebAssembly.instantiate(await loadModule(TABLE_URL), { env: { memory } });
  return instance.exports;
}

/** The shared module's functions (assembly/index-table.ts) that a thread's instance calls
 *  when the threads of a search share one table; with one thread these stand in, never
 *  called. */
export const NO_SHARED_TABLE: WebAssembly.Exports = {
  probeEntryBits: () => 0,
  saveEntry: () => undefined,
  newGeneration: () => undefined,
  hashfull: () => 0,
  stopRequested: () => 0,
  requestStop: () => undefined,
  publishNodes: () => undefined,
  totalNodes: () => 0n,
  publishTbHits: () => undefined,
  totalTbHits: () => 0n,
  probePerft: () => -1n,
  storePerft: () => undefined,
};

/** A fresh engine instance with its own memory; env overrides DEFAULT_HOST's functions.
 *  `table` is the shared module's instance's exports when the instance is one of several
 *  threads (threads.ts), NO_SHARED_TABLE otherwise. */
export async function createInstance(env: HostImports = {}, url?: URL, table: WebAssembly.Exports = NO_SHARED_TABLE): Promise<EngineExports> {
  // A copy: the generated bindings adapt some of its functions, and an instance's exports are frozen.
  return instantiate(await loadModule(url), { env: { ...DEFAULT_HOST, ...env }, table: { ...table } });
}
