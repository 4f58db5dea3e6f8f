// The transposition table itself: Zobrist-keyed buckets of four entries (one cache line
// each), depth- and age-preferring replacement, and its size, clearing and generation. It
// works on stored scores (tt.ts converts them) and on the shared header (shared.ts) for where
// the table is, so the same code runs in the engine (one thread) and in the shared module
// that threads call into (index-table.ts), over memory that several threads write at once.
//
// An entry is 16 bytes, two words written without a lock: the key XOR the data word, then
// the data word (Hyatt and Mann's lockless hashing). A reader checks key == word0 ^ word1,
// so an entry torn between two writers reads as a miss, never as another position's data.
//
//   data: 63 ..... 58 | 57 56 | 55 ..... 48 | 47 ....... 32 | 31 ....... 16 | 15 ...... 0
//         generation  | bound | depth + 16  |  static eval  |     score     |    move
//
// A word of data is never 0 (the bound is 1 to 3), so an entry whose data is 0 is empty.

import { Key } from "./types";
import {
  tableBase, tableReserved, tableBuckets, tableMb, tableGeneration, setTableRegion, setTableSize, setTableGeneration,
} from "./shared";

export const BOUND_NONE = 0;
export const BOUND_UPPER = 1; // all moves failed low: score is an upper bound
export const BOUND_LOWER = 2; // a move failed high: score is a lower bound
export const BOUND_EXACT = 3;

const ENTRY_BYTES: usize = 16;
const BUCKET_BYTES: usize = 64;
const ENTRIES_PER_BUCKET = 4;
/** Depths are stored plus this (quiescence entries have depth -1 or 0). */
export const DEPTH_OFFSET = 16;
const GENERATION_MASK = 63;

export const HASH_MIN_MB = 1;
export const HASH_MAX_MB = 2048;
export const HASH_DEFAULT_MB = 16;

/** Size of the table in MB (0 before it is first made). */
export function tableSizeMb(): i32 {
  return tableMb();
}

// The table lives in memory grown past the managed heap, so that its size is not bound by the
// allocator's 1 GiB block limit; a smaller resize reuses the region.
function reserve(bytes: usize): bool {
  const base = growRegion(tableBase(), tableReserved(), bytes);
  if (base == 0) return false;
  setTableRegion(base, grownReserved);
  return true;
}

/** The bytes reserved at the region growRegion returned. */
export let grownReserved: usize = 0;

/** Makes `bytes` available in a region of memory grown past the managed heap that has
 *  `reserved` bytes at `base` now (0: none yet): the region itself when it is large enough,
 *  extended in place when it is the last thing in memory, a new region otherwise (the old one
 *  is left unused). Returns the region's base and sets grownReserved, or returns 0 when
 *  memory cannot grow that far. The table's memory, and the Monte Carlo search's tree's. */
export function growRegion(base: usize, reserved: usize, bytes: usize): usize {
  grownReserved = reserved;
  if (base != 0 && bytes <= reserved) return base;
  const end = <usize>memory.size() << 16;
  if (base != 0 && base + reserved == end) {
    if (memory.grow(<i32>((bytes - reserved + 0xffff) >> 16)) < 0) return 0;
    grownReserved = (<usize>memory.size() << 16) - base;
    return base;
  }
  const pages = <i32>((bytes + 0xffff) >> 16);
  if (memory.grow(pages) < 0) return 0;
  grownReserved = <usize>pages << 16;
  return end;
}

/** Resizes the table to mb megabytes (clamped to HASH_MIN_MB..HASH_MAX_MB) and clears it.
 *  Returns false, keeping the old table, when memory cannot grow that far. */
export function resizeTable(mb: i32): bool {
  mb = min(max(mb, HASH_MIN_MB), HASH_MAX_MB);
  const bytes = <usize>mb << 20;
  if (!reserve(bytes)) return false;
  setTableSize(mb, <u64>(bytes / BUCKET_BYTES));
  clearTable();
  return true;
}

