// Loads the compiled engine: compiles the wasm once (read from disk in Node, fetched in
// browsers: see load-wasm-node.ts and load-wasm-browser.ts) and instantiates it through
// asc's generated raw bindings.

import { instantiate } from "../build/wasmchess.js";
import { compileWasm } from "#load-wasm";

/** The engine module's exports, as asc's generated bindings type them. */
export type EngineExports = Awaited<ReturnType<typeof instantiate>>;

const WASM_URL = new URL("../build/wasmchess.wasm", import.meta.url);
let compiled: Promise<WebAssembly.Module> | undefined;

/** Compiles the engine module once per URL and process; later calls reuse it. */
export function loadModule(url: URL = WASM_URL): Promise<WebAssembly.Module> {
  if (url.href !== WASM_URL.href) return compileWasm(url);
  compiled ??= compileWasm(url);
  return compiled;
}

/** Host functions the engine imports; all optional. */
export interface HostImports {
  [name: string]: unknown;
}

/** Host functions with no host behind them: a real clock, never a stop, no reports. */
export const DEFAULT_HOST: HostImports = {
  hostNow: () => performance.now(),
  hostPoll: () => 0,
  hostInfo: () => undefined,
  hostCurrMove: () => undefined,
};

/** A fresh engine instance with its own memory; env overrides DEFAULT_HOST's functions. */
export async function createInstance(env: HostImports = {}, url?: URL): Promise<EngineExports> {
  return instantiate(await loadModule(url), { env: { ...DEFAULT_HOST, ...env } });
}
