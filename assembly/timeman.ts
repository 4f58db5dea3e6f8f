// Time management in the spirit of FUSc#: a soft budget per move from the clock and the
// increment; after each iteration the next one starts only when the time used so far times
// a growth factor fits the budget (stretched when the best move changes or the score drops,
// shrunk when one move dominates); a hard limit stops the search mid-iteration.

import { hostNow } from "./host";
import {
  param, PARAM_TIME_MOVES_LEFT, PARAM_TIME_MIN_MOVES_LEFT, PARAM_TIME_INCREMENT_SHARE, PARAM_TIME_ITERATION_GROWTH,
  PARAM_TIME_HARD_FACTOR,
} from "./search-params";

// The allocation's constants are search parameters (search-params.ts), tunable with --tune:
// the moves assumed still to play at the start of a sudden-death game (40, a quarter fewer
// per ply, at least 20); the increment's share in the soft budget (75%); the growth factor
// (1.2) a new iteration must fit: it starts only if the time used so far, times this, fits
// the soft budget (the next iteration usually costs about this much more than all before
// it); the hard limit as a multiple of the soft budget (4.5).

/** Range and default of the UCI option Move Overhead. */
export const MOVE_OVERHEAD_MAX_MS = 5000;
export const MOVE_OVERHEAD_DEFAULT_MS = 30;
/** Milliseconds kept in reserve for the host and the transport (UCI Move Overhead). */
export let moveOverheadMs: i32 = MOVE_OVERHEAD_DEFAULT_MS;

let searchStartMs: f64 = 0; // the go: what info lines report
let startMs: f64 = 0; // the go, or the ponderhit: what the budgets count from
let softMs: f64 = 0;
let hardMs: f64 = 0;
let timed = false;
let fixedTime = false; // movetime: use the whole time, stop only at the hard limit

/** Sets the move overhead (clamped to 0..MOVE_OVERHEAD_MAX_MS). */
export function setMoveOverhead(ms: i32): void {
  moveOverheadMs = min(max(ms, 0), MOVE_OVERHEAD_MAX_MS);
}

/** Marks the start of the search (at `go`). */
export function startClock(): void {
  searchStartMs = hostNow();
  startMs = searchStartMs;
}

/** Restarts the budget clock (at `ponderhit`: the time used for the move starts now). */
export function restartBudgetClock(): void {
  startMs = hostNow();
}

/** Milliseconds the budgets have used (since the go, or since the ponderhit). */
export function elapsedMs(): f64 {
  return hostNow() - startMs;
}

/** Milliseconds since the go, pondering included (the `time` of info lines). */
export function searchTimeMs(): f64 {
  return hostNow() - searchStartMs;
}

/** No time limit (infinite, depth, nodes or mate searches, and pondering). */
export function setUntimed(): void {
  timed = false;
  fixedTime = false;
}

/** A fixed time per move. */
export function setMoveTime(ms: i32): void {
  timed = true;
  fixedTime = true;
  const t = <f64>max(ms - moveOverheadMs, 1);
  softMs = t;
  hardMs = t;
}

/** Budgets from the clock: time left and increment for the side to move, moves to the next
 *  time control (0 = sudden death), and the game ply (to guess the moves still to play). */
export function setClock(timeLeftMs: i32, incMs: i32, movesToGo: i32, gamePly: i32): void {
  timed = true;
  fixedTime = false;
  const left = <f64>max(timeLeftMs - moveOverheadMs, 1);
  // Sudden death: assume more moves remain early in the game than late.
  const mtg = movesToGo > 0
    ? <f64>min(movesToGo, 50)
    : <f64>max(param(PARAM_TIME_MOVES_LEFT) - gamePly / 4, param(PARAM_TIME_MIN_MOVES_LEFT));
  let soft = left / mtg + <f64>incMs * <f64>param(PARAM_TIME_INCREMENT_SHARE) / 100;
  soft = min(soft, left * 0.5);
  let hard = min(soft * <f64>param(PARAM_TIME_HARD_FACTOR) / 100, left * 0.75);
  if (movesToGo == 1) {
    soft = left * 0.6;
    hard = left * 0.8;
  }
  softMs = max(soft, 1.0);
  hardMs = max(hard, softMs);
}

/** The soft budget and the hard limit of the last setClock or setMoveTime, in milliseconds. */
export function softBudgetMs(): f64 {
  return softMs;
}

export function hardLimitMs(): f64 {
  return hardMs;
}

/** True once the hard limit has passed. */
export function hardLimitReached(): bool {
  return timed && elapsedMs() >= hardMs;
}

/** After a completed iteration: false when the next iteration should not start.
 *  stability in 0.4 .. 2.5 stretches or shrinks the soft budget. */
export function mayStartIteration(stability: f64): bool {
  if (!timed) return true;
  if (fixedTime) return elapsedMs() < hardMs;
  const growth = <f64>param(PARAM_TIME_ITERATION_GROWTH) / 100;
  return elapsedMs() * growth <= softMs * stability && elapsedMs() < hardMs;
}

/** For a search without iterations (the Monte Carlo search): true once the time used passes
 *  the soft budget times `scale` (a fixed move time: the whole time), or the hard limit. */
export function softLimitReached(scale: f64): bool {
  if (!timed) return false;
  const used = elapsedMs();
  return used >= hardMs || (!fixedTime && used >= softMs * scale);
}

/** True when the search is under a time limit. */
export function isTimed(): bool {
  return timed;
}
