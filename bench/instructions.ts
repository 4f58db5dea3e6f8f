// Instructions per node of the bench search (assembly/bench.ts), counted by valgrind's
// cachegrind for each build: a speed measure that the load of a shared machine does not move,
// as it moves nodes per second. It sees computation only: memory latency (the hash table's
// cache misses) does not show in it, so a change meant to hide latency still needs timing;
// with --cache, cachegrind also simulates the caches and the data misses per node (first
// level and last level) are printed, which shows a change to the memory footprint.
// Each build runs at the depth asked and at depth 1 in fresh processes, and the difference of
// instructions is divided by the difference of nodes, so that Node's start-up and the
// module's compile drop out; the node count must equal a native run's. The module is compiled
// by V8's optimising tier from the start (--no-liftoff): with the default tiering a function
// runs in the baseline tier until a background compile replaces it, and under valgrind, which
// runs one thread at a time, when that happens varies from run to run (the same build measured
// 6,115 and 10,430 instructions per node). Needs valgrind
// (apt-get install valgrind); about 40 s per build at depth 10 on an idle machine (about twice
// that with --cache).
//   npm run bench:instructions [-- --depth 10] [--cache] [FILE.wasm ...]   (default: both builds)

import { parseArgs } from "node:util";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { findExecutable } from "../match/uci-process.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { depth: { type: "string", default: "10" }, cache: { type: "boolean", default: false } },
});
const cacheSim = values.cache!;
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

interface Count {
  nodes: number;
  instructions: number;
  d1Misses: number;
  llMisses: number;
}

/** A counter from cachegrind's summary (NaN when it is absent). */
function counter(stderr: string, name: RegExp): number {
  const m = new RegExp(name.source + String.raw`\s+([\d,]+)`).exec(stderr);
  return m ? Number(m[1].replace(/,/g, "")) : NaN;
}

/** Nodes, instructions and (with --cache) data cache misses of one run. */
function count(file: string, d: number): Count {
  const args = ["--tool=cachegrind", `--cache-sim=${cacheSim ? "yes" : "no"}`, "--cachegrind-out-file=/dev/null"];
  const run = spawnSync(valgrind!, [...args, process.execPath, "--no-liftoff", PROBE, file, String(d)], { encoding: "utf8" });
  const instructions = counter(run.stderr, /I\s+refs:/);
  const d1Misses = cacheSim ? counter(run.stderr, /D1\s+misses:/) : 0;
  const llMisses = cacheSim ? counter(run.stderr, /LLd\s+misses:/) : 0;
  if (run.status !== 0 || !(instructions > 0) || Number.isNaN(d1Misses + llMisses)) {
    throw new Error(`${file} at depth ${d}: no counts in cachegrind's summary: ${run.stderr.slice(-500)}`);
  }
  return { nodes: Number(run.stdout.trim()), instructions, d1Misses, llMisses };
}

/** Nodes of the same bench search run natively, outside valgrind. */
function nativeNodes(file: string, d: number): number {
  const run = spawnSync(process.execPath, [PROBE, file, String(d)], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`${file} at depth ${d}: ${run.stderr.slice(-500)}`);
  return Number(run.stdout.trim());
}

let first = 0;
for (const file of builds) {
  const base = count(file, 1);
  const full = count(file, depth);
  // The counted run must be the search itself: the same nodes as a native run.
  const native = nativeNodes(file, depth);
  if (full.nodes !== native) throw new Error(`${file}: ${full.nodes} nodes under valgrind, ${native} natively`);
  const nodes = full.nodes - base.nodes;
  const perNode = (full.instructions - base.instructions) / nodes;
  if (!first) first = perNode;
  const misses = cacheSim
    ? `; data misses per node: first level ${((full.d1Misses - base.d1Misses) / nodes).toFixed(2)}, ` +
      `last level ${((full.llMisses - base.llMisses) / nodes).toFixed(3)}`
    : "";
  console.log(
    `${file}: depth ${depth}, ${full.nodes.toLocaleString("en")} nodes, ` +
      `${perNode.toFixed(0)} instructions per node (${(perNode / first).toFixed(3)}× the first)${misses}`,
  );
}
