// Start-up and memory of the UCI engine beside native Stockfish, run alternately in the same
// invocation: time from spawning the process to `readyok` (after `uci`), stop latency of an
// infinite search, and peak resident memory (VmHWM) at readyok and after a 1 s search with
// the default hash. --breakdown also times the phases of our start-up (bench/startup-probe.mjs).
// NODE_EXTRA_CA_CERTS is removed from the engines' environment (Node reads those certificates
// before it runs any script, about 30 ms on these machines); --keep-env keeps it.
//   npm run bench:startup [-- --runs 5] [-- --breakdown] [-- --keep-env]

import { parseArgs } from "node:util";
import { readFileSync, statSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { UciProcess, findExecutable } from "../match/uci-process.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    breakdown: { type: "boolean", default: false },
    "keep-env": { type: "boolean", default: false },
  },
});
const extraCerts = process.env.NODE_EXTRA_CA_CERTS;
if (extraCerts !== undefined && !values["keep-env"]) delete process.env.NODE_EXTRA_CA_CERTS; // the children's environment
const RUNS = Number(values.runs);
const CLI = fileURLToPath(new URL("../build/cli.js", import.meta.url));
const PROBE = fileURLToPath(new URL("./startup-probe.mjs", import.meta.url));
const WASM = fileURLToPath(new URL("../build/wasmchess-nnue.wasm", import.meta.url));
const SEARCH_MS = 1000;

interface Run {
  startMs: number;
  /** Spawn to the bestmove of `go depth 1` sent after readyok: the worker is up. */
  firstMoveMs: number;
  readyPeakMb: number;
  stopMs: number;
  searchPeakMb: number;
  /** Private (anonymous) resident memory after the search: the peak without the pages of the
   *  executable and its libraries, which are file-backed and shared (Node's binary alone
   *  keeps about 40 MB of them resident; Stockfish's embeds its network). */
  searchPrivateMb: number;
}

/** One start: spawn, `uci`, `isready`; then a 1 s infinite search and its stop. */
async function measure(command: string, args: string[]): Promise<Run> {
  const t0 = performance.now();
  const engine = new UciProcess(command, args);
  await engine.init();
  await engine.isReady();
  const startMs = performance.now() - t0;
  const readyPeakMb = engine.memoryMb("VmHWM");
  engine.send("position startpos");
  engine.send("go depth 1");
  await engine.waitFor((l) => l.startsWith("bestmove"));
  const firstMoveMs = performance.now() - t0;
  engine.send("go infinite");
  await new Promise((r) => setTimeout(r, SEARCH_MS));
  const s0 = performance.now();
  engine.send("stop");
  await engine.waitFor((l) => l.startsWith("bestmove"));
  const stopMs = performance.now() - s0;
  const searchPeakMb = engine.memoryMb("VmHWM");
  const searchPrivateMb = engine.memoryMb("RssAnon");
  await engine.quit();
  return { startMs, firstMoveMs, readyPeakMb, stopMs, searchPeakMb, searchPrivateMb };
}

const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const summary = (runs: Run[], key: keyof Run) => {
  const a = runs.map((r) => r[key]);
  return { median: median(a), min: Math.min(...a), max: Math.max(...a) };
};

const stockfish = findExecutable("stockfish");
if (!stockfish) console.log("stockfish not found (PATH, /usr/games): measuring WasmChess alone");
const ours: Run[] = [];
const theirs: Run[] = [];
for (let i = 0; i < RUNS; i++) {
  ours.push(await measure(process.execPath, [CLI]));
  if (stockfish) theirs.push(await measure(stockfish, []));
}

const wasm = readFileSync(WASM);
const ms = (x: number) => x.toFixed(0).padStart(4);
const mb = (x: number) => x.toFixed(0).padStart(4);
console.log(`wasm size (network build) : ${statSync(WASM).size} bytes (${gzipSync(wasm).length} gzipped)`);
if (extraCerts !== undefined) {
  console.log(`NODE_EXTRA_CA_CERTS is set here: ${values["keep-env"] ? "kept (--keep-env)" : "removed from the engines' environment (--keep-env keeps it)"}`);
}
console.log(`${RUNS} runs each, alternating; median (min-max)`);
console.log("                         WasmChess            Stockfish");
const row = (label: string, key: keyof Run, unit: string, fmt: (x: number) => string) => {
  const a = summary(ours, key);
  const b = theirs.length ? summary(theirs, key) : undefined;
  const cell = (s: { median: number; min: number; max: number }) => `${fmt(s.median)} ${unit} (${fmt(s.min).trim()}-${fmt(s.max).trim()})`.padEnd(21);
  console.log(`${label.padEnd(25)}${cell(a)}${b ? cell(b) : "-"}`);
};
row("start-up to readyok", "startMs", "ms", ms);
row("to first bestmove", "firstMoveMs", "ms", ms);
row("stop to bestmove", "stopMs", "ms", (x) => x.toFixed(1).padStart(4));
row("peak memory at readyok", "readyPeakMb", "MB", mb);
row(`peak after ${SEARCH_MS / 1000} s search`, "searchPeakMb", "MB", mb);
row("  of it private (anon)", "searchPrivateMb", "MB", mb);
if (theirs.length) {
  const ratio = median(ours.map((r) => r.startMs)) / median(theirs.map((r) => r.startMs));
  console.log(`start-up ratio WasmChess / Stockfish: ${ratio.toFixed(2)} (default hash: 16 MB each)`);
}

if (values.breakdown) breakdown();

/** Times our start-up phases in fresh processes and prints their medians. */
function breakdown(): void {
  const phases: Record<string, number[]> = {};
  const add = (name: string, v: number) => (phases[name] ??= []).push(v);
  for (let i = 0; i < RUNS; i++) {
    const spawned = performance.timeOrigin + performance.now();
    const m = JSON.parse(execFileSync(process.execPath, [PROBE], { encoding: "utf8" })) as Record<string, number>;
    add("process spawn to Node's process start", m.processStart - spawned);
    add("Node's start to our first line", m.firstLine - m.processStart);
    add("module loading (engine, uci)", m.modules - m.firstLine);
    add("wasm compile (main thread)", m.compile - m.modules);
    add("rules instance (instantiate)", m.rulesInstance - m.compile);
    add("worker spawn to its first line", m.workerFirstLine - m.workerSpawn);
    add("worker's module loading", m.workerModules - m.workerFirstLine);
    add("worker's wasm compile", m.workerCompile - m.workerModules);
    add("worker's instance", m.workerInstance - m.workerCompile);
    add("total: spawn to worker's instance", m.workerInstance - spawned);
  }
  const nodeOnly: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    execFileSync(process.execPath, ["-e", ""]);
    nodeOnly.push(performance.now() - t0);
  }
  console.log(`\nStart-up phases (median of ${RUNS} fresh processes, ms; the steps of build/cli.js one after another):`);
  for (const [name, v] of Object.entries(phases)) console.log(`  ${name.padEnd(40)}${median(v).toFixed(1).padStart(7)}`);
  console.log(`  ${"for scale: node -e \"\" start to exit".padEnd(40)}${median(nodeOnly).toFixed(1).padStart(7)}`);
}
