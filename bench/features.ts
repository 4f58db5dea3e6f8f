// Measures each selectivity feature of the search by switching it off alone: bench nodes at
// a fixed depth and the Win At Chess solve rate at a fixed time, beside the full search.
//   npm run bench:features [-- --depth 13] [--nodes 200000] [--first 300]
// Node budgets (not times) keep the whole table independent of machine load.

import { parseArgs } from "node:util";
import { spawnSync } from "node:child_process";
import { createInstance } from "../bindings/wasm.js";
import { SEARCH_FEATURES_MAX } from "../bindings/validate.js";

const { values } = parseArgs({
  options: {
    depth: { type: "string", default: "13" },
    nodes: { type: "string", default: "200000" },
    first: { type: "string", default: "300" },
  },
});

const FEATURES: [string, number][] = [
  ["(all on)", 0],
  ["null move", 1],
  ["late move reductions", 2],
  ["reverse futility", 4],
  ["futility", 8],
  ["late move pruning", 16],
  ["SEE pruning", 32],
  ["aspiration windows", 64],
  ["check extension", 128],
  ["internal iterative reduction", 256],
  ["singular extension", 512],
  ["correction history", 1024],
  ["cut-node reductions", 2048],
  ["history pruning", 4096],
  ["double extension", 16384],
  ["pieces' correction history", 32768],
];
const ALL = SEARCH_FEATURES_MAX;
const tactics = new URL("./tactics.ts", import.meta.url).pathname;

console.log(`Each row switches one feature off. Bench: ${values.depth} plies, fresh tables. WAC: ${values.nodes} nodes per position.\n`);
console.log("| feature off | bench nodes | vs all on | WAC solved |");
console.log("| --- | --- | --- | --- |");
let baseline = 0;
for (const [name, bit] of FEATURES) {
  const w = await createInstance();
  w.setSearchFeatures(ALL & ~bit);
  const nodes = Number(w.bench(Number(values.depth)));
  if (bit === 0) baseline = nodes;
  const run = spawnSync(process.execPath, ["--import", "tsx", tactics, "--nodes", values.nodes!, "--first", values.first!, "--quiet", "--features", String(ALL & ~bit)], { encoding: "utf8" });
  const solved = /solved (\d+ \/ \d+)/.exec(run.stdout)?.[1] ?? `failed: ${run.stderr.slice(0, 80)}`;
  const ratio = baseline ? `${((nodes / baseline) * 100).toFixed(0)}%` : "-";
  console.log(`| ${name} | ${nodes} | ${ratio} | ${solved} |`);
}
