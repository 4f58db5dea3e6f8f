// The limits of the next search, as UCI `go` gives them, and the search options
// (MultiPV, searchmoves) that the host sets before it starts.

import { Move, MAX_PLY } from "./types";
import { MAX_MOVES } from "./types";

/** Deepest iteration a search runs (and the largest `go depth`). */
export const MAX_SEARCH_DEPTH = MAX_PLY - 1;
/** Range and default of the MultiPV option. */
export const MULTIPV_MAX = 256;
export const MULTIPV_DEFAULT = 1;

export let limitDepth: i32 = MAX_SEARCH_DEPTH;
export let limitNodes: u64 = 0; // 0 = none
export let limitMateMoves: i32 = 0; // 0 = none; else mate in at most this many moves
export let limitMoveTimeMs: i32 = 0;
export let clockTimeMs: i32 = -1; // time left for the side to move, -1 = no clock
export let clockIncMs: i32 = 0;
export let clockMovesToGo: i32 = 0;
export let infinite = false;
export let pondering = false;
export let multiPv: i32 = MULTIPV_DEFAULT;

// Root moves the search is restricted to (UCI searchmoves); empty = all.
const searchMoves = new StaticArray<u16>(MAX_MOVES);
export let searchMoveCount: i32 = 0;

/** Clears every limit (an infinite search until changed). */
export function resetLimits(): void {
  limitDepth = MAX_SEARCH_DEPTH;
  limitNodes = 0;
  limitMateMoves = 0;
  limitMoveTimeMs = 0;
  clockTimeMs = -1;
  clockIncMs = 0;
  clockMovesToGo = 0;
  infinite = false;
  pondering = false;
  searchMoveCount = 0;
}

export function setDepthLimit(d: i32): void {
  limitDepth = min(max(d, 1), MAX_SEARCH_DEPTH);
}

export function setNodeLimit(n: u64): void {
  limitNodes = n;
}

export function setMateLimit(moves: i32): void {
  limitMateMoves = max(moves, 0);
}

export function setMoveTimeLimit(ms: i32): void {
  limitMoveTimeMs = max(ms, 0);
}

export function setClockLimit(timeMs: i32, incMs: i32, movesToGo: i32): void {
  clockTimeMs = max(timeMs, 0);
  clockIncMs = max(incMs, 0);
  clockMovesToGo = max(movesToGo, 0);
}

export function setInfinite(on: bool): void {
  infinite = on;
}

export function setPondering(on: bool): void {
  pondering = on;
}

export function setMultiPv(n: i32): void {
  multiPv = min(max(n, 1), MULTIPV_MAX);
}

/** Adds a root move to the searchmoves restriction. */
export function addSearchMove(m: Move): void {
  if (searchMoveCount < MAX_MOVES) searchMoves[searchMoveCount++] = m;
}

/** True when m may be searched at the root. */
export function rootMoveAllowed(m: Move): bool {
  if (searchMoveCount == 0) return true;
  for (let i = 0; i < searchMoveCount; i++) if (searchMoves[i] == m) return true;
  return false;
}
