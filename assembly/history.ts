// Move-ordering memory of the search: killer moves per ply, counter-moves, the butterfly
// history of quiet moves, continuation history (a quiet move's record after the piece
// and destination of the moves one and two plies before) and capture history (by piece,
// destination and captured type), all with a gravity rule that ages old results.

import { Color, Move, MAX_PLY, MOVE_NONE, toSq } from "./types";
import { pieceOn } from "./position";
import { clearCorrection } from "./correction";
import {
  ARENA, ARENA_KILLERS, ARENA_COUNTER_MOVES, ARENA_BUTTERFLY, ARENA_CONTINUATION, ARENA_PLY_MOVES, ARENA_CAPTURE_HISTORY,
  ARENA_CORRECTION, PIECE_TO_NB,
} from "./arena";

/** Bound of history values; the gravity rule keeps |h| below it. */
export const HISTORY_BOUND = 16384;

// All of it is in the thread's arena (arena.ts): killers [ply][2], counter moves [piece that
// moved][its destination], butterfly history [colour][from][to], continuation history,
// capture history, and the move made at each ply.

// @ts-ignore: decorator
@inline function killerAt(i: i32): Move {
  return load<u16>(ARENA + (<usize>i << 1), ARENA_KILLERS);
}
// @ts-ignore: decorator
@inline function setKillerAt(i: i32, m: Move): void {
  store<u16>(ARENA + (<usize>i << 1), m, ARENA_KILLERS);
}
// @ts-ignore: decorator
@inline function counterSlot(prev: Move): usize {
  const to = toSq(prev);
  return ARENA + ARENA_COUNTER_MOVES + (<usize>((pieceOn(to) << 6) | to) << 1);
}
// @ts-ignore: decorator
@inline function butterflySlot(c: Color, m: Move): usize {
  return ARENA + ARENA_BUTTERFLY + (<usize>((c << 12) | (<i32>m & 0xfff)) << 2);
}

/** First killer move at ply. */
// @ts-ignore: decorator
@inline export function killer1(ply: i32): Move {
  return killerAt(ply << 1);
}

/** Second killer move at ply. */
// @ts-ignore: decorator
@inline export function killer2(ply: i32): Move {
  return killerAt((ply << 1) + 1);
}

/** Remembers a quiet move that caused a cutoff at ply. */
export function storeKiller(ply: i32, m: Move): void {
  const i = ply << 1;
  const first = killerAt(i);
  if (first != m) {
    setKillerAt(i + 1, first);
    setKillerAt(i, m);
  }
}

/** Clears the killers of a ply (its children start fresh). */
// @ts-ignore: decorator
@inline export function clearKillers(ply: i32): void {
  store<u32>(ARENA + (<usize>ply << 2), 0, ARENA_KILLERS); // both, MOVE_NONE
}

/** The move that last refuted `prev` (by the piece now on prev's destination). */
// @ts-ignore: decorator
@inline export function counterMove(prev: Move): Move {
  if (prev == MOVE_NONE) return MOVE_NONE;
  return load<u16>(counterSlot(prev));
}

/** Records m as the refutation of prev. */
// @ts-ignore: decorator
@inline export function storeCounterMove(prev: Move, m: Move): void {
  if (prev == MOVE_NONE) return;
  store<u16>(counterSlot(prev), m);
}

/** History score of a quiet move by colour c. */
// @ts-ignore: decorator
@inline export function historyScore(c: Color, m: Move): i32 {
  return load<i32>(butterflySlot(c, m));
}

/** Gravity update: moves the value towards +-HISTORY_BOUND by bonus, slowing as it nears it. */
// @ts-ignore: decorator
@inline export function updateHistory(c: Color, m: Move, bonus: i32): void {
  const at = butterflySlot(c, m);
  store<i32>(at, gravity(load<i32>(at), bonus));
}

/** History bonus for a cutoff at depth. */
// @ts-ignore: decorator
@inline export function historyBonus(depth: i32): i32 {
  return min(depth * depth * 16 + depth * 32, 2400);
}

