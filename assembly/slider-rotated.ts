// Rotated-bitboard slider attacks, the design of the seed engine (FUSc#, after Crafty and
// DarkThought): the occupancy is kept in four orientations, updated square by square by
// make/unmake, so that every rank, file and diagonal is a run of consecutive bits in one of
// them; a table indexed by square and that line's six inner bits gives the line's attacks.

import { Bitboard, Square } from "./types";
import { slowRookAttacks, slowBishopAttacks } from "./rays";
import { ARENA, ARENA_ROTATED } from "./arena";

// The four orientations. Each packs the board line by line into 64 bits, a line's squares
// in order of increasing file (files: increasing rank):
//
//   RANKS  normal, a1 = bit 0      FILES  rotated 90°: file a = bits 0-7 (a1..a8), ...
//   A1H8   diagonals parallel to a1-h8, packed: a1..h8 = bits 0-7, b1..h7 = 8-14, ... a8 = 63
//   A8H1   diagonals parallel to a8-h1, packed: a1 = bit 0, a2 b1 = 1-2, ... h8 = 63
//
// The packed diagonals have lengths 1 to 8, so six bits read from a diagonal's start may
// run into the next diagonal: the tables ignore every index bit beyond the diagonal's own
// inner squares, which is what keeps a bishop from wrapping around the board edge.
export const RANKS = 0;
export const FILES = 1;
export const A1H8 = 2;
export const A8H1 = 3;
const ORIENTATION_NB = 4;
// @ts-ignore: decorator
@lazy const STEP_FILE: StaticArray<i32> = [1, 0, 1, 1];
// @ts-ignore: decorator
@lazy const STEP_RANK: StaticArray<i32> = [0, 1, 1, -1];

// The position's occupancy in the four orientations (u64 each, in the order above), in the
// thread's arena beside the board (ARENA_ROTATED). The first is a copy of the normal
// occupancy, so that lookups can tell whether a caller's occupancy is the position's without
// importing position.ts.
// Per orientation and square: the square's bit, and where its line's inner bits start.
// @ts-ignore: decorator
@lazy const BIT_INDEX: usize = memory.data(ORIENTATION_NB * 64, 8);
// @ts-ignore: decorator
@lazy const LINE_SHIFT: usize = memory.data(ORIENTATION_NB * 64, 8);
// Per orientation: attacks along the line [square * 64 + inner occupancy].
// @ts-ignore: decorator
@lazy const LINE_ATTACKS: usize = memory.data(ORIENTATION_NB * 64 * 64 * 8, 16);

/** Bytes of lookup tables (attacks plus the per-square layout), for the backend comparison. */
export const rotatedTableBytes: i32 = ORIENTATION_NB * 64 * 64 * 8 + 2 * ORIENTATION_NB * 64;

/** Bit of sq in the given orientation. */
// @ts-ignore: decorator
@inline export function rotatedBit(orientation: i32, sq: Square): u64 {
  return (<u64>1) << <u64>load<u8>(BIT_INDEX + (<usize>orientation << 6) + <usize>sq);
}

/** The position's occupancy in the given orientation. */
// @ts-ignore: decorator
@inline export function rotatedOccupancy(orientation: i32): u64 {
  return load<u64>(ARENA + (<usize>orientation << 3), ARENA_ROTATED);
}

// @ts-ignore: decorator
@inline function xorOccupancy(orientation: i32, bits: u64): void {
  const at = ARENA + ARENA_ROTATED + (<usize>orientation << 3);
  store<u64>(at, load<u64>(at) ^ bits);
}

/** Make/unmake: a piece appears on or leaves sq. */
// @ts-ignore: decorator
@inline export function toggleRotated(sq: Square): void {
  xorOccupancy(RANKS, (<u64>1) << <u64>sq);
  xorOccupancy(FILES, rotatedBit(FILES, sq));
  xorOccupancy(A1H8, rotatedBit(A1H8, sq));
  xorOccupancy(A8H1, rotatedBit(A8H1, sq));
}

/** Make/unmake: a piece moves from one square to another, empty one. */
// @ts-ignore: decorator
@inline export function moveRotated(from: Square, to: Square): void {
  xorOccupancy(RANKS, ((<u64>1) << <u64>from) | ((<u64>1) << <u64>to));
  xorOccupancy(FILES, rotatedBit(FILES, from) | rotatedBit(FILES, to));
  xorOccupancy(A1H8, rotatedBit(A1H8, from) | rotatedBit(A1H8, to));
  xorOccupancy(A8H1, rotatedBit(A8H1, from) | rotatedBit(A8H1, to));
}

/** occ in the given orientation, computed square by square (set-up and tests). */
export function rotate(occ: Bitboard, orientation: i32): u64 {
  let r: u64 = 0;
  while (occ) {
    r |= rotatedBit(orientation, <i32>ctz<u64>(occ));
    occ &= occ - 1;
  }
  return r;
}

/** Sets the four occupancies from scratch (board set-up, snapshot restore). */
export function setRotated(occ: Bitboard): void {
  for (let o = 0; o < ORIENTATION_NB; o++) store<u64>(ARENA + (<usize>o << 3), rotate(occ, o), ARENA_ROTATED);
}

/** True when the four occupancies hold exactly occ (the debug invariant). */
export function rotatedMatches(occ: Bitboard): bool {
  for (let o = 0; o < ORIENTATION_NB; o++) {
    if (rotatedOccupancy(o) != rotate(occ, o)) return false;
  }
  return true;
}

