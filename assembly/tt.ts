// The search's transposition table: a probe's fields for the node (move, score, static eval,
// depth, bound) and the stored form of scores (mates counted from the node, not the root).
// The table itself is table.ts: in this instance's memory, or, when the threads of a search
// share one (setSharedTable), in the shared module's, called through host imports.

import { Key, Move, MOVE_NONE } from "./types";
import { VALUE_NONE, VALUE_TB_WIN_IN_MAX_PLY, VALUE_TB_LOSS_IN_MAX_PLY } from "./score";
import {
  probeEntry, saveEntry, newGeneration, resizeTable as resizeOwnTable, clearTable as clearOwnTable,
  hashfull as ownHashfull, tableSizeMb, DEPTH_OFFSET, BOUND_NONE,
} from "./table";
import { sharedProbeEntry, sharedSaveEntry, sharedNewGeneration, sharedHashfull } from "./host";

export { BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT, HASH_MIN_MB, HASH_MAX_MB, HASH_DEFAULT_MB } from "./table";

/** True while this thread searches with a table shared with other threads. */
let sharedTable = false;

/** Switches between this instance's own table and the shared module's. */
export function setSharedTable(on: bool): void {
  sharedTable = on;
}

/** True while this thread counts or searches with the shared module's table. */
export function tableIsShared(): bool {
  return sharedTable;
}

// The result of the last successful probe.
export let ttMove: Move = MOVE_NONE;
export let ttScore: i32 = VALUE_NONE;
export let ttEval: i32 = VALUE_NONE;
export let ttDepth: i32 = 0;
export let ttBound: i32 = BOUND_NONE;

/** Size of this instance's own table in MB (0 before it is first made). */
export function hashSizeMb(): i32 {
  return tableSizeMb();
}

/** Resizes this instance's own table (see table.ts). */
export function resizeTable(mb: i32): bool {
  return resizeOwnTable(mb);
}

/** Empties this instance's own table. */
export function clearTable(): void {
  clearOwnTable();
}

/** Starts a new search: entries from older searches become preferred victims. */
export function newSearchGeneration(): void {
  if (sharedTable) sharedNewGeneration();
  else newGeneration();
}

/** Per-mille of the table written during the current search (UCI hashfull). */
export function hashfull(): i32 {
  return sharedTable ? sharedHashfull() : ownHashfull();
}

/** Converts a score to its stored form: mates and tablebase wins counted from this node, not
 *  the root. */
// @ts-ignore: decorator
@inline export function scoreToTT(v: i32, ply: i32): i32 {
  return v >= VALUE_TB_WIN_IN_MAX_PLY ? v + ply : v <= VALUE_TB_LOSS_IN_MAX_PLY ? v - ply : v;
}

/** Converts a stored score back to a root-relative one. */
// @ts-ignore: decorator
@inline export function scoreFromTT(v: i32, ply: i32): i32 {
  if (v == VALUE_NONE) return v;
  return v >= VALUE_TB_WIN_IN_MAX_PLY ? v - ply : v <= VALUE_TB_LOSS_IN_MAX_PLY ? v + ply : v;
}

/** Looks the key up; on a hit fills ttMove, ttScore (root-relative), ttEval, ttDepth,
 *  ttBound and returns true. */
export function probe(key: Key, ply: i32): bool {
  const data = sharedTable ? reinterpret<u64>(sharedProbeEntry(<i64>key)) : probeEntry(key);
  if (data == 0) {
    ttMove = MOVE_NONE;
    return false;
  }
  ttMove = <Move>data;
  ttScore = scoreFromTT(<i32>(<i16>(data >> 16)), ply);
  ttEval = <i32>(<i16>(data >> 32));
  ttDepth = <i32>((data >> 48) & 0xff) - DEPTH_OFFSET;
  ttBound = <i32>((data >> 56) & 3);
  return true;
}

/** Stores a search result. score is root-relative; bound is BOUND_*. */
export function save(key: Key, ply: i32, move: Move, score: i32, staticEval: i32, depth: i32, bound: i32): void {
  const stored = scoreToTT(score, ply);
  if (sharedTable) sharedSaveEntry(<i64>key, move, stored, staticEval, depth, bound);
  else saveEntry(key, move, stored, staticEval, depth, bound);
}
