// Correction history: how far the static evaluation was off from the search's result in
// positions with the same pawn structure, by side to move, learnt during the search and added
// to the static evaluation (as Stockfish, Berserk and Stormphrax do). The evaluation misjudges
// some pawn structures consistently; the search finds out, and the next nodes with that
// structure start from a better guess for their pruning decisions. Optionally the same is
// learnt for each side's pieces other than pawns (where they stand), as Stockfish's non-pawn
// correction does, and the corrections are averaged.

import { Color, WHITE, BLACK, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING } from "./types";
import { piecesOf, pieces, colorBB } from "./position";
import { VALUE_KNOWN_WIN } from "./score";
import { ARENA, ARENA_CORRECTION, CORRECTION_BITS, CORRECTION_SIZE } from "./arena";

/** Each table has 2 * SIZE entries: SIZE per side to move, indexed by a hash's top BITS bits. */
const BITS = CORRECTION_BITS;
const SIZE = CORRECTION_SIZE;
/** Entries are kept in 1/GRAIN centipawns. */
const GRAIN = 256;
/** A new result counts weight/SCALE in the entry's moving average. */
const SCALE = 256;
/** Largest correction: 64 centipawns (an entry fits in 16 bits). */
const LIMIT = 64 * GRAIN;
const WEIGHT_MAX = 16;

// By side to move: the pawn structure's table, then white's pieces', then black's, in the
// thread's arena. Entries stay within ±LIMIT, so 16 bits hold them: half the memory of i32,
// fewer cache misses.
const PAWN_TABLE = 0;
const WHITE_PIECES_TABLE = 2 * SIZE;
const BLACK_PIECES_TABLE = 4 * SIZE;

/** The entry of hash h for side to move c in the table that starts at base. */
// @ts-ignore: decorator
@inline function slot(base: i32, c: Color, h: u64): i32 {
  return base + ((c << BITS) | <i32>(h >> (64 - BITS)));
}

// @ts-ignore: decorator
@inline function entry(i: i32): i32 {
  return <i32>load<i16>(ARENA + (<usize>i << 1), ARENA_CORRECTION);
}

/** The pawn structure's entry for side c (a multiplicative hash of both sides' pawns). */
// @ts-ignore: decorator
@inline function pawnSlot(c: Color): i32 {
  return slot(PAWN_TABLE, c, piecesOf(WHITE, PAWN) * 0x9e3779b97f4a7c15 ^ piecesOf(BLACK, PAWN) * 0xc2b2ae3d27d4eb4f);
}

/** The entry of side p's pieces other than pawns for side to move c (a multiplicative hash of
 *  where its minor pieces, its rooks and queens, and its king stand). */
// @ts-ignore: decorator
@inline function piecesSlot(p: Color, c: Color): i32 {
  const own = colorBB(p);
  const h = (own & (pieces(KNIGHT) | pieces(BISHOP))) * 0x9e3779b97f4a7c15 ^
    (own & (pieces(ROOK) | pieces(QUEEN))) * 0xc2b2ae3d27d4eb4f ^ (own & pieces(KING)) * 0x165667b19e3779f9;
  return slot(p == WHITE ? WHITE_PIECES_TABLE : BLACK_PIECES_TABLE, c, h);
}

/** The correction for side to move c, in 1/GRAIN centipawns: the pawn structure's, or with
 *  withPieces the average of the pawn structure's and the two sides' pieces'. */
// @ts-ignore: decorator
@inline function correction(c: Color, withPieces: bool): i32 {
  const pawns = entry(pawnSlot(c));
  if (!withPieces) return pawns;
  return pawns / 2 + (entry(piecesSlot(WHITE, c)) + entry(piecesSlot(BLACK, c))) / 4;
}

/** The static evaluation raw (side to move c's view) with its correction; known wins and
 *  losses are left as they are. */
// @ts-ignore: decorator
@inline export function correctedEval(c: Color, raw: i32, withPieces: bool): i32 {
  if (raw >= VALUE_KNOWN_WIN || raw <= -VALUE_KNOWN_WIN) return raw;
  const v = raw + correction(c, withPieces) / GRAIN;
  return min(max(v, -VALUE_KNOWN_WIN + 1), VALUE_KNOWN_WIN - 1);
}

/** Moves entry i towards diff (in 1/GRAIN centipawns) by weight/SCALE. */
// @ts-ignore: decorator
@inline function learn(i: i32, diff: i32, weight: i32): void {
  const e = entry(i) + (diff * weight) / SCALE;
  store<i16>(ARENA + (<usize>i << 1), <i16>min(max(e, -LIMIT), LIMIT), ARENA_CORRECTION);
}

/** Moves the corrections of the current position towards what a search of `depth` found
 *  (score) against the corrected static evaluation it started from. */
export function updateCorrection(c: Color, staticEval: i32, score: i32, depth: i32, withPieces: bool): void {
  const diff = min(max(score - staticEval, -LIMIT / GRAIN), LIMIT / GRAIN) * GRAIN;
  const weight = min(depth + 1, WEIGHT_MAX);
  learn(pawnSlot(c), diff, weight);
  if (!withPieces) return;
  learn(piecesSlot(WHITE, c), diff, weight);
  learn(piecesSlot(BLACK, c), diff, weight);
}

/** Forgets every correction (new game). */
export function clearCorrection(): void {
  memory.fill(ARENA + ARENA_CORRECTION, 0, 3 * 2 * SIZE * 2);
}
