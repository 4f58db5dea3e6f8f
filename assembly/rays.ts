// Reference slider attacks by walking rays square by square: slow, obviously correct,
// and the source every fast slider table is built from and tested against.

import { Bitboard, Square } from "./types";

const ROOK_DF: StaticArray<i32> = [1, -1, 0, 0];
const ROOK_DR: StaticArray<i32> = [0, 0, 1, -1];
const BISHOP_DF: StaticArray<i32> = [1, 1, -1, -1];
const BISHOP_DR: StaticArray<i32> = [1, -1, 1, -1];

function walk(sq: Square, occ: Bitboard, df: StaticArray<i32>, dr: StaticArray<i32>, edgeMask: bool): Bitboard {
  let att: u64 = 0;
  for (let d = 0; d < 4; d++) {
    const sf = unchecked(df[d]);
    const sr = unchecked(dr[d]);
    let f = (sq & 7) + sf;
    let r = (sq >> 3) + sr;
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      // For the relevant-occupancy mask the last square before the edge is left out.
      if (edgeMask && (f + sf < 0 || f + sf > 7 || r + sr < 0 || r + sr > 7)) break;
      const bit = (<u64>1) << (<u64>((r << 3) | f));
      att |= bit;
      if (occ & bit) break;
      f += sf;
      r += sr;
    }
  }
  return att;
}

/** Rook attacks from sq with blockers occ, by walking the four rays. */
export function slowRookAttacks(sq: Square, occ: Bitboard): Bitboard {
  return walk(sq, occ, ROOK_DF, ROOK_DR, false);
}

/** Bishop attacks from sq with blockers occ, by walking the four rays. */
export function slowBishopAttacks(sq: Square, occ: Bitboard): Bitboard {
  return walk(sq, occ, BISHOP_DF, BISHOP_DR, false);
}

/** Squares whose occupancy can change rook attacks from sq (rays without the edge square). */
export function rookRelevantMask(sq: Square): Bitboard {
  return walk(sq, 0, ROOK_DF, ROOK_DR, true);
}

/** Squares whose occupancy can change bishop attacks from sq. */
export function bishopRelevantMask(sq: Square): Bitboard {
  return walk(sq, 0, BISHOP_DF, BISHOP_DR, true);
}
