// Perft: counts the leaf nodes of the legal move tree, with bulk counting at the last ply
// (the child positions of the ply before it are made on the bitboards only), and divide,
// the count below each root move.

import { Move, MAX_PLY } from "./types";
import { ARENA, ARENA_DIVIDE_MOVES, ARENA_DIVIDE_COUNTS } from "./arena";
import { doMove, undoMove, doMoveBitboards, undoMoveBitboards } from "./position";
import { generateMoves, countLegalMoves, moveList, moveAt, GEN_ALL } from "./movegen";

/** Deepest perft accepted (one move list per ply). */
export const PERFT_MAX_DEPTH = MAX_PLY - 1;

function perftAt(depth: i32, ply: i32): u64 {
  if (depth == 1) return <u64>countLegalMoves();
  const list = moveList(ply);
  const n = generateMoves(GEN_ALL, list);
  let total: u64 = 0;
  if (depth == 2) {
    // Most makes happen here, and their children are only counted: no key, mailbox or
    // history (startpos depth 6: 15% less time; Kiwipete depth 5: 11%).
    for (let i = 0; i < n; i++) {
      const m = moveAt(list, i);
      const saved = doMoveBitboards(m);
      total += <u64>countLegalMoves();
      undoMoveBitboards(m, saved);
    }
    return total;
  }
  for (let i = 0; i < n; i++) {
    const m = moveAt(list, i);
    doMove(m);
    total += perftAt(depth - 1, ply + 1);
    undoMove(m);
  }
  return total;
}

/** Leaf nodes of the legal move tree to the given depth from the current position. */
export function perft(depth: i32): u64 {
  return depth <= 0 ? 1 : perftAt(depth, 0);
}

// Results of the last divide, in the thread's arena: the root moves and the count below each.
export let divideSize: i32 = 0;

/** Runs perft below each root move; returns the total. Read results with divideMove/divideCount. */
export function divide(depth: i32): u64 {
  const list = moveList(0);
  const n = generateMoves(GEN_ALL, list);
  let total: u64 = 0;
  for (let i = 0; i < n; i++) {
    const m = moveAt(list, i);
    doMove(m);
    const c = depth <= 1 ? 1 : perftAt(depth - 1, 1);
    undoMove(m);
    store<u16>(ARENA + (<usize>i << 1), m, ARENA_DIVIDE_MOVES);
    store<u64>(ARENA + (<usize>i << 3), c, ARENA_DIVIDE_COUNTS);
    total += c;
  }
  divideSize = n;
  return total;
}

/** Root move i of the last divide. */
export function divideMove(i: i32): Move {
  return load<u16>(ARENA + (<usize>i << 1), ARENA_DIVIDE_MOVES);
}

/** Count below root move i of the last divide. */
export function divideCount(i: i32): u64 {
  return load<u64>(ARENA + (<usize>i << 3), ARENA_DIVIDE_COUNTS);
}
