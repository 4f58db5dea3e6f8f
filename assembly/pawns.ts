// Pawn structure, cached: doubled, isolated, backward and connected pawns, and the passed
// pawns of each side, depend only on the pawns, so a small table keyed by both pawn
// bitboards keeps them between evaluations.

import { Color, WHITE, BLACK, PAWN, fileOf, rankOf, relativeRank } from "./types";
import { lsb, squareBB, pawnAttacksBB } from "./bitboard";
import { piecesOf } from "./position";
import { DOUBLED_PAWN, ISOLATED_PAWN, BACKWARD_PAWN, CONNECTED_PAWN } from "./params";
import { trace, tracing, setTracing, TRACE } from "./trace";
import { W_DOUBLED_PAWN, W_ISOLATED_PAWN, W_BACKWARD_PAWN, W_CONNECTED_PAWN } from "./weights";
import { ARENA, ARENA_PAWN_TABLE, PAWN_ENTRY_BYTES, PAWN_ENTRY_COUNT } from "./arena";

// The table is in the thread's arena: PAWN_ENTRY_COUNT entries of 64 bytes (white pawns,
// black pawns, structure score white, black (packed, each from its own side's view), passed
// pawns white, black).
const ENTRY_BYTES = PAWN_ENTRY_BYTES;
const ENTRY_COUNT = PAWN_ENTRY_COUNT;

// Masks by colour and square: squares ahead on the same file, ahead on this and the
// adjacent files, and the adjacent files.
export const FORWARD_FILE = new StaticArray<u64>(128);
export const PASSED_MASK = new StaticArray<u64>(128);
export const ATTACK_SPAN = new StaticArray<u64>(128);
export const ADJACENT_FILES = new StaticArray<u64>(8);

// @ts-ignore: decorator
@inline function idx(c: Color, sq: i32): i32 {
  return (c << 6) | sq;
}

/** The cached entry for the current pawns (filled on a miss). */
export function pawnEntry(): usize {
  const wp = piecesOf(WHITE, PAWN);
  const bp = piecesOf(BLACK, PAWN);
  const h = (wp * 0x9e3779b97f4a7c15) ^ (bp * 0xc2b2ae3d27d4eb4f);
  const e = ARENA + ARENA_PAWN_TABLE + <usize>((h >> 51) & (ENTRY_COUNT - 1)) * ENTRY_BYTES;
  if (load<u64>(e) != wp || load<u64>(e, 8) != bp) fill(e, wp, bp);
  return e;
}

/** Structure score of colour c (its own view) in an entry. */
// @ts-ignore: decorator
@inline export function structureScore(e: usize, c: Color): i32 {
  return load<i32>(e + 16 + (<usize>c << 2));
}

/** Passed pawns of colour c in an entry. */
// @ts-ignore: decorator
@inline export function passedPawns(e: usize, c: Color): u64 {
  return load<u64>(e + 24 + (<usize>c << 3));
}

function fill(e: usize, wp: u64, bp: u64): void {
  // The tuner's trace counts the structure afresh (traceStructure), not here.
  const traced = TRACE && tracing;
  if (TRACE) setTracing(false);
  store<u64>(e, wp);
  store<u64>(e, bp, 8);
  for (let c = WHITE; c <= BLACK; c++) {
    const ours = c == WHITE ? wp : bp;
    const theirs = c == WHITE ? bp : wp;
    store<i32>(e + 16 + (<usize>c << 2), evaluateSide(c, ours, theirs));
    store<u64>(e + 24 + (<usize>c << 3), passedOf(c, ours, theirs));
  }
  if (TRACE) setTracing(traced);
}

function passedOf(us: Color, ours: u64, theirs: u64): u64 {
  let passed: u64 = 0;
  let b = ours;
  while (b) {
    const sq = lsb(b);
    b &= b - 1;
    if ((theirs & unchecked(PASSED_MASK[idx(us, sq)])) == 0 && (ours & unchecked(FORWARD_FILE[idx(us, sq)])) == 0) {
      passed |= squareBB(sq);
    }
  }
  return passed;
}

function evaluateSide(us: Color, ours: u64, theirs: u64): i32 {
  const theirAttacks = pawnAttacksBB(us ^ 1, theirs);
  let s = 0;
  let b = ours;
  while (b) {
    const sq = lsb(b);
    b &= b - 1;
    const neighbours = ours & unchecked(ADJACENT_FILES[fileOf(sq)]);
    const stop = us == WHITE ? sq + 8 : sq - 8;
    if (ours & unchecked(FORWARD_FILE[idx(us, sq)])) {
      s += DOUBLED_PAWN;
      trace(W_DOUBLED_PAWN, us);
    }
    if (neighbours == 0) {
      s += ISOLATED_PAWN;
      trace(W_ISOLATED_PAWN, us);
    } else if ((neighbours & ~unchecked(PASSED_MASK[idx(us, sq)])) == 0 && (theirAttacks & squareBB(stop)) != 0) {
      // Every neighbour is ahead, so none can support it, and its stop square is attacked.
      s += BACKWARD_PAWN;
      trace(W_BACKWARD_PAWN, us);
    }
    const phalanx = neighbours & ((<u64>0xff) << (<u64>(rankOf(sq) << 3)));
    const supported = neighbours & pawnAttacksBB(us ^ 1, squareBB(sq));
    if (phalanx | supported) {
      s += unchecked(CONNECTED_PAWN[relativeRank(us, sq)]);
      trace(W_CONNECTED_PAWN + relativeRank(us, sq), us);
    }
  }
  return s;
}

/** Structure score of colour c computed afresh, bypassing the cache, for the tuner's trace. */
export function traceStructure(c: Color): i32 {
  const wp = piecesOf(WHITE, PAWN);
  const bp = piecesOf(BLACK, PAWN);
  return c == WHITE ? evaluateSide(WHITE, wp, bp) : evaluateSide(BLACK, bp, wp);
}

/** Forgets every entry (after the weights change). */
export function clearPawnTable(): void {
  memory.fill(ARENA + ARENA_PAWN_TABLE, 0, ENTRY_BYTES * ENTRY_COUNT);
}

function initMasks(): void {
  for (let f = 0; f < 8; f++) {
    let adj: u64 = 0;
    if (f > 0) adj |= (<u64>0x0101010101010101) << (<u64>(f - 1));
    if (f < 7) adj |= (<u64>0x0101010101010101) << (<u64>(f + 1));
    ADJACENT_FILES[f] = adj;
  }
  for (let c = WHITE; c <= BLACK; c++) {
    for (let sq = 0; sq < 64; sq++) {
      let forward: u64 = 0;
      for (let r = rankOf(sq) + (c == WHITE ? 1 : -1); r >= 0 && r < 8; r += c == WHITE ? 1 : -1) {
        forward |= (<u64>0xff) << (<u64>(r << 3));
      }
      const file = (<u64>0x0101010101010101) << (<u64>fileOf(sq));
      const adj = ADJACENT_FILES[fileOf(sq)];
      FORWARD_FILE[idx(c, sq)] = forward & file;
      ATTACK_SPAN[idx(c, sq)] = forward & adj;
      PASSED_MASK[idx(c, sq)] = forward & (file | adj);
    }
  }
}

initMasks();
