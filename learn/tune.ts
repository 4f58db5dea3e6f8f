// The tuner of the hand-crafted evaluation (assembly/params.ts).
//
//   npm run tune -- --data data/<name> [--method texel] [--positions N] [--wdl 0.5]
//       [--epochs 40] [--batch 16384] [--lr 2] [--lr-end 0.05] [--validation 0.1] [--seed 1]
//       [--no-quiet] [--max-score 2000] [--dry-run] [--params-out FILE]
//   npm run tune -- --method tdleaf ...            (see tdleaf.ts)
//
// Texel: every position of the data is resolved to a quiet one and traced by the tuning
// build of the engine (build/wasmchess-tune.wasm); K is fitted, then the weights are
// optimised, and params.ts is rewritten with the result and a header naming the data,
// command and losses (--params-out FILE writes a copy of params.ts with the result there
// instead). --data may be repeated.

import { parseArgs } from "node:util";
import { Rng } from "./rng.js";
import { dataFiles, readRecords, RECORD_BYTES } from "./records.js";
import { TraceSet, Tracer } from "./trace-set.js";
import { evaluate, trainableMask } from "./eval-model.js";
import { fitK, loss, tune } from "./texel.js";
import { readWeights, writeParamsFile, paramsOut } from "./params-file.js";
import { runTdLeaf } from "./tdleaf.js";

const { values } = parseArgs({
  options: {
    data: { type: "string", multiple: true },
    method: { type: "string", default: "texel" },
    positions: { type: "string" },
    wdl: { type: "string", default: "0.5" },
    epochs: { type: "string", default: "40" },
    batch: { type: "string", default: "16384" },
    lr: { type: "string", default: "2" },
    "lr-end": { type: "string", default: "0.05" },
    validation: { type: "string", default: "0.1" },
    seed: { type: "string", default: "1" },
    "no-quiet": { type: "boolean", default: false },
    "max-score": { type: "string", default: "2000" },
    "dry-run": { type: "boolean", default: false },
    "params-out": { type: "string" },
    // TD-Leaf
    games: { type: "string" },
    nodes: { type: "string" },
    lambda: { type: "string" },
    alpha: { type: "string" },
    hours: { type: "string" },
    state: { type: "string" },
    k: { type: "string" },
    optimizer: { type: "string" },
  },
});

function num(name: keyof typeof values, min = -Infinity, max = Infinity): number {
  const v = Number(values[name]);
  if (!Number.isFinite(v) || v < min || v > max) {
    console.error(`tune: --${String(name)} must be a number from ${min} to ${max}, got ${JSON.stringify(values[name])}`);
    process.exit(2);
  }
  return v;
}

const command = `npm run tune -- ${process.argv.slice(2).join(" ")}`;

async function texel(): Promise<void> {
  if (!values.data?.length) throw new Error("--data PATH is required");
  const tracer = await Tracer.create();
  const { layout, theta } = readWeights(tracer.core);
  const files = values.data.flatMap(dataFiles);
  const limit = values.positions ? num("positions", 1) : Infinity;
  const valShare = num("validation", 0, 0.9);
  const filter = { maxScore: num("max-score", 0), quiet: !values["no-quiet"] };
  const train = new TraceSet();
  const validation = new TraceSet();
  // Whole chunks of consecutive records go to one side, so that positions of one game
  // rarely fall on both sides of the split.
  const rng = new Rng(num("seed"), 0x5917);
  let read = 0;
  const began = performance.now();
  for (const chunk of readRecords(files, 1024)) {
    if (read >= limit) break;
    const count = Math.min(chunk.count, limit - read);
    const set = rng.float() < valShare ? validation : train;
    tracer.trace(set, chunk.bytes.subarray(0, count * RECORD_BYTES), count, filter, (i) => `${chunk.file}: record ${chunk.first + i}`);
    read += count;
  }
  const seconds = (performance.now() - began) / 1000;
  console.log(`traced ${read} records in ${seconds.toFixed(1)} s: ${train.count} training and ${validation.count} validation positions kept`);

  // The traced evaluation must reproduce the engine's own.
  let worst = 0;
  for (let p = 0; p < train.count; p++) worst = Math.max(worst, Math.abs(evaluate(train, p, theta, layout) - train.engineEval[p]));
  console.log(`largest difference between the traced and the engine's evaluation: ${worst.toFixed(2)} cp`);
  if (worst > 3) throw new Error("the trace does not reproduce the evaluation; a term is missing from the trace");

  const wdl = num("wdl", 0, 1);
  const k = fitK(train, theta, layout, wdl);
  const before = { train: loss(train, theta, layout, k, wdl), validation: loss(validation, theta, layout, k, wdl) };
  console.log(`K = ${k.toFixed(4)}; loss before: training ${before.train.toFixed(6)}, validation ${before.validation.toFixed(6)}`);
  const after = tune(train, validation, theta, trainableMask(layout), layout, k, {
    wdl,
    epochs: num("epochs", 1),
    batchSize: num("batch", 1),
    lr: num("lr", 0),
    lrEnd: num("lr-end", 0),
    seed: num("seed"),
    onEpoch: (e) =>
      console.log(
        `epoch ${e.epoch}: training ${e.train.toFixed(6)}, validation ${e.validation.toFixed(6)}, lr ${e.lr.toFixed(3)}, ` +
          `${Math.round(e.positionsPerSecond)} positions/s`,
      ),
  });
  const header = [
    `\`${command}\` (learn/tune.ts, Texel's method):`,
    `${files.join(", ")}: ${train.count} training and ${validation.count} validation positions, quiet: ${filter.quiet}, |score| <= ${filter.maxScore};`,
    `K = ${k.toFixed(4)}, target = ${wdl} * result + ${(1 - wdl).toFixed(2)} * winProbability(search score);`,
    `loss (training / validation) ${before.train.toFixed(6)} / ${before.validation.toFixed(6)} -> ${after.train.toFixed(6)} / ${after.validation.toFixed(6)}.`,
  ];
  if (values["dry-run"]) {
    console.log("dry run: params.ts unchanged");
    return;
  }
  writeParamsFile(layout, theta, header, paramsOut(values["params-out"]));
  console.log(`${values["params-out"] ?? "assembly/params.ts"} written; rebuild and run \`npm run bench\` for the new signature`);
}

if (values.method === "texel") await texel();
else if (values.method === "tdleaf") await runTdLeaf(values, command);
else throw new Error(`--method must be texel or tdleaf, not ${JSON.stringify(values.method)}`);
