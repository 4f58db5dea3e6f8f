// NNUE accumulators: for the positions on the move stack, the hidden layer's input sums for
// both perspectives (white's half, then black's). They are made lazily when the evaluation
// asks: from the nearest earlier accumulator still in the ring, by adding and subtracting the
// feature columns of the pieces each move changed (position.ts records them), or from the
// board (a refresh) when none is near. Each slot is tagged with its position's key, so a slot
// is used only for the position it was made for. With king buckets, a king's move to another
// bucket (the other half of the board, or with four buckets across its second rank) changes
// all of its side's features: no update crosses it, and the position after it is refreshed.
// SIMD and scalar versions agree exactly.

import { Piece, Square, SQ_NONE, WHITE, BLACK, KING, typeOf, colorOf } from "./types";
import {
  stateCount, key, keyBefore, occupied, pieceOn, kingSquare, dirtyCountAt, dirtyPieceAt, dirtyFromAt, dirtyToAt,
} from "./position";
import {
  ACC_HALF, stride, kingBuckets, featureIndex, featureColumn, featureBiases, kingBlock, crossesKingBlock,
} from "./nnue";
import { USE_NNUE } from "./config";
import {
  ARENA, ARENA_ACCUMULATORS, ARENA_ACC_TAGS, ARENA_ACC_VALID, ARENA_ACC_COLUMNS, ACC_RING, ACC_SLOT_BYTES,
} from "./arena";

// The ring of ACC_RING accumulators is in the thread's arena, each slot with the key of the
// position it was made for and whether it is valid.
const MASK = ACC_RING - 1;
/** Moves walked back to an earlier accumulator at most; beyond, a refresh is cheaper. */
const WALK_MAX = 24;

// The feature columns one update adds and subtracts, for one perspective: four addresses
// each at ARENA_ACC_COLUMNS, the added first.
let addCount = 0;
let subCount = 0;

/** Forgets every accumulator (after a new network is loaded). */
export function invalidateAccumulators(): void {
  if (USE_NNUE) memory.fill(ARENA + ARENA_ACC_VALID, 0, ACC_RING);
}

// @ts-ignore: decorator
@inline function slotAddress(slot: i32): usize {
  return ARENA + ARENA_ACCUMULATORS + <usize>slot * ACC_SLOT_BYTES;
}

// @ts-ignore: decorator
@inline function slotValid(slot: i32): bool {
  return load<u8>(ARENA + <usize>slot, ARENA_ACC_VALID) != 0;
}

// @ts-ignore: decorator
@inline function slotTag(slot: i32): u64 {
  return load<u64>(ARENA + (<usize>slot << 3), ARENA_ACC_TAGS);
}

/** Marks a slot valid for the position with key k. */
// @ts-ignore: decorator
@inline function setSlot(slot: i32, k: u64): void {
  store<u64>(ARENA + (<usize>slot << 3), k, ARENA_ACC_TAGS);
  store<u8>(ARENA + <usize>slot, 1, ARENA_ACC_VALID);
}

// @ts-ignore: decorator
@inline function added(k: i32): usize {
  return load<usize>(ARENA + (<usize>k << 2), ARENA_ACC_COLUMNS);
}

// @ts-ignore: decorator
@inline function subtracted(k: i32): usize {
  return load<usize>(ARENA + (<usize>k << 2), ARENA_ACC_COLUMNS + 16);
}

/** The accumulator of the current position (made if needed): white's half at the address,
 *  black's half ACC_HALF values later (each: the hidden values, then the PSQT lanes). */
export function currentAccumulator(simd: bool = true): usize {
  const s = stateCount;
  const slot = s & MASK;
  if (slotValid(slot) && slotTag(slot) == key) return slotAddress(slot);
  let found = 0;
  const limit = min(s, WALK_MAX);
  for (let j = 1; j <= limit; j++) {
    if (kingBuckets > 1 && movesKingAcross(s - j + 1)) break;
    const a = (s - j) & MASK;
    if (slotValid(a) && slotTag(a) == keyBefore(j)) {
      found = j;
      break;
    }
  }
  if (found == 0) {
    refresh(slotAddress(slot), simd);
  } else {
    for (let t = s - found + 1; t <= s; t++) {
      const to = t & MASK;
      applyMove(slotAddress((t - 1) & MASK), slotAddress(to), t, simd);
      setSlot(to, t == s ? key : keyBefore(s - t));
    }
  }
  setSlot(slot, key);
  return slotAddress(slot);
}

/** The offset of view's feature block: its king's bucket (always 0 without king buckets). */
// @ts-ignore: decorator
@inline function viewBlock(view: i32): i32 {
  return kingBuckets > 1 ? kingBlock(view, kingSquare(view)) : 0;
}

