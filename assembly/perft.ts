// Perft: counts the leaf nodes of the legal move tree, with bulk counting at the last ply
// (the child positions of the ply before it are made on the bitboards only), and divide,
// the count below each root move. Hashed perft looks every subtree of depth 2 and more up
// in the perft table (perft-table.ts) first, and stores what it counts there.

import { Move, MAX_PLY, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, WHITE } from "./types";
import { ARENA, ARENA_DIVIDE_MOVES, ARENA_DIVIDE_COUNTS } from "./arena";
import {
  doMove, undoMove, doMoveBitboards, undoMoveBitboards, key, pieces, colorBB, sideToMove, castlingRights, epSquare, castlingRookSquare,
} from "./position";
import { generateMoves, countLegalMoves, moveList, moveAt, GEN_ALL } from "./movegen";
import { probePerft, storePerft } from "./perft-table";
import { sharedProbePerft, sharedStorePerft } from "./host";
import { tableIsShared } from "./tt";
import { laneKey } from "./zobrist";

/** Deepest perft accepted (one move list per ply). */
export const PERFT_MAX_DEPTH = MAX_PLY - 1;

/** Leaves two plies down: most makes happen here, and their children are only counted: no
 *  key, mailbox or history (startpos depth 6: 15% less time; Kiwipete depth 5: 11%). */
function perft2(ply: i32): u64 {
  const list = moveList(ply);
  const n = generateMoves(GEN_ALL, list);
  let total: u64 = 0;
  for (let i = 0; i < n; i++) {
    const m = moveAt(list, i);
    const saved = doMoveBitboards(m);
    total += <u64>countLegalMoves();
    undoMoveBitboards(m, saved);
  }
  return total;
}

function perftAt(depth: i32, ply: i32): u64 {
  if (depth == 1) return <u64>countLegalMoves();
  if (depth == 2) return perft2(ply);
  const list = moveList(ply);
  const n = generateMoves(GEN_ALL, list);
  let total: u64 = 0;
  for (let i = 0; i < n; i++) {
    const m = moveAt(list, i);
    doMove(m);
    total += perftAt(depth - 1, ply + 1);
    undoMove(m);
  }
  return total;
}

/** The side to move, castling rights, en-passant square and castling rooks' squares in one word. */
// @ts-ignore: decorator
@inline function positionState(): u64 {
  const rooks = <u64>(castlingRookSquare(0) & 127) | (<u64>(castlingRookSquare(1) & 127) << 7) |
    (<u64>(castlingRookSquare(2) & 127) << 14) | (<u64>(castlingRookSquare(3) & 127) << 21);
  return <u64>sideToMove | (<u64>castlingRights << 1) | (<u64>epSquare << 5) | (rooks << 12);
}

// @ts-ignore: decorator
@inline function fmix(h: u64): u64 {
  // MurmurHash3's 64-bit finaliser: a bijection in which every input bit affects every output bit.
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccd;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53;
  return h ^ (h >> 33);
}

/** A second key of the position, independent of the Zobrist key: its bitboards, side to move,
 *  castling rights (with the castling rooks' squares, which Chess960 positions differ in) and
 *  en-passant square, each word XOR a random lane key of its own (zobrist.ts) through fmix,
 *  the results XORed
 *  (independent lanes: startpos perft(8) spent 4.4 s on one chain of fmix, 0.7 s on these;
 *  docs/perft.md). The perft table checks both keys, so its entries hold for any root: a
 *  table need not be cleared between perfts. */
export function secondKey(): u64 {
  const state = positionState();
  return fmix(pieces(PAWN) ^ laneKey(0)) ^ fmix(pieces(KNIGHT) ^ laneKey(1)) ^
    fmix(pieces(BISHOP) ^ laneKey(2)) ^ fmix(pieces(ROOK) ^ laneKey(3)) ^
    fmix(pieces(QUEEN) ^ laneKey(4)) ^ fmix(pieces(KING) ^ laneKey(5)) ^
    fmix(colorBB(WHITE) ^ laneKey(6)) ^ fmix(state ^ laneKey(7));
}

/** Bytes of a position's identity (writeIdentity). */
export const IDENTITY_BYTES: usize = 64;

/** Writes the current position's identity to buf: its bitboards by piece type (pawns to kings)
 *  and white's, then the side to move, castling rights, en-passant square and castling rooks'
 *  squares in one word: everything a perft below it depends on, and nothing else (no move
 *  counters). Two positions are the same for perft exactly when their identities are equal
 *  (a distributed perft merges the transpositions of its split by it). */
export function writeIdentity(buf: usize): void {
  for (let t = PAWN; t <= KING; t++) store<u64>(buf + (<usize>(t - PAWN) << 3), pieces(t));
  store<u64>(buf, colorBB(WHITE), 48);
  store<u64>(buf, positionState(), 56);
}

function perftHashedAt(depth: i32, ply: i32): u64 {
  if (depth == 1) return <u64>countLegalMoves();
  const k = key;
  const k2 = secondKey();
  const shared = tableIsShared();
  const hit = shared ? sharedProbePerft(<i64>k, <i64>k2, depth) : probePerft(k, k2, depth);
  if (hit >= 0) return <u64>hit;
  let total: u64 = 0;
  if (depth == 2) total = perft2(ply);
  else {
    const list = moveList(ply);
    const n = generateMoves(GEN_ALL, list);
    for (let i = 0; i < n; i++) {
      const m = moveAt(list, i);
      doMove(m);
      total += perftHashedAt(depth - 1, ply + 1);
      undoMove(m);
    }
  }
  if (shared) sharedStorePerft(<i64>k, <i64>k2, depth, <i64>total);
  else storePerft(k, k2, depth, total);
  return total;
}

/** Counts below the current position at ply: through the perft table when hashed. */
// @ts-ignore: decorator
@inline function countBelow(depth: i32, ply: i32, hashed: bool): u64 {
  return hashed ? perftHashedAt(depth, ply) : perftAt(depth, ply);
}

/** Leaf nodes of the legal move tree to the given depth from the current position; hashed:
 *  through the perft table (the transposition table's memory, which the host sizes and clears:
 *  see perft-table.ts). */
export function perft(depth: i32, hashed: bool = false): u64 {
  return depth <= 0 ? 1 : countBelow(depth, 0, hashed);
}

// Results of the last divide, in the thread's arena: the root moves and the count below each.
export let divideSize: i32 = 0;

/** Runs perft below each root move; returns the total. Read results with divideMove/divideCount. */
export function divide(depth: i32, hashed: bool = false): u64 {
  const list = moveList(0);
  const n = generateMoves(GEN_ALL, list);
  let total: u64 = 0;
  for (let i = 0; i < n; i++) {
    const m = moveAt(list, i);
    doMove(m);
    const c = depth <= 1 ? 1 : countBelow(depth - 1, 1, hashed);
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
