// Move-ordering memory of the search: killer moves per ply, counter-moves, the butterfly
// history of quiet moves, continuation history (a quiet move's record after the piece
// and destination of the moves one and two plies before) and capture history (by piece,
// destination and captured type), all with a gravity rule that ages old results.

import { Color, Move, MAX_PLY, MOVE_NONE, toSq } from "./types";
import { pieceOn } from "./position";
import { clearCorrection } from "./correction";

/** Bound of history values; the gravity rule keeps |h| below it. */
export const HISTORY_BOUND = 16384;

const killers = new StaticArray<u16>(MAX_PLY * 2);
const counters = new StaticArray<u16>(16 * 64); // [piece that moved][its destination]
const butterfly = new StaticArray<i32>(2 * 64 * 64); // [colour][from][to]

/** First killer move at ply. */
// @ts-ignore: decorator
@inline export function killer1(ply: i32): Move {
  return unchecked(killers[ply << 1]);
}

/** Second killer move at ply. */
// @ts-ignore: decorator
@inline export function killer2(ply: i32): Move {
  return unchecked(killers[(ply << 1) + 1]);
}

/** Remembers a quiet move that caused a cutoff at ply. */
export function storeKiller(ply: i32, m: Move): void {
  const i = ply << 1;
  if (unchecked(killers[i]) != m) {
    unchecked((killers[i + 1] = killers[i]));
    unchecked((killers[i] = m));
  }
}

/** Clears the killers of a ply (its children start fresh). */
// @ts-ignore: decorator
@inline export function clearKillers(ply: i32): void {
  unchecked((killers[ply << 1] = MOVE_NONE));
  unchecked((killers[(ply << 1) + 1] = MOVE_NONE));
}

/** The move that last refuted `prev` (by the piece now on prev's destination). */
// @ts-ignore: decorator
@inline export function counterMove(prev: Move): Move {
  if (prev == MOVE_NONE) return MOVE_NONE;
  const to = toSq(prev);
  return unchecked(counters[(pieceOn(to) << 6) | to]);
}

/** Records m as the refutation of prev. */
// @ts-ignore: decorator
@inline export function storeCounterMove(prev: Move, m: Move): void {
  if (prev == MOVE_NONE) return;
  const to = toSq(prev);
  unchecked((counters[(pieceOn(to) << 6) | to] = m));
}

/** History score of a quiet move by colour c. */
// @ts-ignore: decorator
@inline export function historyScore(c: Color, m: Move): i32 {
  return unchecked(butterfly[(c << 12) | (<i32>m & 0xfff)]);
}

/** Gravity update: moves the value towards +-HISTORY_BOUND by bonus, slowing as it nears it. */
// @ts-ignore: decorator
@inline export function updateHistory(c: Color, m: Move, bonus: i32): void {
  const i = (c << 12) | (<i32>m & 0xfff);
  unchecked((butterfly[i] = gravity(butterfly[i], bonus)));
}

/** History bonus for a cutoff at depth. */
// @ts-ignore: decorator
@inline export function historyBonus(depth: i32): i32 {
  return min(depth * depth * 16 + depth * 32, 2400);
}

// Continuation history: [piece * 64 + destination of an earlier move][piece * 64 + destination].
const PIECE_TO_NB = 16 * 64;
// Static memory rather than a heap array: its 2 MB are zero when the instance starts without
// being written, so an instance that never searches (the bindings' rules instance) never
// touches those pages (start-up time and resident memory).
const CONTINUATION: usize = memory.data(PIECE_TO_NB * PIECE_TO_NB * 2, 16);
// The piece-and-destination of the move made at each ply of the search (-1: none, or a null move).
const plyMoves = new StaticArray<i32>(MAX_PLY + 2);

/** Records the move made at ply (pieceTo = piece * 64 + destination, or -1). */
// @ts-ignore: decorator
@inline export function setPlyMove(ply: i32, pieceTo: i32): void {
  unchecked((plyMoves[ply] = pieceTo));
}

/** The continuation table row of the move made at ply, or -1 (none, or before the root). */
// @ts-ignore: decorator
@inline export function continuationRow(ply: i32): i32 {
  if (ply < 0) return -1;
  const pt = unchecked(plyMoves[ply]);
  return pt < 0 ? -1 : pt * PIECE_TO_NB;
}

// @ts-ignore: decorator
@inline function continuationAt(row: i32, pieceTo: i32): i32 {
  return row < 0 ? 0 : <i32>load<i16>(CONTINUATION + (<usize>(row + pieceTo) << 1));
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
  const at = CONTINUATION + (<usize>i << 1);
  store<i16>(at, <i16>gravity(load<i16>(at), bonus));
}

// Capture history: [piece * 64 + destination][captured piece type, 0 for none].
const capture = new StaticArray<i16>(PIECE_TO_NB * 8);

/** Capture history of the move with this piece-and-destination taking `captured`. */
// @ts-ignore: decorator
@inline export function captureScore(pieceTo: i32, captured: i32): i32 {
  return <i32>unchecked(capture[(pieceTo << 3) | captured]);
}

/** Updates the capture history of a capture (or promotion) by bonus. */
// @ts-ignore: decorator
@inline export function updateCaptureHistory(pieceTo: i32, captured: i32, bonus: i32): void {
  const i = (pieceTo << 3) | captured;
  unchecked((capture[i] = <i16>gravity(capture[i], bonus)));
}

/** Forgets everything (new game), the evaluation's corrections (correction.ts) too. */
export function clearHistory(): void {
  clearCorrection();
  memory.fill(changetype<usize>(killers), 0, MAX_PLY * 2 * 2);
  memory.fill(changetype<usize>(counters), 0, 16 * 64 * 2);
  memory.fill(changetype<usize>(butterfly), 0, 2 * 64 * 64 * 4);
  memory.fill(CONTINUATION, 0, PIECE_TO_NB * PIECE_TO_NB * 2);
  memory.fill(changetype<usize>(capture), 0, PIECE_TO_NB * 8 * 2);
}