/** True when the move leading to state count t took a king to another king bucket. */
function movesKingAcross(t: i32): bool {
  const n = dirtyCountAt(t);
  for (let k = 0; k < n; k++) {
    const from: Square = dirtyFromAt(t, k);
    const to: Square = dirtyToAt(t, k);
    const pc: Piece = dirtyPieceAt(t, k);
    if (typeOf(pc) == KING && from != SQ_NONE && to != SQ_NONE && crossesKingBlock(colorOf(pc), from, to)) return true;
  }
  return false;
}

/** Computes both halves at dst from the board. */
export function refresh(dst: usize, simd: bool): void {
  for (let view = WHITE; view <= BLACK; view++) {
    const out = dst + <usize>view * ACC_HALF * 2;
    memory.copy(out, featureBiases(), <usize>stride * 2);
    const block = viewBlock(view);
    let b = occupied();
    while (b) {
      const sq = <i32>ctz(b);
      b &= b - 1;
      const col = featureColumn(block + featureIndex(view, pieceOn(sq), sq));
      if (simd) addColumnSimd(out, col);
      else addColumnScalar(out, col);
    }
  }
}

// @ts-ignore: decorator
@inline function addColumnSimd(out: usize, col: usize): void {
  for (let i: usize = 0; i < <usize>stride * 2; i += 16) v128.store(out + i, i16x8.add(v128.load(out + i), v128.load(col + i)));
}

function addColumnScalar(out: usize, col: usize): void {
  for (let i: usize = 0; i < <usize>stride * 2; i += 2) store<i16>(out + i, <i16>(load<i16>(out + i) + load<i16>(col + i)));
}

/** Gathers the columns that the move leading to state count t adds and subtracts for view,
 *  whose features are in block (its king's bucket now: no update crosses a bucket). */
function gather(t: i32, view: i32, block: i32): void {
  addCount = 0;
  subCount = 0;
  const n = dirtyCountAt(t);
  for (let k = 0; k < n; k++) {
    const pc: Piece = dirtyPieceAt(t, k);
    const from: Square = dirtyFromAt(t, k);
    const to: Square = dirtyToAt(t, k);
    if (from != SQ_NONE) {
      store<usize>(ARENA + (<usize>subCount << 2), featureColumn(block + featureIndex(view, pc, from)), ARENA_ACC_COLUMNS + 16);
      subCount++;
    }
    if (to != SQ_NONE) {
      store<usize>(ARENA + (<usize>addCount << 2), featureColumn(block + featureIndex(view, pc, to)), ARENA_ACC_COLUMNS);
      addCount++;
    }
  }
}

/** dst = src updated by the move that led to state count t, both halves. */
export function applyMove(src: usize, dst: usize, t: i32, simd: bool): void {
  for (let view = WHITE; view <= BLACK; view++) {
    const half = <usize>view * ACC_HALF * 2;
    gather(t, view, viewBlock(view));
    if (simd) applySimd(src + half, dst + half);
    else applyScalar(src + half, dst + half);
  }
}

function applySimd(src: usize, dst: usize): void {
  const end = <usize>stride * 2;
  // The usual moves, unrolled: a quiet move (one in, one out) and a capture (one in, two out).
  if (addCount == 1 && subCount == 1) {
    const a = added(0);
    const s = subtracted(0);
    for (let i: usize = 0; i < end; i += 16) {
      v128.store(dst + i, i16x8.sub(i16x8.add(v128.load(src + i), v128.load(a + i)), v128.load(s + i)));
    }
    return;
  }
  if (addCount == 1 && subCount == 2) {
    const a = added(0);
    const s0 = subtracted(0);
    const s1 = subtracted(1);
    for (let i: usize = 0; i < end; i += 16) {
      const x = i16x8.sub(i16x8.add(v128.load(src + i), v128.load(a + i)), v128.load(s0 + i));
      v128.store(dst + i, i16x8.sub(x, v128.load(s1 + i)));
    }
    return;
  }
  for (let i: usize = 0; i < end; i += 16) {
    let x = v128.load(src + i);
    for (let k = 0; k < addCount; k++) x = i16x8.add(x, v128.load(added(k) + i));
    for (let k = 0; k < subCount; k++) x = i16x8.sub(x, v128.load(subtracted(k) + i));
    v128.store(dst + i, x);
  }
}

function applyScalar(src: usize, dst: usize): void {
  const end = <usize>stride * 2;
  for (let i: usize = 0; i < end; i += 2) {
    let x = <i32>load<i16>(src + i);
    for (let k = 0; k < addCount; k++) x += <i32>load<i16>(added(k) + i);
    for (let k = 0; k < subCount; k++) x -= <i32>load<i16>(subtracted(k) + i);
    store<i16>(dst + i, <i16>x);
  }
}
