// Memory soak: one UCI engine process runs many consecutive searches (positions from the
// openings file, a new game now and then, MultiPV and hash changes in between) while its
// resident memory (VmRSS) is sampled; reports the drift after the warm-up and fails when it
// exceeds the limit. The games soak is the match runner at a fast time control (README).
//
// With --threads N every search runs on N threads (their memory is the same process's).
//
//   npx tsx bench/soak.ts [--searches 10000] [--nodes 2000] [--every 250] [--limit-mb 5] [--hash MB]
//       [--threads N]

import { parseArgs } from "node:util";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { UciProcess } from "../match/uci-process.js";

const { values } = parseArgs({
  options: {
    searches: { type: "string", default: "10000" },
    nodes: { type: "string", default: "2000" },
    every: { type: "string", default: "250" },
    "limit-mb": { type: "string", default: "5" },
    warmup: { type: "string", default: "500" },
    hash: { type: "string" },
    threads: { type: "string" },
  },
});
const searches = Number(values.searches);
const every = Number(values.every);
const warmup = Number(values.warmup);
const CLI = fileURLToPath(new URL("../build/cli.js", import.meta.url));
const OPENINGS = fileURLToPath(new URL("./data/openings-random6.epd", import.meta.url));
const fens = readFileSync(OPENINGS, "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => l.split(/\s+/).slice(0, 4).join(" ") + " 0 1");

const engine = new UciProcess(process.execPath, [CLI]);
await engine.init();
if (values.hash !== undefined) engine.send(`setoption name Hash value ${values.hash}`);
if (values.threads !== undefined) engine.send(`setoption name Threads value ${values.threads}`);
await engine.isReady();
const samples: [number, number][] = [];
let bestmoves = 0;
engine.listeners.push((l) => {
  if (l.startsWith("bestmove")) bestmoves++;
});
const t0 = performance.now();
for (let i = 1; i <= searches; i++) {
  if (i % 100 === 0) engine.send("ucinewgame");
  if (i % 1000 === 500) engine.send(`setoption name MultiPV value ${1 + (Math.floor(i / 1000) % 4)}`);
  const fen = fens[i % fens.length];
  // Every third search plays from the start position through a line, to exercise the history.
  engine.send(i % 3 === 0 ? "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6" : `position fen ${fen}`);
  engine.send(`go nodes ${values.nodes}`);
  await engine.waitFor((l) => l.startsWith("bestmove"), 30_000);
  if (i % every === 0) {
    const rss = engine.memoryMb("VmRSS");
    samples.push([i, rss]);
    process.stdout.write(`\rsearch ${i}/${searches}  RSS ${rss.toFixed(1)} MB  ${((performance.now() - t0) / 1000).toFixed(0)} s   `);
  }
}
await engine.isReady();
await engine.quit();
process.stdout.write("\n");
if (bestmoves !== searches) throw new Error(`${bestmoves} bestmoves for ${searches} searches`);

const after = samples.filter(([i]) => i >= warmup);
const first = after[0][1];
const last = after[after.length - 1][1];
const max = Math.max(...after.map(([, r]) => r));
const min = Math.min(...after.map(([, r]) => r));
// Least-squares slope, MB per 1,000 searches.
const n = after.length;
const mx = after.reduce((s, [i]) => s + i, 0) / n;
const my = after.reduce((s, [, r]) => s + r, 0) / n;
const slope = (after.reduce((s, [i, r]) => s + (i - mx) * (r - my), 0) / after.reduce((s, [i]) => s + (i - mx) ** 2, 0)) * 1000;
console.log(`RSS by searches: ${samples.filter((_, k) => k % Math.max(1, Math.floor(samples.length / 20)) === 0).map(([i, r]) => `${i}: ${r.toFixed(1)}`).join(", ")}`);
console.log(`${searches} searches of ${values.nodes} nodes in ${((performance.now() - t0) / 1000).toFixed(1)} s, ${bestmoves} bestmoves`);
console.log(`RSS after ${warmup} searches ${first.toFixed(1)} MB, at the end ${last.toFixed(1)} MB, range ${min.toFixed(1)}-${max.toFixed(1)} MB`);
console.log(`drift ${(last - first).toFixed(2)} MB (slope ${slope.toFixed(3)} MB per 1,000 searches); limit ${values["limit-mb"]} MB`);
if (Math.abs(last - first) > Number(values["limit-mb"])) {
  console.log("FAIL: memory drift above the limit");
  process.exit(1);
}
