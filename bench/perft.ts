// Perft speed, beside native Stockfish in the same run when it is installed.
//   npm run bench:perft [-- --depth N] [--fen "<FEN>"] [--runs N]
// Defaults: start position depth 6 and Kiwipete depth 5. Node counts are asserted (against
// the Stockfish-computed suite, or against Stockfish itself for other positions) before any
// speed is printed.

import { parseArgs } from "node:util";
import { Core } from "../bindings/core.js";
import { UciProcess, findExecutable } from "./uci-process.js";
import { readPerftSuite } from "../tests/perft-suite.js";

const { values } = parseArgs({
  options: {
    depth: { type: "string" },
    fen: { type: "string" },
    runs: { type: "string", default: "3" },
  },
});

const KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const cases: { name: string; fen: string; depth: number }[] = values.fen
  ? [{ name: "custom", fen: values.fen, depth: Number(values.depth ?? 5) }]
  : [
      { name: "startpos", fen: START, depth: Number(values.depth ?? 6) },
      { name: "kiwipete", fen: KIWIPETE, depth: Number(values.depth ?? 5) },
    ];
const runs = Math.max(1, Number(values.runs));

const suite = readPerftSuite();
const sfPath = findExecutable("stockfish");
const sf = sfPath ? new UciProcess(sfPath) : undefined;
const sfName = sf ? await sf.init() : "";
const core = await Core.create();

console.log(`Perft, bulk counting, one thread; best of ${runs} runs each, alternating engines.`);
console.log(sf ? `Reference: native ${sfName} (${sfPath}), same invocation.` : "Stockfish is not installed (PATH, /usr/games): no ratio measured.");
console.log("");
const header = ["position", "depth", "nodes", "ours ms", "ours Mnps", "sf ms", "sf Mnps", "ours/sf"];
const rows: string[][] = [];
let failed = false;

for (const c of cases) {
  core.setPosition(c.fen);
  core.perft(Math.min(c.depth, 4)); // let the wasm tier up before timing
  const known = suite.find((s) => s.fen === core.fen())?.counts[c.depth - 1];
  let ours = Infinity;
  let theirs = Infinity;
  let nodes = 0;
  let sfNodes: number | undefined;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    nodes = core.perft(c.depth);
    ours = Math.min(ours, performance.now() - t0);
    if (sf) {
      const [n, ms] = await sf.perft(`fen ${c.fen}`, c.depth);
      sfNodes = n;
      theirs = Math.min(theirs, ms);
    }
  }
  const expected = known ?? sfNodes;
  if (expected === undefined) {
    console.log(`${c.name}: no reference count (not in the suite, no Stockfish): count not asserted`);
  } else if (nodes !== expected) {
    console.error(`${c.name} depth ${c.depth}: counted ${nodes}, expected ${expected}`);
    failed = true;
    continue;
  }
  const mnps = (n: number, ms: number) => (n / ms / 1000).toFixed(1);
  rows.push([
    c.name, String(c.depth), String(nodes), ours.toFixed(0), mnps(nodes, ours),
    sf ? theirs.toFixed(0) : "-", sf ? mnps(nodes, theirs) : "-", sf ? (theirs / ours).toFixed(2) + "x" : "-",
  ]);
}
await sf?.quit();

const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const fmt = (r: string[]) => r.map((v, i) => (i < 1 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join("  ");
console.log(fmt(header));
for (const r of rows) console.log(fmt(r));
if (failed) process.exit(1);