// Continuation history: [piece * 64 + destination of an earlier move][piece * 64 + destination].
// Its 2 MB in the arena are zero when the instance starts without being written, so an
// instance that never searches (the bindings' rules instance) never touches those pages.
// The move made at each ply of the search is kept as its piece-and-destination (-1: none, or
// a null move).

/** Records the move made at ply (pieceTo = piece * 64 + destination, or -1). */
// @ts-ignore: decorator
@inline export function setPlyMove(ply: i32, pieceTo: i32): void {
  store<i32>(ARENA + (<usize>ply << 2), pieceTo, ARENA_PLY_MOVES);
}

/** The continuation table row of the move made at ply, or -1 (none, or before the root). */
// @ts-ignore: decorator
@inline export function continuationRow(ply: i32): i32 {
  if (ply < 0) return -1;
  const pt = load<i32>(ARENA + (<usize>ply << 2), ARENA_PLY_MOVES);
  return pt < 0 ? -1 : pt * PIECE_TO_NB;
}

// @ts-ignore: decorator
@inline function continuationAt(row: i32, pieceTo: i32): i32 {
  return row < 0 ? 0 : <i32>load<i16>(ARENA + (<usize>(row + pieceTo) << 1), ARENA_CONTINUATION);
}

/** Ordering score of a quiet move: butterfly history plus the continuation histories after
 *  the moves one (row1) and two (row2) plies before. */
// @ts-ignore: decorator
@inline export function quietScore(c: Color, m: Move, pieceTo: i32, row1: i32, row2: i32): i32 {
  return historyScore(c, m) + continuationAt(row1, pieceTo) + continuationAt(row2, pieceTo);
}

// @ts-ignore: decorator
@inline function gravity(h: i32, bonus: i32): i32 {
  const b = min(max(bonus, -HISTORY_BOUND), HISTORY_BOUND);
  return h + b - (h * abs(b)) / HISTORY_BOUND;
}

/** Updates the butterfly and continuation histories of a quiet move by bonus. */
export function updateQuietHistories(c: Color, m: Move, pieceTo: i32, row1: i32, row2: i32, bonus: i32): void {
  updateHistory(c, m, bonus);
  if (row1 >= 0) updateContinuation(row1 + pieceTo, bonus);
  if (row2 >= 0) updateContinuation(row2 + pieceTo, bonus);
}

// @ts-ignore: decorator
@inline function updateContinuation(i: i32, bonus: i32): void {
  const at = ARENA + ARENA_CONTINUATION + (<usize>i << 1);
  store<i16>(at, <i16>gravity(load<i16>(at), bonus));
}

// Capture history: [piece * 64 + destination][captured piece type, 0 for none].

// @ts-ignore: decorator
@inline function captureSlot(pieceTo: i32, captured: i32): usize {
  return ARENA + ARENA_CAPTURE_HISTORY + (<usize>((pieceTo << 3) | captured) << 1);
}

/** Capture history of the move with this piece-and-destination taking `captured`. */
// @ts-ignore: decorator
@inline export function captureScore(pieceTo: i32, captured: i32): i32 {
  return <i32>load<i16>(captureSlot(pieceTo, captured));
}

/** Updates the capture history of a capture (or promotion) by bonus. */
// @ts-ignore: decorator
@inline export function updateCaptureHistory(pieceTo: i32, captured: i32, bonus: i32): void {
  const at = captureSlot(pieceTo, captured);
  store<i16>(at, <i16>gravity(load<i16>(at), bonus));
}

/** Forgets everything (new game), the evaluation's corrections (correction.ts) too. */
export function clearHistory(): void {
  clearCorrection();
  memory.fill(ARENA + ARENA_KILLERS, 0, MAX_PLY * 2 * 2);
  // Counter moves, butterfly, capture and continuation histories lie one after another.
  memory.fill(ARENA + ARENA_COUNTER_MOVES, 0, ARENA_CORRECTION - ARENA_COUNTER_MOVES);
}

