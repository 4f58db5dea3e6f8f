// Trains an NNUE network on self-play records and writes it as a quantised network file.
//
//   npm run train -- --data data/<name> [--data ...] --out data/train/<run> [--hidden 256]
//       [--buckets 1] [--king-buckets 1|2|4] [--activation screlu|crelu] [--epochs 30] [--batch 16384] [--lr 0.001]
//       [--lr-step 12] [--lr-gamma 0.1] [--wdl 0.4] [--weight-decay 0.01] [--validation 0.02]
//       [--max-score 3000] [--eval-scale 0] [--positions N] [--seed 1] [--mirror] [--psqt] [--resume]
//       [--init FILE.nnue] [--qat]
//
// Every epoch prints the training and validation loss with positions per second and saves
// <out>/checkpoint.bin (parameters, Adam moments, progress); --resume continues from it. The
// network of every epoch is written as <out>/wcnn-<hash>.nnue and named in <out>/train.log.
// --eval-scale 0 fits the logistic's scale to the data (sigmoid(score / s) against results).
// --mirror trains on each position or its left-right mirror image, at random (augmentation).
// --psqt adds a linear piece-square term beside the hidden layer, starting from material.
// --king-buckets 2 doubles the input features: one set while the perspective's own king is on
// files e-h, another while it is on files a-d (a network without them starts both from its own);
// --king-buckets 4 splits each again by whether the king is on its own first two ranks (a
// network with two starts each pair from its own half's).
// --init starts from the weights of a network file of the same architecture (fine-tuning the
// previous generation's network on new games) instead of random ones; a network with a
// narrower hidden layer is widened to --hidden, its new neurons starting silent, and one with
// fewer output buckets (a divisor of --buckets) has each bucket split into the new ones.
// --qat trains quantisation-aware: the network evaluated (and the validation loss printed) is
// the one the file will hold, rounded to its grid, while the optimiser moves latent float
// weights, so that a fine-tune's small steps are not rounded away when the file is written.

import { parseArgs } from "node:util";
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { dataFiles } from "./records.js";
import { NnueTrainer, TrainingData, TrainSettings } from "./nnue-trainer.js";
import { quantise, dequantise, writeNetwork } from "./net-file.js";
import { Rng } from "./rng.js";

const { values } = parseArgs({
  options: {
    data: { type: "string", multiple: true },
    out: { type: "string" },
    hidden: { type: "string", default: "256" },
    buckets: { type: "string", default: "1" },
    "king-buckets": { type: "string", default: "1" },
    activation: { type: "string", default: "screlu" },
    epochs: { type: "string", default: "30" },
    batch: { type: "string", default: "16384" },
    lr: { type: "string", default: "0.001" },
    "lr-step": { type: "string", default: "12" },
    "lr-gamma": { type: "string", default: "0.1" },
    wdl: { type: "string", default: "0.4" },
    "weight-decay": { type: "string", default: "0.01" },
    validation: { type: "string", default: "0.02" },
    "max-score": { type: "string", default: "3000" },
    "eval-scale": { type: "string", default: "0" },
    positions: { type: "string" },
    seed: { type: "string", default: "1" },
    mirror: { type: "boolean", default: false },
    psqt: { type: "boolean", default: false },
    resume: { type: "boolean", default: false },
    qat: { type: "boolean", default: false },
    init: { type: "string" },
  },
});

function fail(message: string): never {
  console.error(`train: ${message}`);
  process.exit(2);
}
function num(name: keyof typeof values, min: number, max: number, integer = false): number {
  const v = Number(values[name]);
  if (!Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
    fail(`--${String(name)} must be ${integer ? "an integer" : "a number"} from ${min} to ${max}, got ${JSON.stringify(values[name])}`);
  }
  return v;
}

