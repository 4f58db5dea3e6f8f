// The evaluation trace, for the tuners: while `tracing` is on, the evaluation records how often
// each weight of weights.ts entered its score (white's count minus black's), and the attackers
// of each king zone (the one term that is not linear in its weights). Compiled in only when
// the build defines EVAL_TRACE (`--use EVAL_TRACE=1`, the "tune" target); otherwise every
// call below is a constant-false branch that the compiler removes.

import { Color, WHITE } from "./types";
import { WEIGHT_COUNT } from "./weights";

// @ts-ignore: EVAL_TRACE is defined by `--use EVAL_TRACE=1` in the tuning build
export const TRACE: bool = isDefined(EVAL_TRACE);

/** Set by the tuner around the evaluations it wants traced. */
export let tracing = false;

export function setTracing(on: bool): void {
  tracing = on;
}

/** Coefficient of each weight: white's count minus black's. */
export const traceCoef = new StaticArray<i32>(WEIGHT_COUNT);
/** Pieces attacking each king's zone by type ([colour of the king * 8 + type]), and
 *  whether the attack counts (enough attackers and a queen): [colour of the king * 8]. */
export const traceKingAttack = new StaticArray<i32>(16);
/** True when the evaluation took a special path (dead draw, mating a lone king) that the
 *  weights do not describe. */
export let traceSpecial = false;

// @ts-ignore: decorator
@inline export function traceOn(): bool {
  return TRACE && tracing;
}

/** Counts weight w n times for colour c. */
// @ts-ignore: decorator
@inline export function trace(w: i32, c: Color, n: i32 = 1): void {
  if (TRACE && tracing) unchecked((traceCoef[w] += c == WHITE ? n : -n));
}

export function traceClear(): void {
  if (!TRACE) return;
  memory.fill(changetype<usize>(traceCoef), 0, WEIGHT_COUNT * 4);
  memory.fill(changetype<usize>(traceKingAttack), 0, 16 * 4);
  traceSpecial = false;
}

export function traceMarkSpecial(): void {
  if (TRACE && tracing) traceSpecial = true;
}

/** Records the king-zone attack on colour c's king: attackers by type and whether it counts. */
export function traceKing(c: Color, pt: i32, n: i32): void {
  if (TRACE && tracing) unchecked((traceKingAttack[c * 8 + pt] = n));
}
