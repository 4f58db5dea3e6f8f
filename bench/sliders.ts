// The slider backends side by side, one table from one run: perft speed, attack-table
// memory, wasm size and start-up time of each backend's wasm build, and of the ray-walk
// baseline (sliders generated square by square, as an array board does).
//   npm run bench:sliders [-- --runs N] [--startups N]
// Node counts are asserted against the Stockfish-computed suite before any speed is printed.

import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { parseArgs } from "node:util";
import { instantiate } from "../build/wasmchess.js";
import { DEFAULT_HOST, NO_SHARED_TABLE } from "../bindings/wasm.js";
import { Core } from "../bindings/core.js";
import { PERFT_SUITE, readPerftSuite } from "../match/perft.js";
import { SLIDER_BACKENDS, RAY_WALK_BASELINE, SliderBackend } from "../match/slider-backends.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    startups: { type: "string", default: "9" },
  },
});
const runs = Math.max(1, Number(values.runs));
const startups = Math.max(1, Number(values.startups));

const CASES = [
  { name: "start position", fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", depth: 6 },
  { name: "Kiwipete", fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", depth: 5 },
];

interface Result {
  backend: SliderBackend;
  core: Core;
  bestMs: number[]; // per case
  tableBytes: number;
  wasmBytes: number;
  compileMs: number;
  startupMs: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** Compile time of the module, then the median time from instantiate to the first perft result. */
async function measureStartup(bytes: Uint8Array<ArrayBuffer>): Promise<[number, number]> {
  const t0 = performance.now();
  const module = await WebAssembly.compile(bytes);
  const compileMs = performance.now() - t0;
  const times: number[] = [];
  for (let i = 0; i < startups; i++) {
    const t = performance.now();
    const wasm = await instantiate(module, { env: { ...DEFAULT_HOST }, table: NO_SHARED_TABLE });
    wasm.perft(1);
    times.push(performance.now() - t);
  }
  return [compileMs, median(times)];
}

async function prepare(backend: SliderBackend): Promise<Result> {
  const bytes = new Uint8Array(readFileSync(backend.wasm));
  const [compileMs, startupMs] = await measureStartup(bytes);
  const core = await Core.create({ wasmUrl: backend.wasm });
  const id = core.exports.sliderBackend();
  if (id !== backend.id) throw new Error(`${backend.wasm.pathname} is backend ${id}, not ${backend.name} (${backend.id})`);
  return {
    backend, core, bestMs: CASES.map(() => Infinity), tableBytes: core.exports.sliderTableBytes(),
    wasmBytes: bytes.length, compileMs, startupMs,
  };
}

const suite = readPerftSuite(PERFT_SUITE);
const expected = CASES.map((c) => {
  const entry = suite.find((s) => s.fen === c.fen);
  const n = entry?.counts[c.depth - 1];
  if (n === undefined) throw new Error(`no reference count for ${c.name} depth ${c.depth} in match/data/perft.epd`);
  return n;
});

const results: Result[] = [];
for (const b of [...SLIDER_BACKENDS, RAY_WALK_BASELINE]) results.push(await prepare(b));

// Warm every build up (tier-up) and check the counts once before timing anything.
for (const r of results) {
  CASES.forEach((c, i) => {
    r.core.setPosition(c.fen);
    r.core.perft(c.depth - 2);
    const n = r.core.perft(c.depth);
    if (n !== expected[i]) {
      console.error(`${r.backend.name}: ${c.name} depth ${c.depth} counted ${n}, expected ${expected[i]}`);
      process.exit(1);
    }
  });
}

// Best of `runs`, the backends alternating inside each run so that drift hits all alike.
for (let run = 0; run < runs; run++) {
  CASES.forEach((c, i) => {
    for (const r of results) {
      r.core.setPosition(c.fen);
      const t = performance.now();
      const n = r.core.perft(c.depth);
      const ms = performance.now() - t;
      if (n !== expected[i]) throw new Error(`${r.backend.name}: ${c.name} counted ${n}, expected ${expected[i]}`);
      r.bestMs[i] = Math.min(r.bestMs[i], ms);
    }
  });
}

const magic = results.find((r) => r.backend.name === "magic")!;
const mnps = (i: number, ms: number) => Number(expected[i]) / ms / 1000;
const header = [
  "backend", ...CASES.map((c) => `${c.name} d${c.depth} Mnps`), ...CASES.map((c) => `${c.name} vs magic`),
  "table bytes", "wasm bytes", "compile ms", "start-up ms",
];
const rows = results.map((r) => [
  r.backend.name,
  ...CASES.map((_, i) => mnps(i, r.bestMs[i]).toFixed(0)),
  ...CASES.map((_, i) => (magic.bestMs[i] / r.bestMs[i]).toFixed(2) + "x"),
  r.tableBytes.toLocaleString("en-US"),
  r.wasmBytes.toLocaleString("en-US"),
  r.compileMs.toFixed(1),
  r.startupMs.toFixed(2),
]);

console.log(`Slider backends: perft with bulk counting, one thread, best of ${runs} runs, backends alternating.`);
console.log(`Node counts asserted: ${CASES.map((c, i) => `${c.name} d${c.depth} = ${expected[i].toLocaleString("en-US")}`).join(", ")}.`);
console.log(`Start-up: median of ${startups} fresh instances, instantiate to the first perft(1) result; compile: first WebAssembly.compile of the file.`);
console.log(`Node ${process.versions.node} (V8 ${process.versions.v8}), ${cpus()[0]?.model ?? "unknown CPU"}.`);
console.log("");
console.log(`| ${header.join(" | ")} |`);
console.log(`| ${header.map((_, i) => (i === 0 ? "---" : "---:")).join(" | ")} |`);
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