if (!values.data?.length) fail("--data PATH is required");
if (!values.out) fail("--out DIR is required");
if (values.activation !== "screlu" && values.activation !== "crelu") fail("--activation must be screlu or crelu");
const hidden = num("hidden", 16, 512, true);
if (hidden % 16 !== 0) fail("--hidden must be a multiple of 16");
if (values["king-buckets"] === "3") fail("--king-buckets must be 1, 2 or 4");
const settings: TrainSettings = {
  hidden,
  kingBuckets: num("king-buckets", 1, 4, true),
  buckets: num("buckets", 1, 8, true),
  screlu: values.activation === "screlu",
  wdl: num("wdl", 0, 1),
  batchSize: num("batch", 1, 1 << 20, true),
  epochs: num("epochs", 1, 10000, true),
  lr: num("lr", 0, 1),
  lrStep: num("lr-step", 1, 10000, true),
  lrGamma: num("lr-gamma", 0, 1),
  weightDecay: num("weight-decay", 0, 1),
  evalScale: num("eval-scale", 0, 10000),
  seed: num("seed", 0, 2 ** 32 - 1, true),
  mirror: values.mirror,
  psqt: values.psqt,
  qat: values.qat,
};
const out = values.out;
mkdirSync(out, { recursive: true });
const log = (line: string) => {
  console.log(line);
  appendFileSync(join(out, "train.log"), line + "\n");
};

const files = values.data.flatMap(dataFiles);
const began = performance.now();
const data = TrainingData.load(files, num("validation", 0, 0.5), num("max-score", 0, 32767), settings.seed, values.positions ? num("positions", 1, 1e10, true) : Infinity);
const evalScale = settings.evalScale || data.fitEvalScale();
log(`command: npm run train -- ${process.argv.slice(2).join(" ")}`);
log(
  `data: ${files.join(", ")}: ${data.trainCount} training and ${data.validationCount} validation positions ` +
    `(${data.skipped} skipped, |score| > ${values["max-score"]}), read in ${((performance.now() - began) / 1000).toFixed(1)} s; eval scale ${evalScale.toFixed(1)} cp`,
);
const trainer = await NnueTrainer.create(settings);
const checkpoint = join(out, "checkpoint.bin");
if (values.resume && existsSync(checkpoint)) {
  trainer.loadCheckpoint(checkpoint);
  log(`resumed after epoch ${trainer.epoch} (step ${trainer.step})`);
} else if (existsSync(checkpoint) && !values.resume) {
  fail(`${checkpoint} exists: add --resume to continue it, or use another --out`);
}
if (values.init && trainer.epoch === 0) {
  try {
    trainer.setNetwork(dequantise(readFileSync(values.init)));
  } catch (e) {
    fail(`--init ${values.init}: ${(e as Error).message}`);
  }
  log(`initial weights: ${values.init}`);
}
log(`network (${768 * settings.kingBuckets} -> ${settings.hidden}) x 2 -> 1, ${settings.screlu ? "SCReLU" : "CReLU"}, ${settings.buckets} output bucket(s), ${settings.psqt ? "PSQT, " : ""}${trainer.parameterCount} parameters`);
if (trainer.epoch === 0) log(`epoch 0: validation ${trainer.loss(data.validation, evalScale).toFixed(6)}`);
while (trainer.epoch < settings.epochs) {
  const t0 = performance.now();
  const train = trainer.trainEpoch(data, evalScale, new Rng(settings.seed, 1000 + trainer.epoch));
  const seconds = (performance.now() - t0) / 1000;
  const validation = trainer.loss(data.validation, evalScale);
  const file = writeNetwork(quantise(trainer.network()), out);
  trainer.saveCheckpoint(checkpoint, { evalScale, files });
  log(
    `epoch ${trainer.epoch}: training ${train.toFixed(6)}, validation ${validation.toFixed(6)}, lr ${trainer.lrAt(trainer.epoch).toExponential(2)}, ` +
      `${Math.round(data.trainCount / seconds)} positions/s, ${seconds.toFixed(1)} s, ${file}`,
  );
}
