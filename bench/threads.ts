// Lazy SMP measured: nodes per second and time to depth of the bench positions on 1 and N
// threads, perft on 1 and N threads (exact counts asserted), the stop latency on N threads, and
// the process's peak memory, all in one run with the same build. Each thread count gets a
// fresh 16 MB table per position, as the bench does. The module is compiled and warmed up
// before anything is timed (V8 compiles the wasm's optimised code in background threads,
// which would take a core from the search at first).
//   npm run bench:threads [-- --threads N] [--depth D] [--positions K] [--build classical|nnue]

import { parseArgs } from "node:util";
import { Core } from "../bindings/core.js";
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

// The first positions of assembly/bench.ts (openings, middlegames, endgames).
const FENS = [
  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
  "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
  "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
  "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
  "rq3rk1/ppp2ppp/1bnpb3/3N2B1/3NP3/7P/PPPQ1PP1/2KR3R w - - 7 14",
  "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14",
  "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
  "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
  "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16",
  "4r1k1/r1q2ppp/ppp2n2/4P3/5Rb1/1N1BQ3/PPP3PP/R5K1 w - - 1 17",
  "2rqkb1r/ppp2p2/2npb1p1/1N1Nn2p/2P1PP2/8/PP2B1PP/R1BQK2R b KQ - 0 11",
  "r1bq1r1k/b1p1npp1/p2p3p/1p6/3PP3/1B2NN2/PP3PPP/R2Q1RK1 w - - 1 16",
  "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
  "3b4/5kp1/1p1p1p1p/pP1PpP1P/P1P1P3/3KN3/8/8 w - - 0 1",
  "8/6pk/1p6/8/PP3p1p/5P2/4KP1q/3Q4 w - - 0 1",
  "r3k2r/3nnpbp/q2pp1p1/p7/Pp1PPPP1/4BNN1/1P5P/R2Q1RK1 w kq - 0 16",
].slice(0, positions);

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

function perftMs(core: Core): [number, number] {
  core.setPosition("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  const start = performance.now();
  const a = core.perft(5);
  core.setPosition("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  const b = core.perft(6);
  if (a !== 193690690 || b !== 119060324) throw new Error(`perft counts ${a} and ${b}: wrong`);
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

const results = new Map<number, { runs: Run[]; perft: [number, number] }>();
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
