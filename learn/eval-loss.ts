// The training loss of the engine's own evaluations on held-out positions: the hand-crafted
// evaluation and, with --net, a network file, each through the engine (static evaluation,
// quantised network), on the same validation split and with the same target as `npm run
// train` (sigmoid(eval / scale) against wdl * result + (1 - wdl) * sigmoid(score / scale)).
// Tells whether a network predicts the games better than the evaluation it should replace.
// --wdl takes a comma-separated list (0.2,1: the training target and the results alone), each
// printed in its own column from one pass over the positions.
//
//   npx tsx learn/eval-loss.ts --data data/hce1 --data data/hce2 [--net FILE.nnue ...]
//       [--wdl 0.4[,1]] [--validation 0.02] [--max-score 3000] [--seed 1] [--eval-scale 0]

import { parseArgs } from "node:util";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { Core } from "../bindings/core.js";
import { dataFiles, recordResult, recordScore, RECORD_BYTES, RecordCodec } from "./records.js";
import { TrainingData } from "./nnue-trainer.js";

const { values } = parseArgs({
  options: {
    data: { type: "string", multiple: true, default: [] },
    net: { type: "string", multiple: true, default: [] },
    wdl: { type: "string", default: "0.4" },
    validation: { type: "string", default: "0.02" },
    "max-score": { type: "string", default: "3000" },
    seed: { type: "string", default: "1" },
    "eval-scale": { type: "string", default: "0" },
  },
});
if (values.data.length === 0) throw new Error("usage: eval-loss --data DIR [--data DIR ...] [--net FILE ...]");
const wdls = values.wdl.split(",").map((t) => (t.trim() === "" ? NaN : Number(t)));
if (wdls.some((w) => !(w >= 0 && w <= 1))) throw new Error(`--wdl must be numbers from 0 to 1, got ${JSON.stringify(values.wdl)}`);
const data = TrainingData.load(values.data.flatMap(dataFiles), Number(values.validation), Number(values["max-score"]), Number(values.seed));
const scale = Number(values["eval-scale"]) || data.fitEvalScale();
const records = data.validation;
const count = records.length / RECORD_BYTES;
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** Mean squared errors of core's static evaluation over the validation records, one per wdl. */
function losses(core: Core): string {
  const codec = new RecordCodec(core);
  const sums = wdls.map(() => 0);
  for (let i = 0; i < count; i++) {
    codec.unpack(records, i, `validation record ${i}`);
    const white = core.sideToMove() === "w";
    const result = white ? recordResult(records, i) / 2 : 1 - recordResult(records, i) / 2;
    const searched = sigmoid((recordScore(records, i) * (white ? 1 : -1)) / scale);
    const predicted = sigmoid(core.evaluate().score / scale);
    wdls.forEach((wdl, k) => {
      const d = predicted - (wdl * result + (1 - wdl) * searched);
      sums[k] += d * d;
    });
  }
  return sums.map((sum) => (sum / count).toFixed(6)).join("  ");
}

console.log(`${count} validation positions (seed ${values.seed}), eval scale ${scale.toFixed(1)} cp, wdl ${wdls.join("  ")}`);
console.log(`hand-crafted evaluation: ${losses(await Core.create({ build: "classical" }))}`);
for (const file of values.net) {
  const core = await Core.create({ build: "nnue" });
  core.loadNetwork(new Uint8Array(readFileSync(file)));
  console.log(`network ${basename(file)}: ${losses(core)}`);
}
