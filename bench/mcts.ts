// The Monte Carlo search's speed and memory: visits per second and tree bytes per visit over
// the bench positions, beside the alpha-beta search's nodes per second on the same positions
// in the same run (each position searched for the time the Monte Carlo search took).
//   npx tsx bench/mcts.ts [--visits 20000] [--hash 256] [--build nnue|classical] [--param NAME=VALUE ...]
// The tree must hold the visits: a full tree ends a search early, and the run says so.

import { parseArgs } from "node:util";
import { Core } from "../bindings/core.js";
import type { EngineBuild } from "../bindings/wasm.js";

const { values } = parseArgs({
  options: {
    visits: { type: "string", default: "20000" },
    hash: { type: "string", default: "256" },
    build: { type: "string" },
    param: { type: "string", multiple: true, default: [] },
  },
});
const visits = Number(values.visits);
const core = await Core.create({ hashMb: Number(values.hash), build: values.build as EngineBuild | undefined });
for (const p of values.param!) {
  const [name, value] = p.split("=");
  core.setSearchParam(name, Number(value));
}
const w = core.exports;
const count = w.benchPositionCount();
let mctsVisits = 0;
let mctsMs = 0;
let treeBytes = 0;
let abNodes = 0;
let abMs = 0;
let full = 0;
console.log("position  visits   visits/s  bytes/visit  alpha-beta nodes/s");
for (let i = 0; i < count; i++) {
  const fen = w.benchFen(i);
  core.setSearchMode("mcts");
  core.setPosition(fen);
  core.newGame();
  const t = performance.now();
  const r = core.search({ nodes: visits });
  const ms = performance.now() - t;
  const bytes = w.treeBytes();
  if (r.nodes < visits && !("mate" in r.score)) full++;
  core.setSearchMode("alphabeta");
  core.newGame();
  const t2 = performance.now();
  const ab = core.search({ movetime: Math.max(1, Math.round(ms)) });
  const abTime = performance.now() - t2;
  mctsVisits += r.nodes;
  mctsMs += ms;
  treeBytes += bytes;
  abNodes += ab.nodes;
  abMs += abTime;
  console.log(`${String(i + 1).padStart(8)} ${String(r.nodes).padStart(7)} ${String(Math.round((r.nodes * 1000) / ms)).padStart(10)} ${(bytes / Math.max(r.nodes, 1)).toFixed(0).padStart(12)} ${String(Math.round((ab.nodes * 1000) / abTime)).padStart(19)}`);
}
const vps = (mctsVisits * 1000) / mctsMs;
const nps = (abNodes * 1000) / abMs;
console.log(`\n${count} positions, ${visits} visits each (${core.info().evaluation}): ${Math.round(vps)} visits/s, ` +
  `${(treeBytes / mctsVisits).toFixed(0)} tree bytes per visit; alpha-beta ${Math.round(nps)} nodes/s ` +
  `(visits/s over nodes/s ${(vps / nps).toFixed(3)})` + (full ? `; ${full} searches ended early (tree full: raise --hash)` : ""));
core.dispose();
