// The NNUE trainer's host side: the training set in memory (records from data files, filtered
// and split into training and validation), shuffled mini-batches fed to the SIMD kernel
// (learn/kernel/trainer.ts, build/trainer.wasm), the learning-rate schedule, checkpoints.

import { readFileSync, existsSync, writeFileSync, renameSync } from "node:fs";
import { instantiate } from "../build/trainer.js";
import { readRecords, recordResult, recordScore, RECORD_BYTES } from "./records.js";
import { INPUTS, PSQT_MAX, OUTPUT_SCALE, WEIGHT_CLIP, QA, QB, type FloatNetwork } from "./net-file.js";
import { Rng } from "./rng.js";

const TRAINER_WASM = new URL("../build/trainer.wasm", import.meta.url);
type Kernel = Awaited<ReturnType<typeof instantiate>>;

export interface TrainSettings {
  hidden: number;
  /** King buckets of the input features: 1, or 2 by the half of the board the king is on. */
  kingBuckets: number;
  buckets: number;
  screlu: boolean;
  /** Weight of the game result in the target (the rest: the search score). */
  wdl: number;
  batchSize: number;
  epochs: number;
  lr: number;
  /** The learning rate is multiplied by lrGamma every lrStep epochs. */
  lrStep: number;
  lrGamma: number;
  weightDecay: number;
  /** Centipawns per unit of the logistic (fitted from the data when 0). */
  evalScale: number;
  /** Mirror half of the training positions left to right (data augmentation). */
  mirror: boolean;
  /** A linear piece-square term beside the hidden layer (starts from material values). */
  psqt: boolean;
  seed: number;
  /** Quantisation-aware training: the network trained and evaluated is its quantised form
   *  (the optimiser keeps latent float weights), so rounding at the end loses nothing. */
  qat?: boolean;
}

/** Records in memory, split into training and validation sets. */
export class TrainingData {
  train: Uint8Array = new Uint8Array(0);
  validation: Uint8Array = new Uint8Array(0);
  trainCount = 0;
  validationCount = 0;
  skipped = 0;

  /** Reads the files; whole chunks of 1024 records go to validation with probability
   *  `validationShare`, chosen by the seed and the chunk's place in its file (so a file's
   *  validation chunks are the same whichever files it is read with, and a held-out chunk of
   *  one run is held out of every run with the same seed); positions with |score| > maxScore
   *  are skipped. */
  static load(files: string[], validationShare: number, maxScore: number, seed: number, limit = Infinity): TrainingData {
    const d = new TrainingData();
    const parts: { bytes: Uint8Array; validation: boolean }[] = [];
    let total = 0;
    for (const chunk of readRecords(files, 1024)) {
      if (total >= limit) break;
      // Keep the records within the score bound, moving them down over the skipped ones.
      const keep = chunk.bytes;
      let n = 0;
      for (let i = 0; i < chunk.count && total + n < limit; i++) {
        if (Math.abs(recordScore(keep, i)) > maxScore) {
          d.skipped++;
          continue;
        }
        if (n !== i) keep.copyWithin(n * RECORD_BYTES, i * RECORD_BYTES, (i + 1) * RECORD_BYTES);
        n++;
      }
      total += n;
      const validation = new Rng(seed, 0xda7a0000 + chunk.first / 1024).float() < validationShare;
      parts.push({ bytes: keep.subarray(0, n * RECORD_BYTES), validation });
    }
    const join = (v: boolean) => {
      const ps = parts.filter((p) => p.validation === v);
      const out = new Uint8Array(ps.reduce((s, p) => s + p.bytes.length, 0));
      let at = 0;
      for (const p of ps) {
        out.set(p.bytes, at);
        at += p.bytes.length;
      }
      return out;
    };
    d.train = join(false);
    d.validation = join(true);
    d.trainCount = d.train.length / RECORD_BYTES;
    d.validationCount = d.validation.length / RECORD_BYTES;
    return d;
  }

  /** The scale s (centipawns) for which sigmoid(score / s) best predicts the results. */
  fitEvalScale(): number {
    const n = Math.min(this.trainCount, 200000);
    const f = (s: number) => {
      let sum = 0;
      for (let i = 0; i < n; i++) {
        const p = 1 / (1 + Math.exp(-recordScore(this.train, i) / s));
        const d = p - recordResult(this.train, i) / 2;
        sum += d * d;
      }
      return sum;
    };
    let a = 50;
    let b = 1000;
    for (let it = 0; it < 60; it++) {
      const c = a + (b - a) / 3;
      const e = b - (b - a) / 3;
      if (f(c) < f(e)) b = e;
      else a = c;
    }
    return (a + b) / 2;
  }
}

