// The hand-crafted evaluation as a differentiable function of its weights, for the tuners:
// the traced coefficients (trace-set.ts) times the weights, with the squared king-attack term
// and the tapering by phase and endgame scale done as the engine does (assembly/eval.ts).

import type { TraceSet } from "./trace-set.js";

export const PHASE_MAX = 24;
export const KIND_PACKED = 0;
export const KIND_PLAIN = 1;

/** The weights of the engine (see assembly/weights.ts) as real numbers: theta[2i] is weight
 *  i's midgame value (or its value for a plain weight), theta[2i + 1] its endgame value. */
export interface WeightLayout {
  names: string[];
  kinds: number[];
  /** First index of KING_ATTACK_UNITS (types 0..6 follow). */
  kingAttackUnits: number;
  kingAttackDivisor: number;
  kingAttackMax: number;
}

/** theta entries that the tuner may change: both halves of packed weights, the value of
 *  plain weights. */
export function trainableMask(layout: WeightLayout): Uint8Array {
  const mask = new Uint8Array(layout.names.length * 2);
  layout.kinds.forEach((k, i) => {
    mask[2 * i] = 1;
    mask[2 * i + 1] = k === KIND_PACKED ? 1 : 0;
  });
  return mask;
}

/** The king-zone penalty of a colour in set position p: min(units^2 / divisor, max). */
function kingPenalty(set: TraceSet, p: number, c: number, theta: Float64Array, layout: WeightLayout): { penalty: number; units: number; capped: boolean } {
  const base = p * 10 + c * 5;
  if (set.king[base] === 0) return { penalty: 0, units: 0, capped: true };
  let units = 0;
  for (let pt = 2; pt <= 5; pt++) units += set.king[base + pt - 1] * theta[2 * (layout.kingAttackUnits + pt)];
  const raw = (units * units) / layout.kingAttackDivisor;
  return raw >= layout.kingAttackMax ? { penalty: layout.kingAttackMax, units, capped: true } : { penalty: raw, units, capped: false };
}

/** The evaluation of set position p (white's view, centipawns) with weights theta. */
export function evaluate(set: TraceSet, p: number, theta: Float64Array, layout: WeightLayout): number {
  let mg = 0;
  let eg = 0;
  for (let k = set.start[p], end = set.start[p + 1]; k < end; k++) {
    const i = set.index[k] * 2;
    const c = set.coef[k];
    mg += c * theta[i];
    eg += c * theta[i + 1];
  }
  mg -= kingPenalty(set, p, 0, theta, layout).penalty;
  mg += kingPenalty(set, p, 1, theta, layout).penalty;
  const phase = set.phase[p];
  return (mg * phase + ((eg * set.scale[p]) / 64) * (PHASE_MAX - phase)) / PHASE_MAX;
}

/** Adds g * dE/dtheta of set position p to grad. */
export function addGradient(set: TraceSet, p: number, theta: Float64Array, layout: WeightLayout, g: number, grad: Float64Array): void {
  const phase = set.phase[p];
  const gm = (g * phase) / PHASE_MAX;
  const ge = (g * (set.scale[p] / 64) * (PHASE_MAX - phase)) / PHASE_MAX;
  for (let k = set.start[p], end = set.start[p + 1]; k < end; k++) {
    const i = set.index[k] * 2;
    const c = set.coef[k];
    grad[i] += c * gm;
    grad[i + 1] += c * ge;
  }
  for (let c = 0; c < 2; c++) {
    const { units, capped } = kingPenalty(set, p, c, theta, layout);
    if (capped) continue;
    // d(units^2 / divisor)/d(unit of type pt) = 2 * units * count(pt) / divisor; white's penalty
    // lowers white's score, black's raises it.
    const sign = c === 0 ? -1 : 1;
    const d = (sign * gm * 2 * units) / layout.kingAttackDivisor;
    for (let pt = 2; pt <= 5; pt++) grad[2 * (layout.kingAttackUnits + pt)] += d * set.king[p * 10 + c * 5 + pt - 1];
  }
}

/** Texel's win probability of a score (centipawns, white's view) with scaling constant K. */
export function winProbability(score: number, k: number): number {
  return 1 / (1 + Math.pow(10, (-k * score) / 400));
}
