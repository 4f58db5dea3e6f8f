// Attack lookups: leaper tables (pawn, knight, king) and the slider interface
// bishopAttacks/rookAttacks, served by the slider backend chosen at build time.

import { Bitboard, Color, Square, PieceType, BISHOP, ROOK, QUEEN, KNIGHT, KING, fileOf, rankOf } from "./types";
import { SLIDER_BACKEND, SLIDERS_MAGIC, SLIDERS_ROTATED, SLIDERS_OBSTRUCTION, SLIDERS_RAY_WALK } from "./config";
import { magicRookAttacks, magicBishopAttacks, sliderTableBytes as magicTableBytes, initMagic } from "./slider-magic";
import { rotatedRookAttacks, rotatedBishopAttacks, rotatedTableBytes, initRotated } from "./slider-rotated";
import {
  obstructionRookAttacks, obstructionBishopAttacks, obstructionTableBytes, initObstruction,
} from "./slider-obstruction";
import { rayWalkRookAttacks, rayWalkBishopAttacks, rayWalkTableBytes, initRayWalk } from "./slider-ray-walk";
import { slowRookAttacks, slowBishopAttacks } from "./rays";

const KNIGHT_ATTACKS = new StaticArray<u64>(64);
const KING_ATTACKS = new StaticArray<u64>(64);
const PAWN_ATTACKS = new StaticArray<u64>(128); // [colour * 64 + square]
const ROOK_PSEUDO = new StaticArray<u64>(64); // rook attacks on an empty board
const BISHOP_PSEUDO = new StaticArray<u64>(64);

/** Knight attacks from sq. */
// @ts-ignore: decorator
@inline export function knightAttacks(sq: Square): Bitboard {
  return unchecked(KNIGHT_ATTACKS[sq]);
}

/** King attacks from sq. */
// @ts-ignore: decorator
@inline export function kingAttacks(sq: Square): Bitboard {
  return unchecked(KING_ATTACKS[sq]);
}

/** Squares attacked by a pawn of colour c standing on sq. */
// @ts-ignore: decorator
@inline export function pawnAttacks(c: Color, sq: Square): Bitboard {
  return unchecked(PAWN_ATTACKS[(c << 6) | sq]);
}

/** Rook attacks from sq on an empty board. */
// @ts-ignore: decorator
@inline export function rookPseudoAttacks(sq: Square): Bitboard {
  return unchecked(ROOK_PSEUDO[sq]);
}

/** Bishop attacks from sq on an empty board. */
// @ts-ignore: decorator
@inline export function bishopPseudoAttacks(sq: Square): Bitboard {
  return unchecked(BISHOP_PSEUDO[sq]);
}

/** Rook attacks from sq given the occupancy occ. */
// @ts-ignore: decorator
@inline export function rookAttacks(sq: Square, occ: Bitboard): Bitboard {
  // if/else on constants: only the chosen backend's branch is compiled (a plain `return`
  // after a constant `if` would still compile, and so pull in, the other backends).
  if (SLIDER_BACKEND == SLIDERS_ROTATED) return rotatedRookAttacks(sq, occ);
  else if (SLIDER_BACKEND == SLIDERS_OBSTRUCTION) return obstructionRookAttacks(sq, occ);
  else if (SLIDER_BACKEND == SLIDERS_RAY_WALK) return rayWalkRookAttacks(sq, occ);
  else return magicRookAttacks(sq, occ);
}

/** Bishop attacks from sq given the occupancy occ. */
// @ts-ignore: decorator
@inline export function bishopAttacks(sq: Square, occ: Bitboard): Bitboard {
  if (SLIDER_BACKEND == SLIDERS_ROTATED) return rotatedBishopAttacks(sq, occ);
  else if (SLIDER_BACKEND == SLIDERS_OBSTRUCTION) return obstructionBishopAttacks(sq, occ);
  else if (SLIDER_BACKEND == SLIDERS_RAY_WALK) return rayWalkBishopAttacks(sq, occ);
  else return magicBishopAttacks(sq, occ);
}

/** Bytes of the slider backend's lookup data, for the backend comparison. */
export function sliderTableBytes(): i32 {
  if (SLIDER_BACKEND == SLIDERS_ROTATED) return rotatedTableBytes;
  else if (SLIDER_BACKEND == SLIDERS_OBSTRUCTION) return obstructionTableBytes;
  else if (SLIDER_BACKEND == SLIDERS_RAY_WALK) return rayWalkTableBytes;
  else return magicTableBytes;
}

/** Queen attacks from sq given the occupancy occ. */
// @ts-ignore: decorator
@inline export function queenAttacks(sq: Square, occ: Bitboard): Bitboard {
  return rookAttacks(sq, occ) | bishopAttacks(sq, occ);
}

/** Attacks of a non-pawn piece type from sq given the occupancy occ. */
export function pieceAttacks(pt: PieceType, sq: Square, occ: Bitboard): Bitboard {
  switch (pt) {
    case KNIGHT:
      return knightAttacks(sq);
    case BISHOP:
      return bishopAttacks(sq, occ);
    case ROOK:
      return rookAttacks(sq, occ);
    case QUEEN:
      return queenAttacks(sq, occ);
    case KING:
      return kingAttacks(sq);
    default:
      return 0;
  }
}

function leaperMask(sq: Square, df: StaticArray<i32>, dr: StaticArray<i32>): u64 {
  let b: u64 = 0;
  for (let i = 0; i < df.length; i++) {
    const f = fileOf(sq) + df[i];
    const r = rankOf(sq) + dr[i];
    if (f >= 0 && f < 8 && r >= 0 && r < 8) b |= (<u64>1) << (<u64>((r << 3) | f));
  }
  return b;
}

function initLeapers(): void {
  const nf: StaticArray<i32> = [1, 2, 2, 1, -1, -2, -2, -1];
  const nr: StaticArray<i32> = [2, 1, -1, -2, -2, -1, 1, 2];
  const kf: StaticArray<i32> = [1, 1, 1, 0, -1, -1, -1, 0];
  const kr: StaticArray<i32> = [1, 0, -1, -1, -1, 0, 1, 1];
  const pf: StaticArray<i32> = [-1, 1];
  const wr: StaticArray<i32> = [1, 1];
  const br: StaticArray<i32> = [-1, -1];
  for (let sq = 0; sq < 64; sq++) {
    KNIGHT_ATTACKS[sq] = leaperMask(sq, nf, nr);
    KING_ATTACKS[sq] = leaperMask(sq, kf, kr);
    PAWN_ATTACKS[sq] = leaperMask(sq, pf, wr);
    PAWN_ATTACKS[64 + sq] = leaperMask(sq, pf, br);
    ROOK_PSEUDO[sq] = slowRookAttacks(sq, 0);
    BISHOP_PSEUDO[sq] = slowBishopAttacks(sq, 0);
  }
}

initLeapers();
// Imported files' top-level code always runs, so each backend's start-up work is an init
// function called here for the chosen backend only.
if (SLIDER_BACKEND == SLIDERS_MAGIC) initMagic();
else if (SLIDER_BACKEND == SLIDERS_ROTATED) initRotated();
else if (SLIDER_BACKEND == SLIDERS_OBSTRUCTION) initObstruction();
else if (SLIDER_BACKEND == SLIDERS_RAY_WALK) initRayWalk();
else ERROR("unknown slider backend: --use SLIDERS=0 (magic), 1 (rotated), 2 (obstruction) or 3 (ray walk)");
