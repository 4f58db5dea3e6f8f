// The split of a distributed perft: every move sequence `ply` plies deep from the current
// position, walked depth-first here and handed to the host in chunks, each leaf as its
// position's identity (perft.ts writeIdentity) and its path. The host merges the
// transpositions (bindings/perft-split.ts). The walk keeps its place between the calls: its
// moves stay made, in the search's move lists, until it has returned every leaf or
// splitEnd takes them back.
//
// A leaf's record, SPLIT_RECORD_BYTES:
//   offset  type                     field
//    0      u8[IDENTITY_BYTES]       the position's identity
//   64      u16[SPLIT_MAX_PLY]       its path: the moves from the root, as moveText numbers them
//                                    (unused entries 0)

import { Move } from "./types";
import { doMove, undoMove, stateCount } from "./position";
import { STATE_CAPACITY } from "./arena";
import { generateMoves, moveList, moveAt, GEN_ALL } from "./movegen";
import { IDENTITY_BYTES, writeIdentity } from "./perft";

/** Deepest split. */
export const SPLIT_MAX_PLY = 5;
export const SPLIT_RECORD_BYTES: usize = IDENTITY_BYTES + 16;
/** Leaves one chunk holds at most (a whole position's children always fit in one: no
 *  position has more than 218 legal moves). */
export const SPLIT_CHUNK_RECORDS = 256;

// Host I/O, not search state: only the instance the host talks to splits.
const chunk: usize = memory.data(SPLIT_CHUNK_RECORDS * <i32>SPLIT_RECORD_BYTES, 16);
// The walk: its ply, how many plies are made, and per ply the list's size and the next move.
let splitPly: i32 = 0;
let made: i32 = -1;
const walk: usize = memory.data(SPLIT_MAX_PLY * 8, 16);

// @ts-ignore: decorator
@inline function listSize(ply: i32): i32 {
  return load<i32>(walk + (<usize>ply << 3));
}
// @ts-ignore: decorator
@inline function nextMove(ply: i32): i32 {
  return load<i32>(walk + (<usize>ply << 3), 4);
}
// @ts-ignore: decorator
@inline function setList(ply: i32): void {
  store<i32>(walk + (<usize>ply << 3), generateMoves(GEN_ALL, moveList(ply)));
  store<i32>(walk + (<usize>ply << 3), 0, 4);
}
/** The move made at ply (the last one taken from its list). */
// @ts-ignore: decorator
@inline function madeMove(ply: i32): Move {
  return moveAt(moveList(ply), nextMove(ply) - 1);
}

export function splitChunk(): usize {
  return chunk;
}

/** Starts a walk of every move sequence `ply` plies deep (1 to SPLIT_MAX_PLY); false when
 *  the ply is out of range or the state stack has no room for it. A walk in progress is
 *  ended first. */
export function splitStart(ply: i32): bool {
  splitEnd();
  if (ply < 1 || ply > SPLIT_MAX_PLY || stateCount + ply > STATE_CAPACITY) return false;
  splitPly = ply;
  made = 0;
  setList(0);
  return true;
}

/** Writes the next leaves to the chunk, the children of whole positions at ply - 1 in the
 *  walk's order (moves in legalMovesUci's order); returns how many (0: the walk is over, and
 *  the position is back where it started). */
export function splitNext(): i32 {
  let written = 0;
  while (made >= 0) {
    if (made == splitPly - 1) {
      // A position at ply - 1: its children are leaves, written if they all fit.
      const n = listSize(made);
      if (written + n > SPLIT_CHUNK_RECORDS) break;
      const list = moveList(made);
      for (let i = 0; i < n; i++) {
        const m = moveAt(list, i);
        const rec = chunk + <usize>(written + i) * SPLIT_RECORD_BYTES;
        doMove(m);
        writeIdentity(rec);
        undoMove(m);
        for (let p = 0; p < SPLIT_MAX_PLY; p++) store<u16>(rec + IDENTITY_BYTES + (<usize>p << 1), p < made ? madeMove(p) : p == made ? m : 0);
      }
      written += n;
      back();
    } else {
      // An interior position: the next move down, or back up when it has none left.
      const i = nextMove(made);
      if (i < listSize(made)) {
        store<i32>(walk + (<usize>made << 3), i + 1, 4);
        doMove(moveAt(moveList(made), i));
        made++;
        setList(made);
      } else back();
    }
  }
  return written;
}

/** One ply up (the move that led here taken back); from the root: the walk is over. */
function back(): void {
  made--;
  if (made >= 0) undoMove(madeMove(made));
}

/** Ends a walk part-way: its moves are taken back. */
export function splitEnd(): void {
  while (made > 0) back();
  made = -1;
}
