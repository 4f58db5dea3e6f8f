// Bitboard utilities: masks, bit scans, pawn shifts, and the between/line tables.

import { Bitboard, Color, Square, SQUARE_NB, fileOf, rankOf } from "./types";

export const EMPTY_BB: Bitboard = 0;
export const ALL_BB: Bitboard = 0xffffffffffffffff;
export const FILE_A_BB: Bitboard = 0x0101010101010101;
export const FILE_H_BB: Bitboard = FILE_A_BB << 7;
export const RANK_1_BB: Bitboard = 0xff;
export const RANK_2_BB: Bitboard = RANK_1_BB << 8;
export const RANK_3_BB: Bitboard = RANK_1_BB << 16;
export const RANK_4_BB: Bitboard = RANK_1_BB << 24;
export const RANK_5_BB: Bitboard = RANK_1_BB << 32;
export const RANK_6_BB: Bitboard = RANK_1_BB << 40;
export const RANK_7_BB: Bitboard = RANK_1_BB << 48;
export const RANK_8_BB: Bitboard = RANK_1_BB << 56;
export const LIGHT_SQUARES_BB: Bitboard = 0x55aa55aa55aa55aa;
export const DARK_SQUARES_BB: Bitboard = ~LIGHT_SQUARES_BB;

/** The bitboard of one square. */
// @ts-ignore: decorator
@inline export function squareBB(sq: Square): Bitboard {
  return (<u64>1) << (<u64>sq);
}

/** All squares of the file `f` (0 = a). */
// @ts-ignore: decorator
@inline export function fileBB(f: i32): Bitboard {
  return FILE_A_BB << (<u64>f);
}

/** All squares of the rank `r` (0 = first rank). */
// @ts-ignore: decorator
@inline export function rankBB(r: i32): Bitboard {
  return RANK_1_BB << (<u64>(r << 3));
}

/** Number of set bits. */
// @ts-ignore: decorator
@inline export function popcount(b: Bitboard): i32 {
  return <i32>popcnt<u64>(b);
}

/** Index of the least significant set bit (b must not be empty). */
// @ts-ignore: decorator
@inline export function lsb(b: Bitboard): Square {
  return <i32>ctz<u64>(b);
}

/** Index of the most significant set bit (b must not be empty). */
// @ts-ignore: decorator
@inline export function msb(b: Bitboard): Square {
  return 63 - <i32>clz<u64>(b);
}

/** b without its least significant bit. */
// @ts-ignore: decorator
@inline export function clearLsb(b: Bitboard): Bitboard {
  return b & (b - 1);
}

/** True when b has more than one bit set. */
// @ts-ignore: decorator
@inline export function moreThanOne(b: Bitboard): bool {
  return (b & (b - 1)) != 0;
}

// Pawn directions as left rotations, so one formula serves both colours:
// a white push is +8 (rotl 8) and a black push is -8 (rotl 56). Pawns never
// stand on their last rank, so the rotation never wraps a real pawn around.
export const PUSH_ROT: StaticArray<u64> = [8, 56];
// Captures towards the a-file (white +7, black -9) and towards the h-file (white +9, black -7).
export const WEST_ROT: StaticArray<u64> = [7, 55];
export const EAST_ROT: StaticArray<u64> = [9, 57];
export const PAWN_PUSH: StaticArray<i32> = [8, -8];

/** Squares one step forward for pawns of colour c. */
// @ts-ignore: decorator
@inline export function pawnPush(c: Color, b: Bitboard): Bitboard {
  return rotl<u64>(b, unchecked(PUSH_ROT[c]));
}

/** Squares attacked towards the a-file by pawns of colour c. */
// @ts-ignore: decorator
@inline export function pawnWest(c: Color, b: Bitboard): Bitboard {
  return rotl<u64>(b & ~FILE_A_BB, unchecked(WEST_ROT[c]));
}

/** Squares attacked towards the h-file by pawns of colour c. */
// @ts-ignore: decorator
@inline export function pawnEast(c: Color, b: Bitboard): Bitboard {
  return rotl<u64>(b & ~FILE_H_BB, unchecked(EAST_ROT[c]));
}

/** All squares attacked by pawns of colour c. */
// @ts-ignore: decorator
@inline export function pawnAttacksBB(c: Color, b: Bitboard): Bitboard {
  return pawnWest(c, b) | pawnEast(c, b);
}

/** Chebyshev distance between two squares. */
export function distance(a: Square, b: Square): i32 {
  const df = abs(fileOf(a) - fileOf(b));
  const dr = abs(rankOf(a) - rankOf(b));
  return max(df, dr);
}

// BETWEEN[a][b]: the squares strictly between a and b when they share a line, else empty.
// LINE[a][b]: the whole line through a and b when they share one, else empty.
const BETWEEN = new StaticArray<u64>(SQUARE_NB * SQUARE_NB);
const LINE = new StaticArray<u64>(SQUARE_NB * SQUARE_NB);

/** Squares strictly between a and b on a shared rank, file or diagonal. */
// @ts-ignore: decorator
@inline export function between(a: Square, b: Square): Bitboard {
  return unchecked(BETWEEN[(a << 6) | b]);
}

/** The full line through a and b, or empty when they are not aligned. */
// @ts-ignore: decorator
@inline export function line(a: Square, b: Square): Bitboard {
  return unchecked(LINE[(a << 6) | b]);
}

/** True when the three squares lie on one line. */
// @ts-ignore: decorator
@inline export function aligned(a: Square, b: Square, c: Square): bool {
  return (line(a, b) & squareBB(c)) != 0;
}

function initLines(): void {
  for (let a = 0; a < 64; a++) {
    for (let b = 0; b < 64; b++) {
      if (a == b) continue;
      const df = fileOf(b) - fileOf(a);
      const dr = rankOf(b) - rankOf(a);
      if (df != 0 && dr != 0 && abs(df) != abs(dr)) continue;
      const sf = df > 0 ? 1 : df < 0 ? -1 : 0;
      const sr = dr > 0 ? 1 : dr < 0 ? -1 : 0;
      let btw: u64 = 0;
      let f = fileOf(a) + sf;
      let r = rankOf(a) + sr;
      while (f != fileOf(b) || r != rankOf(b)) {
        btw |= squareBB((r << 3) | f);
        f += sf;
        r += sr;
      }
      // Extend from a in both directions to the board edges for the full line.
      let full: u64 = squareBB(a);
      for (let dir = -1; dir <= 1; dir += 2) {
        f = fileOf(a) + sf * dir;
        r = rankOf(a) + sr * dir;
        while (f >= 0 && f < 8 && r >= 0 && r < 8) {
          full |= squareBB((r << 3) | f);
          f += sf * dir;
          r += sr * dir;
        }
      }
      unchecked((BETWEEN[(a << 6) | b] = btw));
      unchecked((LINE[(a << 6) | b] = full));
    }
  }
}

initLines();
