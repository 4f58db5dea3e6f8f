// Chess960 perft against native Stockfish (UCI_Chess960 true), position by position, in the
// same run: every start position 0..959 at --depth (default 4), then --deep positions (a
// sample spread over the numbers, default 8) at --deep-depth (default 6). A count that
// differs is narrowed down with divide to the first move where the two disagree
// (match/perft.ts; `npm test` runs the same comparison at depth 4 and three positions at 6).
//   npx tsx bench/chess960.ts [--depth N] [--deep N] [--deep-depth N] [--from N] [--to N]

import { parseArgs } from "node:util";
import { Core } from "../bindings/core.js";
import { chess960StartFen } from "../bindings/chess960.js";
import { PerftComparison, comparePerft } from "../match/perft.js";
import { UciProcess, findExecutable } from "../match/uci-process.js";

const { values } = parseArgs({
  options: {
    depth: { type: "string", default: "4" },
    deep: { type: "string", default: "8" },
    "deep-depth": { type: "string", default: "6" },
    from: { type: "string", default: "0" },
    to: { type: "string", default: "959" },
  },
});
const depth = Number(values.depth);
const deepCount = Number(values.deep);
const deepDepth = Number(values["deep-depth"]);
const from = Number(values.from);
const to = Number(values.to);

const path = findExecutable("stockfish");
if (!path) {
  console.error("stockfish is not installed (PATH, /usr/games): nothing to compare with");
  process.exit(2);
}
const sf = new UciProcess(path);
const sfName = await sf.init();
sf.setOption("UCI_Chess960", "true");
const core = await Core.create();
core.setChess960(true);

let failures = 0;
async function check(n: number, d: number): Promise<PerftComparison> {
  const r = await comparePerft(core, sf, chess960StartFen(n), d, "Stockfish");
  if (r.difference !== undefined) {
    failures++;
    console.log(`#${n} ${r.fen} depth ${d}: ours ${r.ours}, Stockfish ${r.theirs}; ${r.difference}`);
  }
  return r;
}

console.log(`Chess960 perft against native ${sfName} (${path}), UCI_Chess960 true.`);
let total = 0n;
let oursMs = 0;
let sfMs = 0;
let count = 0;
const t0 = performance.now();
for (let n = from; n <= to; n++) {
  const r = await check(n, depth);
  total += r.ours;
  oursMs += r.oursMs;
  sfMs += r.theirsMs;
  count++;
}
console.log(`depth ${depth}: ${count} start positions (${from}..${to}), ${total} nodes, ${failures} differing; ours ${oursMs.toFixed(0)} ms, Stockfish ${sfMs.toFixed(0)} ms (wall ${((performance.now() - t0) / 1000).toFixed(1)} s)`);

const step = Math.max(1, Math.floor((to - from + 1) / Math.max(1, deepCount)));
for (let k = 0; k < deepCount; k++) {
  const n = Math.min(to, from + k * step + ((k * 37) % step));
  const before = failures;
  const r = await check(n, deepDepth);
  console.log(`#${n} ${r.fen} depth ${deepDepth}: ${r.ours} nodes, ours ${r.oursMs.toFixed(0)} ms, Stockfish ${r.theirsMs.toFixed(0)} ms${failures > before ? " DIFFERS" : ""}`);
}
await sf.quit();
console.log(failures === 0 ? "all counts agree" : `${failures} counts differ`);
process.exit(failures === 0 ? 0 : 1);
