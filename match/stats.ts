// Match statistics: Elo from a score (logistic model), 95% error bars from the per-game
// (trinomial) or per-pair (pentanomial) score variance, LOS, and the SPRT log-likelihood ratio.

/** Win, loss and draw counts from one engine's point of view. */
export interface Trinomial {
  wins: number;
  losses: number;
  draws: number;
}

/** Counts of game pairs (same opening, colours swapped) by the pair's points, 0 to 2:
 *  [0, 0.5, 1, 1.5, 2] points, i.e. LL, LD, (DD or WL), WD, WW. */
export type Pentanomial = [number, number, number, number, number];

/** An Elo difference with its 95% error margin (a half-width; Infinity when unbounded). */
export interface EloEstimate {
  /** Mean score per game, 0..1. */
  score: number;
  elo: number;
  margin: number;
}

/** An estimate as JSON carried it (the service's run status), which writes infinite values
 *  as null: an infinite Elo (a score of 0 or 1) is the score's again, an infinite margin
 *  Infinity. */
export function eloFromJson(e: { score?: number; elo?: number | null; margin?: number | null } | undefined): EloEstimate {
  const score = e?.score ?? 0.5;
  return { score, elo: e?.elo ?? scoreToElo(score), margin: e?.margin ?? Infinity };
}

/** Expected score of a player `elo` points stronger (the logistic model). */
export function eloToScore(elo: number): number {
  return 1 / (1 + Math.pow(10, -elo / 400));
}

/** Elo difference that makes `score` (0..1) the expected score; ±Infinity at 0 and 1. */
export function scoreToElo(score: number): number {
  if (score <= 0) return -Infinity;
  if (score >= 1) return Infinity;
  return -400 * Math.log10(1 / score - 1);
}

/** The error function, to within 1.2e-7 (Numerical Recipes' erfc by Chebyshev fitting). */
export function erf(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const poly =
    -z * z - 1.26551223 +
    t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 +
    t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  const erfc = t * Math.exp(poly);
  return x >= 0 ? 1 - erfc : erfc - 1;
}

/** The standard normal quantile (inverse CDF), Acklam's rational approximation: relative
 *  error below 1.2e-9 for 0 < p < 1. */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`probability must be in (0, 1), got ${p}`);
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  let x: number;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p <= 1 - low) {
    const q = p - 0.5;
    const r = q * q;
    x = ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
      (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  return x;
}

/** An empirical distribution: outcome scores (0..1) with their counts. */
export type Distribution = readonly (readonly [score: number, count: number])[];

/** Per-game outcomes of a trinomial result: scores 0, ½, 1. */
export function trinomialDistribution(t: Trinomial): Distribution {
  return [[0, t.losses], [0.5, t.draws], [1, t.wins]];
}

/** Per-pair outcomes of a pentanomial result: mean scores 0, ¼, ½, ¾, 1 of the pair. */
export function pentanomialDistribution(p: Pentanomial): Distribution {
  return p.map((count, i) => [i / 4, count] as const);
}

/** Sample count, mean and (population) variance of a distribution. */
export function moments(dist: Distribution): { n: number; mean: number; variance: number } {
  const n = dist.reduce((s, [, c]) => s + c, 0);
  if (n === 0) return { n: 0, mean: 0.5, variance: 0 };
  const mean = dist.reduce((s, [x, c]) => s + x * c, 0) / n;
  const variance = dist.reduce((s, [x, c]) => s + c * (x - mean) ** 2, 0) / n;
  return { n, mean, variance };
}

/** Elo and its 95% margin from per-game or per-pair outcomes: the score's confidence
 *  interval (normal approximation, standard error sqrt(variance / n)) mapped through
 *  scoreToElo, margin = half its width (as cutechess-cli reports it). */
export function eloEstimate(dist: Distribution, confidence = 0.95): EloEstimate {
  const { n, mean, variance } = moments(dist);
  if (n === 0) return { score: 0.5, elo: 0, margin: Infinity };
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const se = Math.sqrt(variance / n);
  const lo = scoreToElo(mean - z * se);
  const hi = scoreToElo(mean + z * se);
  const margin = Number.isFinite(lo) && Number.isFinite(hi) ? (hi - lo) / 2 : Infinity;
  return { score: mean, elo: scoreToElo(mean), margin };
}

/** Likelihood of superiority: the probability that the engine is stronger, from wins and
 *  losses only (draws carry no information): Phi((W - L) / sqrt(W + L)). */
export function los(t: Trinomial): number {
  if (t.wins + t.losses === 0) return 0.5;
  return 0.5 * (1 + erf((t.wins - t.losses) / Math.sqrt(2 * (t.wins + t.losses))));
}

/** The SPRT hypotheses (Elo on the logistic scale) and error rates. */
export interface SprtParams {
  elo0: number;
  elo1: number;
  alpha: number;
  beta: number;
}

/** The LLR bounds: H0 is accepted at or below `lower`, H1 at or above `upper`. */
export function sprtBounds(p: SprtParams): { lower: number; upper: number } {
  return { lower: Math.log(p.beta / (1 - p.alpha)), upper: Math.log((1 - p.beta) / p.alpha) };
}

/** Counts below this are raised to it before the LLR, so a sample without draws (or without
 *  losses) still has a positive variance; fishtest does the same. */
const LLR_EPSILON = 1e-3;

/** The generalized SPRT log-likelihood ratio, logistic-Elo model: with s0, s1 the expected
 *  scores of elo0, elo1 and mu, var the sample mean and variance of the per-game (or
 *  per-pair) score, LLR ≈ N·(s1 − s0)(2·mu − s0 − s1) / (2·var). This is the normal
 *  approximation of M. Van den Bergh's "GSPRT approximation" note, used by fishtest
 *  (stat_util.LLR_logistic) and fastchess; it needs no draw model (unlike the BayesElo SPRT
 *  of cutechess-cli). */
export function sprtLlr(dist: Distribution, p: Pick<SprtParams, "elo0" | "elo1">): number {
  if (dist.every(([, c]) => c === 0)) return 0;
  const regularized = dist.map(([x, c]) => [x, Math.max(c, LLR_EPSILON)] as const);
  const { n, mean, variance } = moments(regularized);
  const s0 = eloToScore(p.elo0);
  const s1 = eloToScore(p.elo1);
  return (n * (s1 - s0) * (2 * mean - s0 - s1)) / (2 * variance);
}

/** Games before an SPRT may decide: with a handful of games the sample variance is tiny and
 *  the LLR's normal approximation is meaningless (one lost game gave LLR -8.8, five draws
 *  -11.6). */
export const SPRT_MIN_GAMES = 30;

/** "H0" or "H1" once the LLR has crossed a bound, otherwise undefined. */
export function sprtDecision(llr: number, p: SprtParams): "H0" | "H1" | undefined {
  const { lower, upper } = sprtBounds(p);
  if (llr >= upper) return "H1";
  if (llr <= lower) return "H0";
  return undefined;
}

/** Formats an Elo value with its sign ("+190.8", "-inf"). */
export function formatElo(elo: number, digits = 1): string {
  if (elo === Infinity) return "+inf";
  if (elo === -Infinity) return "-inf";
  const s = Math.abs(elo).toFixed(digits);
  return (elo < 0 && Number(s) !== 0 ? "-" : "+") + s;
}
