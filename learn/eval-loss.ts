// The training loss of the engine's own evaluations on held-out positions: the hand-crafted
// evaluation and, with --net, a network file, each through the engine (static evaluation,
// quantised network), on the same validation split and with the same target as `npm run
// train` (sigmoid(eval / scale) against wdl * result + (1 - wdl) * sigmoid(score / scale)).
// Tells whether a network predicts the games better than the evaluation it should replace.
//
//   npx tsx learn/eval-loss.ts --data data/hce1 --data data/hce2 [--net FILE.nnue ...]
//       [--wdl 0.4] [--validation 0.02] [--max-score 3000] [--seed 1] [--eval-scale 0]

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
const wdl = Number(values.wdl);
const data = TrainingData.load(values.data.flatMap(dataFiles), Number(values.validation), Number(values["max-score"]), Number(values.seed));
const scale = Number(values["eval-scale"]) || data.fitEvalScale();
const records = data.validation;
const count = records.length / RECORD_BYTES;
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** Mean squared error of core's static evaluation over the validation records. */
function loss(core: Core): number {
  const codec = new RecordCodec(core);
  let sum = 0;
  for (let i = 0; i < count; i++) {
    codec.unpack(records, i, `validation record ${i}`);
    const white = core.sideToMove() === "w";
    const resultWhite = recordResult(records, i) / 2;
    const score = recordScore(records, i) * (white ? 1 : -1);
    const target = wdl * (white ? resultWhite : 1 - resultWhite) + (1 - wdl) * sigmoid(score / scale);
    const d = sigmoid(core.evaluate().score / scale) - target;
    sum += d * d;
  }
  return sum / count;
}

console.log(`${count} validation positions (seed ${values.seed}), eval scale ${scale.toFixed(1)} cp, wdl ${wdl}`);
console.log(`hand-crafted evaluation: ${loss(await Core.create({ build: "classical" })).toFixed(6)}`);
for (const file of values.net) {
  const core = await Core.create({ build: "nnue" });
  core.loadNetwork(new Uint8Array(readFileSync(file)));
  console.log(`network ${basename(file)}: ${loss(core).toFixed(6)}`);
}
