// The search bench: the fixed positions of assembly/bench.ts searched to a fixed depth with
// fresh tables; prints the node signature (`Nodes searched: N`) and nodes per second.
// With --ttd it also times the search to a depth (default 12) from the start position and
// Kiwipete, beside native Stockfish when it is installed.
// It runs the default build (the network build where SIMD runs); --build classical|nnue picks
// one, --wasm FILE another module. Commits cite the signature of both builds.
//   npm run bench [-- --depth N] [--ttd] [--ttd-depth N] [--build classical|nnue] [--wasm FILE]

import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createInstance, buildUrl, defaultBuild } from "../bindings/wasm.js";
import type { EngineBuild } from "../bindings/wasm.js";
import { UciProcess, findExecutable } from "./uci-process.js";

const { values } = parseArgs({
  options: {
    depth: { type: "string" },
    ttd: { type: "boolean", default: false },
    "ttd-depth": { type: "string", default: "12" },
    wasm: { type: "string" },
    build: { type: "string" },
  },
});

if (values.build !== undefined && values.build !== "classical" && values.build !== "nnue") throw new Error("--build must be classical or nnue");
const url = values.wasm ? pathToFileURL(resolve(values.wasm)) : buildUrl((values.build as EngineBuild | undefined) ?? defaultBuild());
const w = await createInstance({}, url);
console.log(
  `${w.networkAvailable() ? "network build" : "classical build"} (${url.pathname.split("/").pop()}), evaluation: ` +
    (w.networkHidden() > 0 ? `network ${w.networkHash().toString(16).padStart(8, "0")}, hidden size ${w.networkHidden()}` : "classical"),
);
const depth = values.depth ? Number(values.depth) : 0;
const t0 = performance.now();
const nodes = Number(w.bench(depth));
const ms = performance.now() - t0;
console.log(`${w.benchPositionCount()} positions, depth ${depth > 0 ? depth : "default (13)"}`);
console.log(`Total time (ms) : ${ms.toFixed(0)}`);
console.log(`Nodes searched  : ${nodes}`);
console.log(`Nodes/second    : ${Math.round((nodes / ms) * 1000)}`);

if (values.ttd) await timeToDepth(Number(values["ttd-depth"]));

async function timeToDepth(target: number): Promise<void> {
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
    w.optionHash(16);
    w.newGame();
    w.setFen(fen);
    w.limitsReset();
    w.limitDepth(target);
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
