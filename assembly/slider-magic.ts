// Magic-bitboard slider attacks: one table lookup per query, tables filled at start-up
// from the reference ray generator with the fixed factors in magics.ts.

import { Bitboard, Square } from "./types";
import { ROOK_MAGICS, BISHOP_MAGICS } from "./magics";
import { slowRookAttacks, slowBishopAttacks, rookRelevantMask, bishopRelevantMask } from "./rays";

// One 32-byte record per square, rooks first then bishops:
//
//   +0 mask (u64) | +8 magic (u64) | +16 shift (u64) | +24 table pointer (usize)
//
// index = ((occ & mask) * magic) >> shift; attacks = table[index].
const ENTRY_SIZE = 32;
// @ts-ignore: decorator
@lazy const ROOK_ENTRIES: usize = memory.data(64 * ENTRY_SIZE, 16);
// @ts-ignore: decorator
@lazy const BISHOP_ENTRIES: usize = memory.data(64 * ENTRY_SIZE, 16);

/** Bytes of lookup data (attack tables plus the per-square entries), for the backend comparison. */
export let sliderTableBytes: i32 = 2 * 64 * ENTRY_SIZE;

// @ts-ignore: decorator
@inline function lookup(entry: usize, occ: Bitboard): Bitboard {
  const idx = ((occ & load<u64>(entry)) * load<u64>(entry, 8)) >> load<u64>(entry, 16);
  return load<u64>(load<usize>(entry, 24) + (<usize>idx << 3));
}

/** Rook attacks from sq given the occupancy occ. */
// @ts-ignore: decorator
@inline export function magicRookAttacks(sq: Square, occ: Bitboard): Bitboard {
  return lookup(ROOK_ENTRIES + (<usize>sq << 5), occ);
}

/** Bishop attacks from sq given the occupancy occ. */
// @ts-ignore: decorator
@inline export function magicBishopAttacks(sq: Square, occ: Bitboard): Bitboard {
  return lookup(BISHOP_ENTRIES + (<usize>sq << 5), occ);
}

function fill(entries: usize, magics: StaticArray<u64>, isRook: bool): void {
  for (let sq = 0; sq < 64; sq++) {
    const mask = isRook ? rookRelevantMask(sq) : bishopRelevantMask(sq);
    const bits = <i32>popcnt<u64>(mask);
    const size = 1 << bits;
    const table = heap.alloc(<usize>size << 3);
    sliderTableBytes += size << 3;
    const magic = magics[sq];
    const entry = entries + (<usize>sq << 5);
    store<u64>(entry, mask);
    store<u64>(entry, magic, 8);
    store<u64>(entry, <u64>(64 - bits), 16);
    store<usize>(entry, table, 24);
    // Carry-Rippler walk over every subset of the mask.
    let sub: u64 = 0;
    do {
      const att = isRook ? slowRookAttacks(sq, sub) : slowBishopAttacks(sq, sub);
      const idx = (sub * magic) >> (<u64>(64 - bits));
      store<u64>(table + (<usize>idx << 3), att);
      sub = (sub - mask) & mask;
    } while (sub != 0);
  }
}

/** Fills the tables; runs at start-up in the magic build only. */
export function initMagic(): void {
  fill(ROOK_ENTRIES, ROOK_MAGICS, true);
  fill(BISHOP_ENTRIES, BISHOP_MAGICS, false);
}
