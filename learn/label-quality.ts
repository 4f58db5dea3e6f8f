// How good the data generator's labels are for their cost: for a random sample of records, the
// stored search score and fresh searches (cleared tables) at several node counts, each scored
// as sigmoid(score / scale) against the game's result (mean squared error), and against the
// largest node count's score. Tells what halving or doubling the nodes per move of
// `npm run datagen` would cost or buy in label quality (the other side of the trade is the
// number of games).
//
//   npx tsx learn/label-quality.ts --data data/n10 [--sample 2000] [--nodes 1250,2500,5000,10000,20000]
//       [--engine build/wasmchess-nnue.wasm] [--eval-scale 148.5] [--seed 1]

import { parseArgs } from "node:util";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import { Core } from "../bindings/core.js";
import { dataFiles, recordResult, recordScore, RECORD_BYTES, RecordCodec } from "./records.js";
import { Rng } from "./rng.js";

const { values } = parseArgs({
  options: {
    data: { type: "string", multiple: true, default: [] },
    sample: { type: "string", default: "2000" },
    nodes: { type: "string", default: "1250,2500,5000,10000,20000" },
    engine: { type: "string", default: "build/wasmchess-nnue.wasm" },
    "eval-scale": { type: "string", default: "148.5" },
    "max-score": { type: "string", default: "3000" },
    seed: { type: "string", default: "1" },
  },
});

function fail(message: string): never {
  console.error(`label-quality: ${message}`);
  process.exit(2);
}

const files = values.data.flatMap(dataFiles);
if (!files.length) fail("--data PATH is required");
const sample = Number(values.sample);
const nodes = values.nodes.split(",").map(Number);
const scale = Number(values["eval-scale"]);
const maxScore = Number(values["max-score"]);
if (!Number.isInteger(sample) || sample < 1) fail("--sample must be a positive whole number");
if (!nodes.length || nodes.some((n) => !Number.isInteger(n) || n < 1)) fail("--nodes must list positive whole numbers");
if (!(scale > 0)) fail("--eval-scale must be positive");

const buf = Buffer.concat(files.map((f) => readFileSync(f)));
const total = buf.length / RECORD_BYTES;
const core = await Core.create({ hashMb: 8, wasmUrl: pathToFileURL(resolve(values.engine)) });
const codec = new RecordCodec(core);
const rng = new Rng(Number(values.seed), 0x1abe1);
const sigmoid = (cp: number) => 1 / (1 + Math.exp(-cp / scale));

const labels = ["stored", ...nodes.map((n) => `${n} nodes`)];
const vsResult = new Array<number>(labels.length).fill(0);
const vsLargest = new Array<number>(labels.length).fill(0);
const began = performance.now();
let taken = 0;
while (taken < sample) {
  const i = rng.below(total);
  const stored = recordScore(buf, i);
  if (Math.abs(stored) > maxScore) continue;
  const result = recordResult(buf, i) / 2; // white's view, as the score
  const scores = [stored];
  for (const n of nodes) {
    core.newGame();
    codec.unpack(buf, i, `record ${i}`);
    core.search({ nodes: n });
    const v = core.exports.resultScore();
    scores.push(core.sideToMove() === "w" ? v : -v);
  }
  const largest = sigmoid(scores[scores.length - 1]);
  scores.forEach((s, k) => {
    vsResult[k] += (sigmoid(s) - result) ** 2;
    vsLargest[k] += (sigmoid(s) - largest) ** 2;
  });
  taken++;
}

console.log(`${taken} records of ${files.join(", ")} (seed ${values.seed}), scale ${scale} cp, ${((performance.now() - began) / 1000).toFixed(0)} s`);
console.log(`label            vs result   vs ${nodes[nodes.length - 1]} nodes`);
labels.forEach((label, k) => console.log(`${label.padEnd(16)} ${(vsResult[k] / taken).toFixed(6)}    ${(vsLargest[k] / taken).toFixed(6)}`));
