// The win/draw/loss model of the engine's scores, fitted by learn/wdl-fit.ts to self-play
// games (data/hce1/positions.bin, 300000 positions, negative log-likelihood 0.646536):
//   npx tsx learn/wdl-fit.ts --data data/hce1 --positions 300000 --write
// For a score x (centipawns) and the material m on the board (pawns 1, minors 3, rooks 5,
// queens 9, clamped to 17..78, over 58): P(win) = 1 / (1 + exp((a(m) - x) / b(m))),
// P(loss) = 1 / (1 + exp((a(m) + x) / b(m))), P(draw) the rest. a(m) is the score that
// wins half the time at that material.

import { PAWN, KNIGHT, BISHOP, ROOK, QUEEN } from "./types";
import { pieces } from "./position";

const A: StaticArray<f64> = [124.888, -79.756, -286.098, 305.643];
const B: StaticArray<f64> = [21.002, -8.988, -10.229, 110.126];

function poly(c: StaticArray<f64>, m: f64): f64 {
  return ((c[0] * m + c[1]) * m + c[2]) * m + c[3];
}

/** Material of the current position on the model's scale (17..78 over 58). */
export function wdlMaterial(): f64 {
  const count =
    <i32>popcnt(pieces(PAWN)) + 3 * <i32>popcnt(pieces(KNIGHT) | pieces(BISHOP)) + 5 * <i32>popcnt(pieces(ROOK)) +
    9 * <i32>popcnt(pieces(QUEEN));
  return <f64>min(max(count, 17), 78) / 58.0;
}

/** Win (part 0), draw (1) or loss (2) probability in permille of score x at material m. */
export function wdlPermille(x: i32, m: f64, part: i32): i32 {
  const a = poly(A, m);
  const b = max(poly(B, m), 1.0);
  const w = <i32>Math.round(1000.0 / (1.0 + Math.exp((a - <f64>x) / b)));
  const l = <i32>Math.round(1000.0 / (1.0 + Math.exp((a + <f64>x) / b)));
  return part == 0 ? w : part == 2 ? l : 1000 - w - l;
}

/** Expected score (a win 1, a draw 1/2) of score x at material m: the model's P(win) +
 *  P(draw) / 2, unrounded (the Monte Carlo search's values, mcts.ts). */
export function wdlExpectation(x: f64, m: f64): f64 {
  const a = poly(A, m);
  const b = max(poly(B, m), 1.0);
  const w = 1.0 / (1.0 + Math.exp((a - x) / b));
  const l = 1.0 / (1.0 + Math.exp((a + x) / b));
  return 0.5 * (1.0 + w - l);
}

/** The score (centipawns, within +-WDL_SCORE_MAX) whose expected score at material m is e:
 *  wdlExpectation's inverse, by bisection (it rises with x). */
export function wdlScoreOf(e: f64, m: f64): i32 {
  let lo = -WDL_SCORE_MAX;
  let hi = WDL_SCORE_MAX;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (wdlExpectation(<f64>mid, m) < e) lo = mid;
    else hi = mid;
  }
  return e - wdlExpectation(<f64>lo, m) < wdlExpectation(<f64>hi, m) - e ? lo : hi;
}

/** The largest score wdlScoreOf gives. */
export const WDL_SCORE_MAX = 4000;