/** Attacks along one line: the table entry for sq and the line's inner occupancy, read from
 *  `lineOcc` (the occupancy in that line's orientation) at `shift`. */
// @ts-ignore: decorator
@inline export function lineAttacks(orientation: i32, sq: Square, lineOcc: u64, shift: u64): Bitboard {
  const idx = (<usize>sq << 6) | <usize>((lineOcc >> shift) & 63);
  return load<u64>(LINE_ATTACKS + (((<usize>orientation << 12) | idx) << 3));
}

// @ts-ignore: decorator
@inline function lineShift(orientation: i32, sq: Square): u64 {
  return <u64>load<u8>(LINE_SHIFT + (<usize>orientation << 6) + <usize>sq);
}

/** Rook attacks from sq given the occupancy occ. The rank comes from occ itself; the file
 *  from the rotated board, corrected square by square where occ differs from the position
 *  (a king taken off, an en-passant capture tried): none in move generation. */
// @ts-ignore: decorator
@inline export function rotatedRookAttacks(sq: Square, occ: Bitboard): Bitboard {
  let files = rotatedOccupancy(FILES);
  let diff = occ ^ rotatedOccupancy(RANKS);
  while (diff) {
    files ^= rotatedBit(FILES, <i32>ctz<u64>(diff));
    diff &= diff - 1;
  }
  return (
    lineAttacks(RANKS, sq, occ, <u64>((sq & 56) | 1)) |
    lineAttacks(FILES, sq, files, <u64>(((sq & 7) << 3) | 1))
  );
}

/** Bishop attacks from sq given the occupancy occ (both diagonals from the rotated boards,
 *  corrected where occ differs from the position). */
// @ts-ignore: decorator
@inline export function rotatedBishopAttacks(sq: Square, occ: Bitboard): Bitboard {
  let diag = rotatedOccupancy(A1H8);
  let anti = rotatedOccupancy(A8H1);
  let diff = occ ^ rotatedOccupancy(RANKS);
  while (diff) {
    const s = <i32>ctz<u64>(diff);
    diag ^= rotatedBit(A1H8, s);
    anti ^= rotatedBit(A8H1, s);
    diff &= diff - 1;
  }
  return lineAttacks(A1H8, sq, diag, lineShift(A1H8, sq)) | lineAttacks(A8H1, sq, anti, lineShift(A8H1, sq));
}

/** Bit where the inner squares of sq's line start in the given orientation (tests). */
export function rotatedLineShift(orientation: i32, sq: Square): i32 {
  return <i32>lineShift(orientation, sq);
}

// Packs the lines of one orientation: each line, walked from the square where it enters the
// board, takes the next consecutive bits. Fills BIT_INDEX, LINE_SHIFT and the attack table.
function packOrientation(o: i32): void {
  const df = STEP_FILE[o];
  const dr = STEP_RANK[o];
  let next = 0;
  for (let start = 0; start < 64; start++) {
    const f0 = start & 7;
    const r0 = start >> 3;
    if (onBoard(f0 - df, r0 - dr)) continue; // not the first square of its line
    const first = next;
    let line: u64 = 0;
    for (let f = f0, r = r0; onBoard(f, r); f += df, r += dr) {
      store<u8>(BIT_INDEX + (<usize>o << 6) + <usize>((r << 3) | f), <u8>next);
      next++;
      line |= (<u64>1) << <u64>((r << 3) | f);
    }
    fillLine(o, line, first, next - first);
  }
}

// @ts-ignore: decorator
@inline function onBoard(f: i32, r: i32): bool {
  return f >= 0 && f < 8 && r >= 0 && r < 8;
}

// For every square of one line (`len` squares at bits first..): its shift, and its attacks
// for each of the 64 index values, built from the reference generator. Only the line's
// len - 2 inner squares come from the index; higher index bits belong to other lines and
// are ignored.
function fillLine(o: i32, line: u64, first: i32, len: i32): void {
  const inner = max(len - 2, 0);
  let squares = line;
  while (squares) {
    const sq = <i32>ctz<u64>(squares);
    squares &= squares - 1;
    store<u8>(LINE_SHIFT + (<usize>o << 6) + <usize>sq, <u8>min(first + 1, 63));
    for (let idx = 0; idx < 64; idx++) {
      const occ = innerOccupancy(o, line, first, idx & ((1 << inner) - 1));
      const att = o < A1H8 ? slowRookAttacks(sq, occ) : slowBishopAttacks(sq, occ);
      store<u64>(LINE_ATTACKS + ((((<usize>o << 12) | (<usize>sq << 6) | <usize>idx)) << 3), att & line);
    }
  }
}

// The squares of a line whose inner-index bits are set in idx: index bit i stands for the
// square at bit first + 1 + i of the orientation.
function innerOccupancy(o: i32, line: u64, first: i32, idx: i32): u64 {
  let occ: u64 = 0;
  while (line) {
    const sq = <i32>ctz<u64>(line);
    line &= line - 1;
    const i = <i32>load<u8>(BIT_INDEX + (<usize>o << 6) + <usize>sq) - first - 1;
    if (i >= 0 && i < 6 && ((idx >> i) & 1) != 0) occ |= (<u64>1) << <u64>sq;
  }
  return occ;
}

/** Builds the layout and the tables; runs at start-up in the rotated build only. */
export function initRotated(): void {
  for (let o = 0; o < ORIENTATION_NB; o++) packOrientation(o);
  setRotated(0);
}
