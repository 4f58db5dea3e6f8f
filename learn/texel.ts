// Texel's method: fit the scaling constant K, then minimise the mean squared error between
// the win probability of the evaluation and a target blending the game result with the
// search score, with analytic gradients over the traced positions and Adam on mini-batches.

import { Rng } from "./rng.js";
import { TraceSet } from "./trace-set.js";
import { WeightLayout, addGradient, evaluate, winProbability } from "./eval-model.js";

export interface TexelOptions {
  /** Weight of the game result in the target; the rest is the search score's win probability. */
  wdl: number;
  epochs: number;
  batchSize: number;
  /** Adam's step size in centipawns at the start; it decays to lrEnd (cosine). */
  lr: number;
  lrEnd: number;
  seed: number;
  /** Called after each epoch. */
  onEpoch?: (e: { epoch: number; train: number; validation: number; lr: number; positionsPerSecond: number }) => void;
}

const LN10_400 = Math.LN10 / 400;

/** The target of position p: wdl * result + (1 - wdl) * winProbability(score). */
export function target(set: TraceSet, p: number, k: number, wdl: number): number {
  return wdl * set.result[p] + (1 - wdl) * winProbability(set.score[p], k);
}

/** Mean squared error of the weights theta over set. */
export function loss(set: TraceSet, theta: Float64Array, layout: WeightLayout, k: number, wdl: number): number {
  let sum = 0;
  for (let p = 0; p < set.count; p++) {
    const d = winProbability(evaluate(set, p, theta, layout), k) - target(set, p, k, wdl);
    sum += d * d;
  }
  return sum / Math.max(set.count, 1);
}

/** Adds the gradient of the summed squared error over positions `ps` to grad. */
export function lossGradient(set: TraceSet, ps: ArrayLike<number>, theta: Float64Array, layout: WeightLayout, k: number, wdl: number, grad: Float64Array): void {
  for (let j = 0; j < ps.length; j++) {
    const p = ps[j];
    const s = winProbability(evaluate(set, p, theta, layout), k);
    const g = 2 * (s - target(set, p, k, wdl)) * s * (1 - s) * k * LN10_400;
    addGradient(set, p, theta, layout, g, grad);
  }
}

/** The K that minimises the loss for fixed weights (golden-section search on [0.05, 4]). */
export function fitK(set: TraceSet, theta: Float64Array, layout: WeightLayout, wdl: number): number {
  // With a target that uses K itself, fit K against the results alone.
  const f = (k: number) => loss(set, theta, layout, k, wdl > 0 ? 1 : wdl);
  let a = 0.05;
  let b = 4;
  const r = (Math.sqrt(5) - 1) / 2;
  let c = b - r * (b - a);
  let d = a + r * (b - a);
  let fc = f(c);
  let fd = f(d);
  while (b - a > 1e-4) {
    if (fc < fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - r * (b - a);
      fc = f(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + r * (b - a);
      fd = f(d);
    }
  }
  return (a + b) / 2;
}

/** Optimises theta in place (only where mask is 1) with Adam; returns the final losses. */
export function tune(train: TraceSet, validation: TraceSet, theta: Float64Array, mask: Uint8Array, layout: WeightLayout, k: number, o: TexelOptions): { train: number; validation: number } {
  const n = theta.length;
  const m = new Float64Array(n);
  const v = new Float64Array(n);
  const grad = new Float64Array(n);
  const b1 = 0.9;
  const b2 = 0.999;
  const rng = new Rng(o.seed, 0x7e8e1);
  const order = new Int32Array(train.count);
  for (let i = 0; i < order.length; i++) order[i] = i;
  const batches = Math.ceil(train.count / o.batchSize);
  const steps = o.epochs * batches;
  let t = 0;
  let result = { train: NaN, validation: NaN };
  for (let epoch = 1; epoch <= o.epochs; epoch++) {
    const began = performance.now();
    for (let i = order.length - 1; i > 0; i--) {
      const j = rng.below(i + 1);
      const x = order[i];
      order[i] = order[j];
      order[j] = x;
    }
    let lr = o.lr;
    for (let b = 0; b < batches; b++) {
      const batch = order.subarray(b * o.batchSize, Math.min((b + 1) * o.batchSize, order.length));
      grad.fill(0);
      lossGradient(train, batch, theta, layout, k, o.wdl, grad);
      t++;
      lr = o.lrEnd + ((o.lr - o.lrEnd) * (1 + Math.cos((Math.PI * t) / steps))) / 2;
      const c1 = 1 - Math.pow(b1, t);
      const c2 = 1 - Math.pow(b2, t);
      for (let i = 0; i < n; i++) {
        if (!mask[i]) continue;
        const g = grad[i] / batch.length;
        m[i] = b1 * m[i] + (1 - b1) * g;
        v[i] = b2 * v[i] + (1 - b2) * g * g;
        theta[i] -= (lr * (m[i] / c1)) / (Math.sqrt(v[i] / c2) + 1e-12);
      }
    }
    const seconds = (performance.now() - began) / 1000;
    result = { train: loss(train, theta, layout, k, o.wdl), validation: loss(validation, theta, layout, k, o.wdl) };
    o.onEpoch?.({ epoch, ...result, lr, positionsPerSecond: train.count / seconds });
  }
  return result;
}
