// The search bench: the fixed positions of assembly/bench.ts searched to a fixed depth with
// fresh tables; prints the node signature (`Nodes searched: N`) and nodes per second of each
// build: the network build (NNUE evaluation, the default where SIMD runs) and the classical
// build (hand-crafted evaluation), in the same run, with the ratio of their speeds.
// --build classical|nnue runs one build only, --wasm FILE another module.
// --scalar runs the network build again with its scalar kernels (it must visit the same nodes)
// and --kernels times each network kernel, SIMD against scalar, on a few positions.
// With --ttd it also times the search to a depth (default 12) from the start position and
// Kiwipete, beside native Stockfish when it is installed. Commits cite both signatures.
//   npm run bench [-- --depth N] [--build classical|nnue] [--wasm FILE] [--scalar] [--kernels]
//       [--ttd] [--ttd-depth N]

import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createInstance, buildUrl, defaultBuild } from "../bindings/wasm.js";
import type { EngineBuild, EngineExports } from "../bindings/wasm.js";
import { UciProcess, findExecutable } from "../match/uci-process.js";

const { values } = parseArgs({
  options: {
    depth: { type: "string" },
    ttd: { type: "boolean", default: false },
    "ttd-depth": { type: "string", default: "12" },
    wasm: { type: "string" },
    build: { type: "string" },
    scalar: { type: "boolean", default: false },
    kernels: { type: "boolean", default: false },
  },
});

if (values.build !== undefined && values.build !== "classical" && values.build !== "nnue") throw new Error("--build must be classical or nnue");
const depth = values.depth ? Number(values.depth) : 0;
const urls: URL[] = values.wasm
  ? [pathToFileURL(resolve(values.wasm))]
  : values.build
    ? [buildUrl(values.build as EngineBuild)]
    : defaultBuild() === "nnue"
      ? [buildUrl("nnue"), buildUrl("classical")]
      : [buildUrl("classical")];
if (!values.wasm && !values.build && defaultBuild() !== "nnue") console.log("this host has no wasm SIMD: the classical build only");

interface Run {
  label: string;
  nodes: number;
  nps: number;
}

function describe(w: EngineExports, url: URL): string {
  return (
    `${w.networkAvailable() ? "network build" : "classical build"} (${url.pathname.split("/").pop()}), evaluation: ` +
    (w.networkHidden() > 0 ? `network ${w.networkHash().toString(16).padStart(8, "0")}, hidden size ${w.networkHidden()}` : "classical")
  );
}

function benchOnce(w: EngineExports, label: string): Run {
  const t0 = performance.now();
  const nodes = Number(w.bench(depth));
  const ms = performance.now() - t0;
  const nps = Math.round((nodes / ms) * 1000);
  console.log(`${label}`);
  console.log(`${w.benchPositionCount()} positions, depth ${depth > 0 ? depth : "default (13)"}`);
  console.log(`Total time (ms) : ${ms.toFixed(0)}`);
  console.log(`Nodes searched  : ${nodes}`);
  console.log(`Nodes/second    : ${nps}`);
  return { label, nodes, nps };
}

const runs: Run[] = [];
let first: EngineExports | undefined;
for (const url of urls) {
  const w = await createInstance({}, url);
  first ??= w;
  if (runs.length > 0) console.log("");
  runs.push(benchOnce(w, describe(w, url)));
  if (values.scalar && w.networkHidden() > 0) {
    w.networkSimd(false);
    console.log("");
    const scalar = benchOnce(w, "the same network build with its scalar kernels");
    w.networkSimd(true);
    if (scalar.nodes !== runs[runs.length - 1].nodes) throw new Error(`scalar kernels searched ${scalar.nodes} nodes, SIMD ${runs[runs.length - 1].nodes}`);
    console.log(`SIMD kernels: ${(runs[runs.length - 1].nps / scalar.nps).toFixed(2)}x the nodes/s of the scalar ones`);
  }
  if (values.kernels && w.networkHidden() > 0) kernelTimes(w);
}
if (runs.length === 2) console.log(`\nnetwork build / classical build nodes/s: ${(runs[0].nps / runs[1].nps).toFixed(2)}`);

