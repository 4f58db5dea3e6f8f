// Transposition table: Zobrist-keyed buckets of four packed entries (one cache line each),
// depth- and age-preferring replacement, mate scores stored relative to the node.

import { Key, Move, MOVE_NONE } from "./types";
import { VALUE_NONE, VALUE_MATE_IN_MAX_PLY, VALUE_MATED_IN_MAX_PLY } from "./score";
import {
  tableBase, tableReserved, tableBuckets, tableMb, tableGeneration, setTableRegion, setTableSize, setTableGeneration,
} from "./shared";

// An entry is 16 bytes: the full key, then one data word:
//
//   63 ..... 58 | 57 56 | 55 ..... 48 | 47 ....... 32 | 31 ....... 16 | 15 ...... 0
//   generation  | bound | depth + 16  |  static eval  |     score     |    move
//
// A bucket is four entries: 64 bytes, one cache line.
export const BOUND_NONE = 0;
export const BOUND_UPPER = 1; // all moves failed low: score is an upper bound
export const BOUND_LOWER = 2; // a move failed high: score is a lower bound
export const BOUND_EXACT = 3;

const ENTRY_BYTES: usize = 16;
const BUCKET_BYTES: usize = 64;
const ENTRIES_PER_BUCKET = 4;
const DEPTH_OFFSET = 16;
const GENERATION_MASK = 63;

export const HASH_MIN_MB = 1;
export const HASH_MAX_MB = 2048;
export const HASH_DEFAULT_MB = 16;

// The table lives in memory grown past the managed heap, so that its size is not bound
// by the allocator's 1 GiB block limit; a smaller resize reuses the region. Where it is, its
// size and its generation are in the shared header (shared.ts), which all threads read.

// The result of the last successful probe.
export let ttMove: Move = MOVE_NONE;
export let ttScore: i32 = VALUE_NONE;
export let ttEval: i32 = VALUE_NONE;
export let ttDepth: i32 = 0;
export let ttBound: i32 = BOUND_NONE;

/** Size of the table in MB. */
export function hashSizeMb(): i32 {
  return tableMb();
}

function reserve(bytes: usize): bool {
  const base = tableBase();
  const reserved = tableReserved();
  if (bytes <= reserved) return true;
  const end = <usize>memory.size() << 16;
  if (base != 0 && base + reserved == end) {
    // The region is the last thing in memory: extend it in place.
    const pages = <i32>((bytes - reserved + 0xffff) >> 16);
    if (memory.grow(pages) < 0) return false;
    setTableRegion(base, (<usize>memory.size() << 16) - base);
    return true;
  }
  const pages = <i32>((bytes + 0xffff) >> 16);
  if (memory.grow(pages) < 0) return false;
  setTableRegion(end, <usize>pages << 16);
  return true;
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
export function newSearchGeneration(): void {
  setTableGeneration((tableGeneration() + 1) & GENERATION_MASK);
}

// @ts-ignore: decorator
@inline function bucketOf(key: Key): usize {
  // Fast range reduction of the low 32 key bits onto the bucket count.
  return tableBase() + <usize>((((key & 0xffffffff) * tableBuckets()) >> 32) * BUCKET_BYTES);
}

/** Converts a score to its stored form: mates counted from this node, not the root. */
// @ts-ignore: decorator
@inline export function scoreToTT(v: i32, ply: i32): i32 {
  return v >= VALUE_MATE_IN_MAX_PLY ? v + ply : v <= VALUE_MATED_IN_MAX_PLY ? v - ply : v;
}

/** Converts a stored score back to a root-relative one. */
// @ts-ignore: decorator
@inline export function scoreFromTT(v: i32, ply: i32): i32 {
  if (v == VALUE_NONE) return v;
  return v >= VALUE_MATE_IN_MAX_PLY ? v - ply : v <= VALUE_MATED_IN_MAX_PLY ? v + ply : v;
}

/** Looks the key up; on a hit fills ttMove, ttScore (root-relative), ttEval, ttDepth,
 *  ttBound and returns true. */
export function probe(key: Key, ply: i32): bool {
  const bucket = bucketOf(key);
  for (let i = 0; i < ENTRIES_PER_BUCKET; i++) {
    const e = bucket + <usize>i * ENTRY_BYTES;
    if (load<u64>(e) == key) {
      const data = load<u64>(e, 8);
      if (data == 0) return false;
      ttMove = <Move>data;
      ttScore = scoreFromTT(<i32>(<i16>(data >> 16)), ply);
      ttEval = <i32>(<i16>(data >> 32));
      ttDepth = <i32>((data >> 48) & 0xff) - DEPTH_OFFSET;
      ttBound = <i32>((data >> 56) & 3);
      // Refresh the age so that a hit keeps the entry alive.
      store<u64>(e, (data & ~(<u64>GENERATION_MASK << 58)) | (tableGeneration() << 58), 8);
      return true;
    }
  }
  ttMove = MOVE_NONE;
  return false;
}

// @ts-ignore: decorator
@inline function entryWorth(data: u64): i32 {
  const depth = <i32>((data >> 48) & 0xff);
  const age = <i32>((tableGeneration() - (data >> 58)) & GENERATION_MASK);
  return depth - 8 * age;
}

/** Stores a search result. score is root-relative; bound is BOUND_*. */
export function save(key: Key, ply: i32, move: Move, score: i32, staticEval: i32, depth: i32, bound: i32): void {
  const bucket = bucketOf(key);
  const generation = tableGeneration();
  let victim = bucket;
  let worst = i32.MAX_VALUE;
  for (let i = 0; i < ENTRIES_PER_BUCKET; i++) {
    const e = bucket + <usize>i * ENTRY_BYTES;
    const k = load<u64>(e);
    if (k == key) {
      const old = load<u64>(e, 8);
      // Keep a deeper result of the same position unless the new one is exact.
      if (bound != BOUND_EXACT && depth + DEPTH_OFFSET + 3 < <i32>((old >> 48) & 0xff) && ((old >> 58) & GENERATION_MASK) == generation) {
        if (move != MOVE_NONE && <Move>old == MOVE_NONE) store<u64>(e, old | <u64>move, 8);
        return;
      }
      if (move == MOVE_NONE) move = <Move>old;
      victim = e;
      break;
    }
    const w = k == 0 ? -1000 : entryWorth(load<u64>(e, 8));
    if (w < worst) {
      worst = w;
      victim = e;
    }
  }
  const data =
    <u64>move |
    (<u64>(<u16>scoreToTT(score, ply)) << 16) |
    (<u64>(<u16>staticEval) << 32) |
    (<u64>(max(0, min(255, depth + DEPTH_OFFSET))) << 48) |
    (<u64>bound << 56) |
    (generation << 58);
  store<u64>(victim, key);
  store<u64>(victim, data, 8);
}

/** Per-mille of sampled entries written during the current search (UCI hashfull). */
export function hashfull(): i32 {
  const samples = min(<i32>tableBuckets(), 250);
  const base = tableBase();
  const generation = tableGeneration();
  let used = 0;
  for (let b = 0; b < samples; b++) {
    for (let i = 0; i < ENTRIES_PER_BUCKET; i++) {
      const e = base + <usize>b * BUCKET_BYTES + <usize>i * ENTRY_BYTES;
      const data = load<u64>(e, 8);
      if (data != 0 && (data >> 58) == generation) used++;
    }
  }
  return samples > 0 ? (used * 1000) / (samples * ENTRIES_PER_BUCKET) : 0;
}