/** Empties every entry. */
export function clearTable(): void {
  memory.fill(tableBase(), 0, <usize>tableBuckets() * BUCKET_BYTES);
  setTableGeneration(0);
}

/** Starts a new search: entries from older searches become preferred victims. */
export function newGeneration(): void {
  setTableGeneration((tableGeneration() + 1) & GENERATION_MASK);
}

// @ts-ignore: decorator
@inline function bucketOf(key: Key): usize {
  // Fast range reduction of the low 32 key bits onto the bucket count.
  return tableBase() + <usize>((((key & 0xffffffff) * tableBuckets()) >> 32) * BUCKET_BYTES);
}

// @ts-ignore: decorator
@inline function writeEntry(e: usize, key: Key, data: u64): void {
  store<u64>(e, key ^ data);
  store<u64>(e, data, 8);
}

/** The data word of key's entry (its age refreshed, so that a hit keeps it alive), or 0. */
export function probeEntry(key: Key): u64 {
  const bucket = bucketOf(key);
  for (let i = 0; i < ENTRIES_PER_BUCKET; i++) {
    const e = bucket + <usize>i * ENTRY_BYTES;
    const data = load<u64>(e, 8);
    if ((load<u64>(e) ^ data) == key) {
      if (data == 0) return 0;
      writeEntry(e, key, (data & ~(<u64>GENERATION_MASK << 58)) | (tableGeneration() << 58));
      return data;
    }
  }
  return 0;
}

// @ts-ignore: decorator
@inline function entryWorth(data: u64, generation: u64): i32 {
  const depth = <i32>((data >> 48) & 0xff);
  const age = <i32>((generation - (data >> 58)) & GENERATION_MASK);
  return depth - 8 * age;
}

/** Stores a search result: its move (0: keep the entry's), score in stored form (mates
 *  counted from the node), static eval, depth and bound (BOUND_*). */
export function saveEntry(key: Key, move: i32, score: i32, staticEval: i32, depth: i32, bound: i32): void {
  const bucket = bucketOf(key);
  const generation = tableGeneration();
  let victim = bucket;
  let worst = i32.MAX_VALUE;
  for (let i = 0; i < ENTRIES_PER_BUCKET; i++) {
    const e = bucket + <usize>i * ENTRY_BYTES;
    const old = load<u64>(e, 8);
    if ((load<u64>(e) ^ old) == key) {
      // Keep a deeper result of the same position unless the new one is exact.
      if (bound != BOUND_EXACT && depth + DEPTH_OFFSET + 3 < <i32>((old >> 48) & 0xff) && ((old >> 58) & GENERATION_MASK) == generation) {
        if (move != 0 && (old & 0xffff) == 0) writeEntry(e, key, old | <u64>move);
        return;
      }
      if (move == 0) move = <i32>(old & 0xffff);
      victim = e;
      break;
    }
    const w = old == 0 ? -1000 : entryWorth(old, generation);
    if (w < worst) {
      worst = w;
      victim = e;
    }
  }
  const data =
    <u64>(<u16>move) |
    (<u64>(<u16>score) << 16) |
    (<u64>(<u16>staticEval) << 32) |
    (<u64>(max(0, min(255, depth + DEPTH_OFFSET))) << 48) |
    (<u64>bound << 56) |
    (generation << 58);
  writeEntry(victim, key, data);
}

/** Per-mille of sampled entries written during the current search (UCI hashfull). */
export function hashfull(): i32 {
  const samples = min(<i32>tableBuckets(), 250);
  const base = tableBase();
  const generation = tableGeneration();
  let used = 0;
  for (let b = 0; b < samples; b++) {
    for (let i = 0; i < ENTRIES_PER_BUCKET; i++) {
      const data = load<u64>(base + <usize>b * BUCKET_BYTES + <usize>i * ENTRY_BYTES, 8);
      if (data != 0 && (data >> 58) == generation) used++;
    }
  }
  return samples > 0 ? (used * 1000) / (samples * ENTRIES_PER_BUCKET) : 0;
}
