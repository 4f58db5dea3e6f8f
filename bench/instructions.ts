// Instructions per node of the bench search (assembly/bench.ts), counted by valgrind's
// cachegrind for each build: a speed measure that the load of a shared machine does not move,
// as it moves nodes per second. It sees computation only: memory latency (the hash table's
// cache misses) does not show in it, so a change meant to hide latency still needs timing.
// Each build runs at the depth asked and at depth 1 in fresh processes, and the difference of
// instructions is divided by the difference of nodes, so that Node's start-up and the
// module's compile drop out. Needs valgrind (apt-get install valgrind); about 40 s per build
// at depth 10.
//   npm run bench:instructions [-- --depth 10] [FILE.wasm ...]   (default: both builds)

import { parseArgs } from "node:util";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { findExecutable } from "./uci-process.js";

const { values, positionals } = parseArgs({ allowPositionals: true, options: { depth: { type: "string", default: "10" } } });
const depth = Number(values.depth);
if (!Number.isInteger(depth) || depth < 2 || depth > 20) throw new Error("--depth must be a whole number from 2 to 20");
const PROBE = fileURLToPath(new URL("./instructions-probe.mjs", import.meta.url));
const builds = positionals.length
  ? positionals
  : ["wasmchess-nnue.wasm", "wasmchess.wasm"].map((f) => fileURLToPath(new URL(`../build/${f}`, import.meta.url)));

const valgrind = findExecutable("valgrind");
if (!valgrind) {
  console.error("valgrind is not installed (apt-get install valgrind)");
  process.exit(2);
}

/** Nodes and instructions of one run. */
function count(file: string, d: number): { nodes: number; instructions: number } {
  const run = spawnSync(valgrind!, ["--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", process.execPath, PROBE, file, String(d)], {
    encoding: "utf8",
  });
  const refs = /I\s+refs:\s+([\d,]+)/.exec(run.stderr);
  if (run.status !== 0 || !refs) throw new Error(`${file} at depth ${d}: ${run.stderr.slice(-500)}`);
  return { nodes: Number(run.stdout.trim()), instructions: Number(refs[1].replace(/,/g, "")) };
}

let first = 0;
for (const file of builds) {
  const base = count(file, 1);
  const full = count(file, depth);
  const perNode = (full.instructions - base.instructions) / (full.nodes - base.nodes);
  if (!first) first = perNode;
  console.log(
    `${file}: depth ${depth}, ${full.nodes.toLocaleString("en")} nodes, ` +
      `${perNode.toFixed(0)} instructions per node (${(perNode / first).toFixed(3)}× the first)`,
  );
}
