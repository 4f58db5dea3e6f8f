// The perft table: leaf counts of subtrees by position and depth, for hashed perft. It lives
// in the transposition table's memory (the region shared.ts describes: the engine's own, or
// the shared module's when several threads count together), which a perft clears before and
// after, so the same code runs in the engine and in the shared module (index-table.ts).
//
// A deep perft is only worth anything if no count is ever taken from another position, so
// an entry checks 128 bits of key: the position's Zobrist key and a second, independent key
// (secondKey: the board's bitboards and state through another hash function). Two positions
// would have to collide in both for a wrong count, about 2^-128 per probe, against 2^-64 with
// the Zobrist key alone (Edwards checked 120 bits, Banerjee 128; wrong deep perfts of the
// past came from too few).
//
// An entry is 24 bytes, three words written without a lock, as the search's table is
// (table.ts); a position's entry is looked for in a window of four entries from the one its
// key indexes, and a store replaces the shallowest of them (hqperft's scheme):
//
//   word 0: key ^ data     word 1: key2 ^ data     word 2: data
//   data:   63 ..... 58 | 57 ..................... 0
//           depth       | leaf count
//
// A reader takes the entry only when both words give back both keys for data; an entry torn
// between two writers fails that check. A count of 2^58 or more (perft(12) of the start
// position is 6.3 × 10^16, under 2^56) is not stored.

import { Key } from "./types";
import { tableBase, tableBuckets } from "./shared";

const ENTRY_BYTES: usize = 24;
const WINDOW: usize = 4;
const COUNT_BITS: u64 = 58;
const COUNT_MASK: u64 = (<u64>1 << COUNT_BITS) - 1;
/** Deepest subtree the table stores (six bits of depth). */
export const PERFT_TABLE_MAX_DEPTH = 63;

// @ts-ignore: decorator
@inline function windowOf(key: Key, depth: i32): usize {
  // The same position at another depth goes elsewhere; fast range reduction of the high 32
  // bits (the search's table uses the low ones) onto the entries whose window fits (the
  // region is tableBuckets() blocks of 64 bytes).
  const h = (key ^ (<u64>depth * 0x9e3779b97f4a7c15)) >> 32;
  const entries = (tableBuckets() * 8) / 3 - (WINDOW - 1);
  return tableBase() + <usize>((h * entries) >> 32) * ENTRY_BYTES;
}

/** The leaf count stored for this position (key, key2) at this depth, or -1. */
export function probePerft(key: Key, key2: u64, depth: i32): i64 {
  const first = windowOf(key, depth);
  for (let e = first; e < first + WINDOW * ENTRY_BYTES; e += ENTRY_BYTES) {
    const data = load<u64>(e, 16);
    if ((load<u64>(e) ^ data) == key && (load<u64>(e, 8) ^ data) == key2 && <i32>(data >> COUNT_BITS) == depth) {
      return <i64>(data & COUNT_MASK);
    }
  }
  return -1;
}

/** Stores the leaf count of this position's subtree of the given depth (2 and deeper) in
 *  place of its own entry, or else of the shallowest entry of its window. */
export function storePerft(key: Key, key2: u64, depth: i32, count: u64): void {
  if (count > COUNT_MASK || depth > PERFT_TABLE_MAX_DEPTH) return;
  const first = windowOf(key, depth);
  let victim = first;
  let shallowest = i32.MAX_VALUE;
  for (let e = first; e < first + WINDOW * ENTRY_BYTES; e += ENTRY_BYTES) {
    const old = load<u64>(e, 16);
    const d = <i32>(old >> COUNT_BITS);
    if (d == depth && (load<u64>(e) ^ old) == key) {
      victim = e; // the same position's entry (written by another thread meanwhile)
      break;
    }
    if (d < shallowest) {
      shallowest = d;
      victim = e;
    }
  }
  const data = (<u64>depth << COUNT_BITS) | count;
  store<u64>(victim, key ^ data);
  store<u64>(victim, key2 ^ data, 8);
  store<u64>(victim, data, 16);
}