/** The kernel with its memory, and the host's view of the parameters. */
export class NnueTrainer {
  step = 0;
  epoch = 0;

  private constructor(private readonly k: Kernel, readonly s: TrainSettings) {}

  static async create(s: TrainSettings): Promise<NnueTrainer> {
    const module = await WebAssembly.compile(readFileSync(TRAINER_WASM));
    const k = await instantiate(module, { env: {} });
    k.init(s.hidden, s.buckets, s.kingBuckets, s.screlu, s.seed >>> 0, s.psqt, PSQT_MAX, OUTPUT_SCALE, WEIGHT_CLIP);
    if (s.qat) k.setQuantisation(QA, QB);
    return new NnueTrainer(k, s);
  }

  get parameterCount(): number {
    return this.k.parameterCount();
  }

  /** The float parameters (a view into the kernel's memory: copy before the next call). */
  params(): Float32Array {
    return new Float32Array(this.k.memory.buffer, this.k.paramsPtr(), this.parameterCount);
  }

  /** The float network, for quantise() (its parameters are a view, as params()). */
  network(): FloatNetwork {
    return { hidden: this.s.hidden, kingBuckets: this.s.kingBuckets, buckets: this.s.buckets, screlu: this.s.screlu, psqt: this.s.psqt, params: this.params() };
  }

  /** Starts from the weights of a float network of the same architecture (Adam's moments
   *  stay at zero). A network with a narrower hidden layer is widened: its neurons keep their
   *  weights, and the new ones keep the kernel's random input weights with output weights of
   *  zero, so the widened network evaluates every position as the narrow one did and the new
   *  neurons start learning from there (a function-preserving widening). A network without
   *  king buckets starts every bucket of a bucketed one from its own weights, and one with two
   *  starts both rank buckets of each half of a four-bucket one from that half's (as function-
   *  preserving), and a network with B output buckets starts each of kB buckets from the one
   *  that held its piece counts (bucket j from j / k: outputBucket's ranges nest). */
  setNetwork(net: FloatNetwork): void {
    const s = this.s;
    const kb = net.kingBuckets ?? 1;
    if (net.hidden > s.hidden || s.kingBuckets % kb !== 0 || s.buckets % net.buckets !== 0 || net.screlu !== s.screlu || !!net.psqt !== s.psqt) {
      throw new Error(
        `the network is (${768 * kb} -> ${net.hidden}) x 2 -> 1, ${net.screlu ? "SCReLU" : "CReLU"}, ${net.buckets} bucket(s)${net.psqt ? ", PSQT" : ""}; ` +
          `the settings ask for ${768 * s.kingBuckets} -> ${s.hidden}, ${s.screlu ? "SCReLU" : "CReLU"}, ${s.buckets}${s.psqt ? ", PSQT" : ""}`,
      );
    }
    // Under quantisation-aware training the latent weights are written, then rounded (as
    // loadCheckpoint does); otherwise the two are the network's own.
    widen(net, new Float32Array(this.k.memory.buffer, this.k.latentPtr(), this.parameterCount), s.hidden, s.kingBuckets, s.buckets);
    this.k.roundLatent();
  }

  private put(records: Uint8Array, indices: Int32Array | null, from: number, n: number): void {
    const ptr = this.k.recordsPtr(n); // may grow the memory: take the buffer after it
    const dst = new Uint8Array(this.k.memory.buffer, ptr, n * RECORD_BYTES);
    for (let i = 0; i < n; i++) {
      const r = indices ? indices[from + i] : from + i;
      dst.set(records.subarray(r * RECORD_BYTES, (r + 1) * RECORD_BYTES), i * RECORD_BYTES);
    }
  }

  /** The learning rate of an epoch (step decay). */
  lrAt(epoch: number): number {
    return this.s.lr * Math.pow(this.s.lrGamma, Math.floor((epoch - 1) / this.s.lrStep));
  }

