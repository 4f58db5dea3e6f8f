// Lazy SMP measured: nodes per second and time to depth of the bench positions on 1 and N
// threads, perft on 1 and N threads (exact counts asserted), the stop latency on N threads, and
// the process's peak memory, all in one run with the same build. Each thread count gets a
// fresh 16 MB table per position, as the bench does. The module is compiled and warmed up
// before anything is timed (V8 compiles the wasm's optimised code in background threads,
// which would take a core from the search at first).
//   npm run bench:threads [-- --threads N] [--depth D] [--positions K] [--build classical|nnue]

import { parseArgs } from "node:util";
import { Core } from "../bindings/core.js";
import { createInstance, buildUrl } from "../bindings/wasm.js";
import type { EngineBuild } from "../bindings/wasm.js";

const { values } = parseArgs({
  options: {
    threads: { type: "string", default: "2" },
    depth: { type: "string", default: "16" },
    positions: { type: "string", default: "12" },
    build: { type: "string", default: "nnue" },
  },
});
const threads = Number(values.threads);
const depth = Number(values.depth);
const positions = Number(values.positions);
const build = values.build as EngineBuild;
if (!Number.isInteger(threads) || threads < 2 || threads > 256) throw new Error("--threads must be a whole number from 2 to 256");
if (!Number.isInteger(depth) || depth < 1 || depth > 40) throw new Error("--depth must be a whole number from 1 to 40");
if (build !== "nnue" && build !== "classical") throw new Error("--build must be classical or nnue");

/** The first positions of the bench (assembly/bench.ts: openings, middlegames, endgames). */
async function benchFens(count: number): Promise<string[]> {
  const w = await createInstance({}, buildUrl(build));
  return Array.from({ length: Math.min(count, w.benchPositionCount()) }, (_, i) => w.benchFen(i));
}
const FENS = await benchFens(positions);

interface Run {
  ms: number;
  nodes: number;
}

/** Every position searched to depth from a fresh table and fresh histories. */
function timeToDepth(core: Core, d: number): Run[] {
  return FENS.map((fen) => {
    core.newGame();
    core.setPosition(fen);
    const start = performance.now();
    let nodes = 0;
    core.search({ depth: d }, { onInfo: (i) => (nodes = i.nodes) });
    return { ms: performance.now() - start, nodes };
  });
}

function perftMs(core: Core): [number, bigint] {
  core.setPosition("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  const start = performance.now();
  const a = core.perft(5);
  core.setPosition("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  const b = core.perft(6);
  if (a !== 193690690n || b !== 119060324n) throw new Error(`perft counts ${a} and ${b}: wrong`);
  return [performance.now() - start, a + b];
}

const core = await Core.create({ build, hashMb: 16 });
const cores: Core[] = [core];
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const geomean = (xs: number[]) => Math.exp(sum(xs.map(Math.log)) / xs.length);

console.log(`${build} build, ${FENS.length} bench positions to depth ${depth}, 16 MB hash, 1 against ${threads} threads`);
// Warm-up: the optimising compile of the module, on one thread and on all of them.
timeToDepth(core, Math.min(depth, 10));
await core.setThreads(threads);
timeToDepth(core, Math.min(depth, 10));
await core.setThreads(1);

const results = new Map<number, { runs: Run[]; perft: [number, bigint] }>();
for (const n of [1, threads, 1, threads]) {
  await core.setThreads(n);
  const runs = timeToDepth(core, depth);
  const perft = perftMs(core);
  const prev = results.get(n);
  // Two rounds each, alternating; each position keeps its faster time.
  results.set(n, prev ? { runs: runs.map((r, i) => (r.ms < prev.runs[i].ms ? r : prev.runs[i])), perft: perft[0] < prev.perft[0] ? perft : prev.perft } : { runs, perft });
}
const one = results.get(1)!;
const many = results.get(threads)!;
const nps = (r: Run[]) => (sum(r.map((x) => x.nodes)) / sum(r.map((x) => x.ms))) * 1000;
console.log("\nposition  1 thread ms   nodes      " + `${threads} threads ms   nodes      speed-up`);
FENS.forEach((_, i) => {
  const a = one.runs[i];
  const b = many.runs[i];
  console.log(`${String(i + 1).padStart(8)}  ${a.ms.toFixed(0).padStart(11)} ${String(a.nodes).padStart(10)}  ${b.ms.toFixed(0).padStart(13)} ${String(b.nodes).padStart(10)}  ${(a.ms / b.ms).toFixed(2).padStart(8)}`);
});
console.log(`\nnodes per second: 1 thread ${nps(one.runs).toFixed(0)}, ${threads} threads ${nps(many.runs).toFixed(0)}: ${(nps(many.runs) / nps(one.runs)).toFixed(2)}x`);
console.log(`time to depth ${depth}, all positions: 1 thread ${sum(one.runs.map((r) => r.ms)).toFixed(0)} ms, ${threads} threads ${sum(many.runs.map((r) => r.ms)).toFixed(0)} ms: ${(sum(one.runs.map((r) => r.ms)) / sum(many.runs.map((r) => r.ms))).toFixed(2)}x faster (geometric mean of the positions' speed-ups ${geomean(one.runs.map((r, i) => r.ms / many.runs[i].ms)).toFixed(2)}x)`);
console.log(`perft (Kiwipete 5 + start position 6, ${one.perft[1]} leaves): 1 thread ${one.perft[0].toFixed(0)} ms, ${threads} threads ${many.perft[0].toFixed(0)} ms: ${(one.perft[0] / many.perft[0]).toFixed(2)}x`);

// The stop: an infinite search on all threads, stopped after a second; from the stop to the
// search's return, which waits for every helper to end.
await core.setThreads(threads);
core.newGame();
core.setPosition(FENS[1]);
const latencies: number[] = [];
for (let i = 0; i < 5; i++) {
  const start = performance.now();
  let stopAt = 0;
  core.search({ infinite: true }, {
    poll: () => {
      if (performance.now() - start < 1000) return 0;
      stopAt ||= performance.now();
      return 1;
    },
  });
  latencies.push(performance.now() - stopAt);
}
latencies.sort((a, b) => a - b);
console.log(`stop on ${threads} threads, to the return of the search (all helpers ended): median ${latencies[2].toFixed(1)} ms, worst ${latencies[4].toFixed(1)} ms of 5`);
const rss = process.resourceUsage().maxRSS / 1024;
console.log(`peak memory of the process (every thread of ${threads}, Hash 16): ${rss.toFixed(0)} MB`);
for (const c of cores) c.dispose();
