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
// A 64-byte bucket holds two 32-byte entries: the first keeps the deeper subtree, the second
// takes every other store (the two-tier scheme of Thompson's and Ken's tables). An entry is
// written without a lock, as the search's table is (table.ts):
//
//   word 0: key ^ data     word 1: key2 ^ data     word 2: data     word 3: unused
//   data:   63 ..... 58 | 57 ..................... 0
//           depth       | leaf count
//
// A reader takes the entry only when both words give back both keys for data; an entry torn
// between two writers fails that check. A count of 2^58 or more (perft(12) of the start
// position is 6.3 × 10^16, under 2^56) is not stored.

import { Key } from "./types";
import { tableBase, tableBuckets } from "./shared";

const BUCKET_BYTES: usize = 64;
const ENTRY_BYTES: usize = 32;
const COUNT_BITS: u64 = 58;
const COUNT_MASK: u64 = (<u64>1 << COUNT_BITS) - 1;
/** Deepest subtree the table stores (six bits of depth). */
export const PERFT_TABLE_MAX_DEPTH = 63;

// @ts-ignore: decorator
@inline function bucketOf(key: Key, depth: i32): usize {
  // The same position at another depth goes to another bucket; fast range reduction of the
  // high 32 bits (the search's table uses the low ones).
  const h = (key ^ (<u64>depth * 0x9e3779b97f4a7c15)) >> 32;
  return tableBase() + <usize>(((h * tableBuckets()) >> 32) * BUCKET_BYTES);
}

/** The leaf count stored for this position (key, key2) at this depth, or -1. */
export function probePerft(key: Key, key2: u64, depth: i32): i64 {
  const bucket = bucketOf(key, depth);
  for (let e = bucket; e < bucket + BUCKET_BYTES; e += ENTRY_BYTES) {
    const data = load<u64>(e, 16);
    if ((load<u64>(e) ^ data) == key && (load<u64>(e, 8) ^ data) == key2 && <i32>(data >> COUNT_BITS) == depth) {
      return <i64>(data & COUNT_MASK);
    }
  }
  return -1;
}

/** Stores the leaf count of this position's subtree of the given depth (2 and deeper). */
export function storePerft(key: Key, key2: u64, depth: i32, count: u64): void {
  if (count > COUNT_MASK || depth > PERFT_TABLE_MAX_DEPTH) return;
  const bucket = bucketOf(key, depth);
  // The first entry keeps the deepest subtree seen here; a shallower one goes to the second.
  const kept = load<u64>(bucket, 16);
  const e = <i32>(kept >> COUNT_BITS) <= depth ? bucket : bucket + ENTRY_BYTES;
  const data = (<u64>depth << COUNT_BITS) | count;
  store<u64>(e, key ^ data);
  store<u64>(e, key2 ^ data, 8);
  store<u64>(e, data, 16);
}
