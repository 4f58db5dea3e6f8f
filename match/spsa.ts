// SPSA (simultaneous perturbation stochastic approximation) as fishtest runs it for engine
// parameters: each iteration perturbs every parameter at once by ±c_k, plays a game pair
// between the two perturbed engines, and moves every parameter along its perturbation by the
// pair's result. The schedule and the resumable state live here; spsa-runner.ts plays the games.

/** A tuned parameter: its current value (a real; the engines get it rounded) and range. */
export interface SpsaParam {
  name: string;
  /** The value the tuning started from (the engine's default). */
  start: number;
  value: number;
  min: number;
  max: number;
  /** The perturbation at the last iteration (fishtest's c_end). */
  cEnd: number;
}

export interface SpsaSettings {
  iterations: number;
  /** The step at the last iteration, relative to cEnd² (fishtest's r_end). */
  rEnd: number;
  /** Stability constant of the step schedule, in iterations (fishtest: a tenth of them). */
  A: number;
  alpha: number;
  gamma: number;
  seed: number;
}

/** Everything needed to resume a tuning run. */
export interface SpsaState {
  version: 1;
  settings: SpsaSettings;
  /** Free text naming what plays (engine, limits, openings): a resume must match it. */
  setup: string;
  params: SpsaParam[];
  /** Iterations finished (game pairs counted). */
  done: number;
  /** θ+'s games against θ−. */
  games: { wins: number; losses: number; draws: number };
}

export const SPSA_DEFAULTS = { rEnd: 0.002, alpha: 0.602, gamma: 0.101 } as const;

/** A new state: every parameter starts at its default with c_end a twentieth of its range
 *  (at least half a unit, so an integer still moves). */
export function newState(
  params: { name: string; default: number; min: number; max: number }[], settings: SpsaSettings, setup: string,
): SpsaState {
  return {
    version: 1, settings, setup, done: 0, games: { wins: 0, losses: 0, draws: 0 },
    params: params.map((p) => ({
      name: p.name, start: p.default, value: p.default, min: p.min, max: p.max, cEnd: Math.max((p.max - p.min) / 20, 0.5),
    })),
  };
}

/** The perturbation size c_k and step factor R_k = a_k / c_k² of iteration k (1-based), for a
 *  parameter with this cEnd: c_k falls to cEnd and a_k to rEnd·cEnd² at the last iteration. */
export function schedule(s: SpsaSettings, cEnd: number, k: number): { c: number; r: number } {
  const c = cEnd * Math.pow(s.iterations / k, s.gamma);
  const a = s.rEnd * cEnd * cEnd * Math.pow((s.A + s.iterations) / (s.A + k), s.alpha);
  return { c, r: a / (c * c) };
}

/** A 32-bit hash of (seed, k, i): the run's deterministic randomness. */
function hash32(seed: number, k: number, i: number): number {
  let t = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(k, 0x85ebca77) ^ Math.imul(i + 1, 0x6d2b79f5)) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (t ^ (t >>> 14)) >>> 0;
}

/** The ±1 perturbation of every parameter at iteration k (deterministic in the seed). */
export function perturbation(seed: number, k: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => (hash32(seed, k, i) & 1 ? 1 : -1));
}

/** The opening of iteration k's pair, among count (deterministic in the seed). */
export function openingIndex(seed: number, k: number, count: number): number {
  return hash32(seed, k, -1) % count;
}

function clamp(v: number, p: SpsaParam): number {
  return Math.min(Math.max(v, p.min), p.max);
}

/** The two engines' values at iteration k: θ + c_k·Δ and θ − c_k·Δ, rounded and clamped. */
export function perturbed(state: SpsaState, k: number, delta: number[]): { plus: number[]; minus: number[] } {
  const plus: number[] = [];
  const minus: number[] = [];
  state.params.forEach((p, i) => {
    const { c } = schedule(state.settings, p.cEnd, k);
    plus.push(Math.round(clamp(p.value + c * delta[i], p)));
    minus.push(Math.round(clamp(p.value - c * delta[i], p)));
  });
  return { plus, minus };
}

/** Applies iteration k's result: θ+'s points minus θ−'s over the pair (−2 .. 2) moves each
 *  parameter by R_k·c_k·result·Δ, within its range. */
export function update(state: SpsaState, k: number, delta: number[], result: number): void {
  state.params.forEach((p, i) => {
    const { c, r } = schedule(state.settings, p.cEnd, k);
    p.value = clamp(p.value + r * c * result * delta[i], p);
  });
  state.done++;
}