  /** One epoch over the training set in a shuffled order; returns its mean loss. */
  trainEpoch(data: TrainingData, evalScale: number, rng: Rng, onBatch?: (done: number) => void): number {
    this.epoch++;
    const order = new Int32Array(data.trainCount);
    for (let i = 0; i < order.length; i++) order[i] = i;
    for (let i = order.length - 1; i > 0; i--) {
      const j = rng.below(i + 1);
      const t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    const lr = this.lrAt(this.epoch);
    let loss = 0;
    for (let from = 0; from < order.length; from += this.s.batchSize) {
      const n = Math.min(this.s.batchSize, order.length - from);
      this.put(data.train, order, from, n);
      this.step++;
      loss += this.k.trainBatch(n, this.s.wdl, evalScale, lr, this.s.weightDecay, this.step, this.s.mirror);
      onBatch?.(from + n);
    }
    return loss / Math.max(order.length, 1);
  }

  /** Mean loss over records without learning. */
  loss(records: Uint8Array, evalScale: number): number {
    const count = records.length / RECORD_BYTES;
    let sum = 0;
    for (let from = 0; from < count; from += 16384) {
      const n = Math.min(16384, count - from);
      this.put(records, null, from, n);
      sum += this.k.evalBatch(n, this.s.wdl, evalScale);
    }
    return sum / Math.max(count, 1);
  }

  /** The float network's evaluation (centipawns, side to move) of record i of records. */
  evaluate(records: Uint8Array, i: number): number {
    this.put(records, null, i, 1);
    return this.k.evaluateRecord(0);
  }

  /** Saves parameters (the latent ones under quantisation-aware training), Adam moments and
   *  progress. */
  saveCheckpoint(file: string, extra: object): void {
    const p = this.parameterCount;
    const m = this.k.memory.buffer;
    const header = Buffer.from(JSON.stringify({ settings: this.s, step: this.step, epoch: this.epoch, parameters: p, ...extra }));
    const out = Buffer.alloc(4 + header.length + 3 * p * 4);
    out.writeUInt32LE(header.length, 0);
    header.copy(out, 4);
    let at = 4 + header.length;
    for (const ptr of [this.k.latentPtr(), this.k.moment1Ptr(), this.k.moment2Ptr()]) {
      Buffer.from(m, ptr, p * 4).copy(out, at);
      at += p * 4;
    }
    writeFileSync(file + ".tmp", out);
    renameSync(file + ".tmp", file);
  }

  /** Restores a checkpoint written by saveCheckpoint; returns its extra fields. */
  loadCheckpoint(file: string): Record<string, unknown> {
    if (!existsSync(file)) throw new Error(`no checkpoint ${file}`);
    const buf = readFileSync(file);
    const len = buf.readUInt32LE(0);
    const header = JSON.parse(buf.subarray(4, 4 + len).toString()) as { step: number; epoch: number; parameters: number } & Record<string, unknown>;
    const p = this.parameterCount;
    if (header.parameters !== p) throw new Error(`${file}: ${header.parameters} parameters; this network has ${p}`);
    let at = 4 + len;
    for (const ptr of [this.k.latentPtr(), this.k.moment1Ptr(), this.k.moment2Ptr()]) {
      new Uint8Array(this.k.memory.buffer, ptr, p * 4).set(buf.subarray(at, at + p * 4));
      at += p * 4;
    }
    this.k.roundLatent();
    this.step = header.step;
    this.epoch = header.epoch;
    return header;
  }
}

/** Copies the network net into the parameters p of a network with hidden >= net.hidden
 *  neurons, kingBuckets king buckets (net has as many or one) and buckets output buckets (a
 *  multiple of net's; the layout of FloatNetwork): its input weights and biases into the
 *  first net.hidden neurons (of every king bucket), each output bucket's weights into both
 *  perspectives' first net.hidden of the buckets that split it, any new neurons' output
 *  weights and biases to zero; their input weights are left as they are. */
export function widen(net: FloatNetwork, p: Float32Array, hidden: number, kingBuckets = 1, buckets = net.buckets): void {
  const h = net.hidden;
  const q = net.params;
  const from = net.kingBuckets ?? 1;
  const inputs = INPUTS * kingBuckets;
  // The source row of input row f: the same piece-square in the bucket that held its king
  // squares (the layouts nest: bucket j of 4 within j % 2 of 2, every bucket within 1's).
  const src = (f: number) => (Math.floor(f / INPUTS) % from) * INPUTS + (f % INPUTS);
  const w1 = INPUTS * from * h;
  const offB1 = inputs * hidden;
  const offW2 = offB1 + hidden;
  const offB2 = offW2 + buckets * 2 * hidden;
  const split = buckets / net.buckets;
  for (let f = 0; f < inputs; f++) p.set(q.subarray(src(f) * h, (src(f) + 1) * h), f * hidden);
  p.fill(0, offB1, offW2);
  p.set(q.subarray(w1, w1 + h), offB1);
  p.fill(0, offW2, offB2);
  const tail = w1 + h + net.buckets * 2 * h;
  for (let j = 0; j < buckets; j++) {
    const k = Math.floor(j / split);
    for (let side = 0; side < 2; side++) {
      const at = w1 + h + k * 2 * h + side * h;
      p.set(q.subarray(at, at + h), offW2 + j * 2 * hidden + side * hidden);
    }
    p[offB2 + j] = q[tail + k];
  }
  if (net.psqt) for (let f = 0; f < inputs; f++) p[offB2 + buckets + f] = q[tail + net.buckets + src(f)];
}
