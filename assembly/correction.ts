// Correction history: how far the static evaluation was off from the search's result in
// positions with the same pawn structure, by side to move, learnt during the search and added
// to the static evaluation (as Stockfish, Berserk and Stormphrax do). The evaluation misjudges
// some pawn structures consistently; the search finds out, and the next nodes with that
// structure start from a better guess for their pruning decisions.

import { Color, WHITE, BLACK, PAWN } from "./types";
import { piecesOf } from "./position";
import { VALUE_KNOWN_WIN } from "./score";

const SIZE = 16384;
/** Entries are kept in 1/GRAIN centipawns. */
const GRAIN = 256;
/** A new result counts weight/SCALE in the entry's moving average. */
const SCALE = 256;
/** Largest correction: 64 centipawns. */
const LIMIT = 64 * GRAIN;
const WEIGHT_MAX = 16;

const table = new StaticArray<i32>(2 * SIZE);

/** The table entry of the current pawn structure for side c (a multiplicative hash of both
 *  sides' pawns). */
// @ts-ignore: decorator
@inline function slot(c: Color): i32 {
  const h = piecesOf(WHITE, PAWN) * 0x9e3779b97f4a7c15 ^ piecesOf(BLACK, PAWN) * 0xc2b2ae3d27d4eb4f;
  return (c << 14) | <i32>(h >> 50);
}

/** The static evaluation raw (side to move c's view) with the correction of its pawn
 *  structure; known wins and losses are left as they are. */
export function correctedEval(c: Color, raw: i32): i32 {
  if (raw >= VALUE_KNOWN_WIN || raw <= -VALUE_KNOWN_WIN) return raw;
  const v = raw + unchecked(table[slot(c)]) / GRAIN;
  return min(max(v, -VALUE_KNOWN_WIN + 1), VALUE_KNOWN_WIN - 1);
}

/** Moves the correction of the current pawn structure towards what a search of `depth`
 *  found (score) against the corrected static evaluation it started from. */
export function updateCorrection(c: Color, staticEval: i32, score: i32, depth: i32): void {
  const i = slot(c);
  const diff = min(max(score - staticEval, -LIMIT / GRAIN), LIMIT / GRAIN) * GRAIN;
  const weight = min(depth + 1, WEIGHT_MAX);
  const e = unchecked(table[i]) + (diff * weight) / SCALE;
  unchecked((table[i] = min(max(e, -LIMIT), LIMIT)));
}

/** Forgets every correction (new game). */
export function clearCorrection(): void {
  memory.fill(changetype<usize>(table), 0, 2 * SIZE * 4);
}
