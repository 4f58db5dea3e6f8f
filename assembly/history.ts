// Move-ordering memory of the search: killer moves per ply, counter-moves, and the
// butterfly history of quiet moves with a gravity rule that ages old results.

import { Color, Move, MAX_PLY, MOVE_NONE, toSq } from "./types";
import { pieceOn } from "./position";

/** Bound of history values; the gravity rule keeps |h| below it. */
export const HISTORY_MAX = 16384;

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
export function clearKillers(ply: i32): void {
  unchecked((killers[ply << 1] = MOVE_NONE));
  unchecked((killers[(ply << 1) + 1] = MOVE_NONE));
}

/** The move that last refuted `prev` (by the piece now on prev's destination). */
export function counterMove(prev: Move): Move {
  if (prev == MOVE_NONE) return MOVE_NONE;
  const to = toSq(prev);
  return unchecked(counters[(pieceOn(to) << 6) | to]);
}

/** Records m as the refutation of prev. */
export function storeCounterMove(prev: Move, m: Move): void {
  if (prev == MOVE_NONE) return;
  const to = toSq(prev);
  unchecked((counters[(pieceOn(to) << 6) | to] = m));
}

/** History score of a quiet move by colour c. */
// @ts-ignore: decorator
@inline export function historyScore(c: Color, m: Move): i32 {
  return unchecked(butterfly[(c << 12) | (<i32>m & 0xfff)]);
}

/** Gravity update: moves the value towards +-HISTORY_MAX by bonus, slowing as it nears it. */
export function updateHistory(c: Color, m: Move, bonus: i32): void {
  const i = (c << 12) | (<i32>m & 0xfff);
  const h = unchecked(butterfly[i]);
  const b = min(max(bonus, -HISTORY_MAX), HISTORY_MAX);
  unchecked((butterfly[i] = h + b - (h * abs(b)) / HISTORY_MAX));
}

/** History bonus for a cutoff at depth. */
// @ts-ignore: decorator
@inline export function historyBonus(depth: i32): i32 {
  return min(depth * depth * 16 + depth * 32, 2400);
}

/** Forgets everything (new game). */
export function clearHistory(): void {
  memory.fill(changetype<usize>(killers), 0, MAX_PLY * 2 * 2);
  memory.fill(changetype<usize>(counters), 0, 16 * 64 * 2);
  memory.fill(changetype<usize>(butterfly), 0, 2 * 64 * 64 * 4);
}