if (values.ttd) await timeToDepth(first!, Number(values["ttd-depth"]));

/** Each network kernel timed SIMD against scalar (median of 5 runs), on a middlegame position
 *  after a quiet move, a capture and castling; the checksums of both versions must agree. */
function kernelTimes(w: EngineExports): void {
  const cases: [string, string, string][] = [
    ["quiet", "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", "d2d3"],
    ["capture", "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", "c4f7"],
    ["castling", "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", "e1g1"],
  ];
  const names = ["refresh", "update", "output"];
  const iterations = [20_000, 200_000, 200_000];
  console.log(`\nnetwork kernels, ns per call (median of 5), SIMD against scalar:`);
  console.log("kernel    move       SIMD ns   scalar ns   speed-up");
  for (let kernel = 0; kernel < 3; kernel++) {
    for (const [name, fen, move] of kernel === 1 ? cases : cases.slice(0, 1)) {
      if (w.setFen(fen) !== 0) throw new Error(`bad FEN ${fen}`);
      if (!w.playUciMove(move)) throw new Error(`illegal ${move}`);
      const time = (simd: boolean): [number, number] => {
        const ns: number[] = [];
        let sum = 0;
        for (let r = 0; r < 5; r++) {
          const t0 = performance.now();
          sum = w.networkKernel(kernel, simd, iterations[kernel]);
          ns.push(((performance.now() - t0) * 1e6) / iterations[kernel]);
        }
        ns.sort((a, b) => a - b);
        return [ns[2], sum];
      };
      const [simdNs, simdSum] = time(true);
      const [scalarNs, scalarSum] = time(false);
      if (simdSum !== scalarSum || simdSum === -1) throw new Error(`${names[kernel]}: SIMD checksum ${simdSum}, scalar ${scalarSum}`);
      console.log(
        `${names[kernel].padEnd(9)} ${(kernel === 1 ? name : "-").padEnd(9)} ${simdNs.toFixed(1).padStart(8)} ${scalarNs.toFixed(1).padStart(11)} ${(scalarNs / simdNs).toFixed(2).padStart(9)}x`,
      );
    }
  }
}

async function timeToDepth(w: EngineExports, target: number): Promise<void> {
  const positions: [string, string][] = [
    ["startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"],
    ["kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"],
  ];
  const sfPath = findExecutable("stockfish");
  const sf = sfPath ? new UciProcess(sfPath) : undefined;
  const sfName = sf ? await sf.init() : "";
  if (sf) sf.send("setoption name Threads value 1");
  console.log(`\nTime to depth ${target}, one thread, 16 MB hash, fresh tables` + (sf ? ` (beside native ${sfName})` : " (Stockfish not installed)"));
  console.log("position   ours ms   ours nodes   sf ms   sf nodes");
  for (const [name, fen] of positions) {
    w.setHash(16);
    w.newGame();
    w.setFen(fen);
    w.resetLimits();
    w.setDepthLimit(target);
    const s = performance.now();
    w.go();
    const ours = performance.now() - s;
    let sfMs = "-";
    let sfNodes = "-";
    if (sf) {
      sf.send("setoption name Hash value 16");
      sf.send("ucinewgame");
      sf.send(`position fen ${fen}`);
      await sf.isReady();
      const start = performance.now();
      let lastNodes = "";
      const l = (line: string) => {
        const m = / nodes (\d+)/.exec(line);
        if (m) lastNodes = m[1];
      };
      sf.listeners.push(l);
      sf.send(`go depth ${target}`);
      await sf.waitFor((x) => x.startsWith("bestmove"), 120_000);
      sfMs = (performance.now() - start).toFixed(0);
      sfNodes = lastNodes;
      sf.listeners.splice(sf.listeners.indexOf(l), 1);
    }
    console.log(`${name.padEnd(10)} ${ours.toFixed(0).padStart(7)} ${String(w.infoNodes()).padStart(12)} ${sfMs.padStart(7)} ${sfNodes.padStart(10)}`);
  }
  await sf?.quit();
}
