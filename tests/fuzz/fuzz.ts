// UCI fuzzing, the long run: hostile input to the real UCI engine (build/cli.js) in bursts,
// each followed by a checkpoint (stop, isready) that checks the process is alive, answers
// readyok, and gave exactly one bestmove per go. Prints lines, crashes, hangs and wall time;
// failing bursts are written to the findings folder. Exits 1 when anything was found.
//   npm run fuzz [-- --lines 100000] [--seed N] [--findings DIR] [--engine "CMD ARGS"]

import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fuzz } from "./harness.js";

const { values } = parseArgs({
  options: {
    lines: { type: "string", default: "10000" },
    seed: { type: "string", default: String(Date.now() % 1_000_000) },
    findings: { type: "string" },
    engine: { type: "string" },
  },
});

const seed = Number(values.seed);
const findingsDir = values.findings ?? join(tmpdir(), `wasmchess-fuzz-${seed}`);
const [command, ...args] = values.engine
  ? values.engine.split(" ").filter(Boolean)
  : [process.execPath, fileURLToPath(new URL("../../build/cli.js", import.meta.url))];

console.log(`UCI fuzzing: ${values.lines} lines, seed ${seed}, engine ${[command, ...args].join(" ")}`);
const report = await fuzz({
  lines: Number(values.lines),
  seed,
  command,
  args,
  stormRate: 0.03,
  longRate: 0.05,
  stormLines: [1000, 3000],
  burstLines: [20, 300],
  checkpointCpuMs: 15_000,
  perLineCpuMs: 20,
  stallMs: 300_000,
  findingsDir,
  log: (l) => console.log(l),
  progressEveryLines: 10_000,
});

console.log("");
console.log(`lines sent        ${report.lines}`);
console.log(`bursts            ${report.bursts} (${report.storms} go/stop storms, ${report.longPositions} positions of 10,000 moves)`);
console.log(`go / bestmove     ${report.gos} / ${report.bestmoves}`);
console.log(`crashes           ${report.crashes}`);
console.log(`hangs             ${report.hangs}`);
console.log(`other findings    ${report.findings.length - report.crashes - report.hangs}`);
console.log(`wall time         ${(report.wallMs / 1000).toFixed(1)} s`);
if (report.findings.length) console.log(`failing bursts in ${findingsDir}`);
process.exit(report.findings.length ? 1 : 0);
