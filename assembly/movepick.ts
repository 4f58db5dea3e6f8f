// Move ordering: scores a node's legal moves (TT move, good captures by victim and capture
// history checked by SEE, killers, counter-move, quiets by history, then bad captures and
// under-promotions; MVV-LVA in the quiescence search) and hands them out best first by
// selection; drops at once the quiet moves a node will prune.

import {
  Move, MAX_MOVES, PROMOTION, EN_PASSANT, CASTLING, QUEEN, PAWN,
  toSq, fromSq, moveFlag, promotionType, typeOf,
} from "./types";
import { pieceOn, sideToMove } from "./position";
import { generateMoves, moveList, moveAt, GEN_ALL, GEN_NOISY } from "./movegen";
import { seeGe } from "./see";
import { killer1, killer2, counterMove, historyScore, quietScore, captureScore } from "./history";
import { USE_NNUE } from "./config";
import { givesCheck } from "./check";
import { ARENA, ARENA_MOVE_SCORES } from "./arena";

export const SCORE_TT = 1 << 30;
const SCORE_GOOD_CAPTURE = 1 << 28;
const SCORE_KILLER1 = (1 << 27) + 2;
const SCORE_KILLER2 = (1 << 27) + 1;
const SCORE_COUNTER = 1 << 27;
const SCORE_BAD_CAPTURE = -(1 << 28);
const SCORE_UNDERPROMOTION = -(1 << 29);
/** Scores at or above this are captures still to be checked by SEE when picked. */
const UNCHECKED_FLOOR = SCORE_GOOD_CAPTURE - (1 << 20);

// @ts-ignore: decorator
@inline function scoreSlot(ply: i32, i: i32): usize {
  return ARENA + ARENA_MOVE_SCORES + <usize>(ply * MAX_MOVES + i) * 4;
}

/** True for captures (including en passant; not a Chess960 castling whose king lands on
 *  its own rook's square). */
// @ts-ignore: decorator
@inline export function isCaptureMove(m: Move): bool {
  return (pieceOn(toSq(m)) != 0 && moveFlag(m) != CASTLING) || moveFlag(m) == EN_PASSANT;
}

/** Captures and queen promotions: the moves that change material now. */
// @ts-ignore: decorator
@inline export function isTactical(m: Move): bool {
  return isCaptureMove(m) || (moveFlag(m) == PROMOTION && promotionType(m) == QUEEN);
}

/** Most valuable victim, least valuable attacker. */
// @ts-ignore: decorator
@inline function mvvLva(m: Move): i32 {
  return capturedType(m) * 64 - typeOf(pieceOn(fromSq(m))) + (moveFlag(m) == PROMOTION ? 512 : 0);
}

/** The type of the piece a move captures (a pawn for en passant), 0 for none. */
// @ts-ignore: decorator
@inline export function capturedType(m: Move): i32 {
  return moveFlag(m) == EN_PASSANT ? PAWN : typeOf(pieceOn(toSq(m)));
}

/** Ordering score of a capture or promotion: the victim first, then the capture history
 *  (which replaces the least-valuable-attacker rule within a victim). */
// @ts-ignore: decorator
@inline function captureOrder(m: Move): i32 {
  return capturedType(m) * 8192 + (moveFlag(m) == PROMOTION ? 4096 : 0) + captureScore(pieceTo(m), capturedType(m)) / 4;
}

/** Piece and destination of a move (for the continuation history), before it is made. */
// @ts-ignore: decorator
@inline export function pieceTo(m: Move): i32 {
  return (pieceOn(fromSq(m)) << 6) | toSq(m);
}

/** Generates and scores the moves of a main-search node at ply; returns their number.
 *  row1 and row2 are the continuation-history rows of the moves one and two plies back. */
export function scoreMainMoves(ply: i32, ttMove: Move, prevMove: Move, row1: i32, row2: i32): i32 {
  const list = moveList(ply);
  const n = generateMoves(GEN_ALL, list);
  const us = sideToMove;
  const k1 = killer1(ply);
  const k2 = killer2(ply);
  const counter = counterMove(prevMove);
  for (let i = 0; i < n; i++) {
    const m = moveAt(list, i);
    let s: i32;
    if (m == ttMove) s = SCORE_TT;
    else if (moveFlag(m) == PROMOTION && promotionType(m) != QUEEN) s = SCORE_UNDERPROMOTION + mvvLva(m);
    else if (isTactical(m)) s = SCORE_GOOD_CAPTURE + captureOrder(m);
    else if (m == k1) s = SCORE_KILLER1;
    else if (m == k2) s = SCORE_KILLER2;
    else if (m == counter) s = SCORE_COUNTER;
    else s = quietScore(us, m, pieceTo(m), row1, row2);
    store<i32>(scoreSlot(ply, i), s);
  }
  return n;
}

/** Generates and scores the moves of a quiescence node (all evasions when in check). */
export function scoreQuiescenceMoves(ply: i32, ttMove: Move, inCheck: bool): i32 {
  const list = moveList(ply);
  const n = generateMoves(inCheck ? GEN_ALL : GEN_NOISY, list);
  const us = sideToMove;
  for (let i = 0; i < n; i++) {
    const m = moveAt(list, i);
    let s = m == ttMove ? SCORE_TT : isTactical(m) ? (1 << 20) + mvvLva(m) : historyScore(us, m);
    store<i32>(scoreSlot(ply, i), s);
  }
  return n;
}

/** The index of the highest score from index i to n (exclusive), the first of equals. */
function bestIndex(ply: i32, i: i32, n: i32): i32 {
  let best = i;
  let bestScore = load<i32>(scoreSlot(ply, i));
  for (let j = i + 1; j < n; j++) {
    const s = load<i32>(scoreSlot(ply, j));
    if (s > bestScore) {
      bestScore = s;
      best = j;
    }
  }
  return best;
}

/** bestIndex with SIMD (the network build, which requires it): the maximum four lanes at a
 *  time, then the first lane that holds it. */
function bestIndexSimd(ply: i32, i: i32, n: i32): i32 {
  const base = scoreSlot(ply, 0);
  let top = i32x4.splat(i32.MIN_VALUE);
  let j = i;
  for (; j + 4 <= n; j += 4) top = i32x4.max_s(top, v128.load(base + (<usize>j << 2)));
  let bestScore = max(max(i32x4.extract_lane(top, 0), i32x4.extract_lane(top, 1)), max(i32x4.extract_lane(top, 2), i32x4.extract_lane(top, 3)));
  for (; j < n; j++) bestScore = max(bestScore, load<i32>(base + (<usize>j << 2)));
  const wanted = i32x4.splat(bestScore);
  j = i;
  for (; j + 4 <= n; j += 4) {
    const hits = i32x4.bitmask(i32x4.eq(v128.load(base + (<usize>j << 2)), wanted));
    if (hits != 0) return j + <i32>ctz(hits);
  }
  while (load<i32>(base + (<usize>j << 2)) != bestScore) j++;
  return j;
}

/** Moves the best remaining move (from index i on) to index i and returns it. Captures
 *  that lose material by SEE are demoted behind the quiet moves when first picked
 *  (main search only: checkSee). */
export function pickMove(ply: i32, i: i32, n: i32, checkSee: bool): Move {
  const list = moveList(ply);
  while (true) {
    const best = USE_NNUE ? bestIndexSimd(ply, i, n) : bestIndex(ply, i, n);
    const bestScore = load<i32>(scoreSlot(ply, best));
    const m = moveAt(list, best);
    if (checkSee && bestScore >= UNCHECKED_FLOOR && bestScore < SCORE_TT && !seeGe(m, 0)) {
      store<i32>(scoreSlot(ply, best), SCORE_BAD_CAPTURE + captureOrder(m));
      continue;
    }
    // Swap into place.
    if (best != i) {
      store<u16>(list + (<usize>best << 1), load<u16>(list + (<usize>i << 1)));
      store<u16>(list + (<usize>i << 1), m);
      store<i32>(scoreSlot(ply, best), load<i32>(scoreSlot(ply, i)));
      store<i32>(scoreSlot(ply, i), bestScore);
    }
    return m;
  }
}

/** The score pickMove gave the move it last placed at index i. */
// @ts-ignore: decorator
@inline export function pickedScore(ply: i32, i: i32): i32 {
  return load<i32>(scoreSlot(ply, i));
}

/** True when a picked score marks a killer or counter-move. */
// @ts-ignore: decorator
@inline export function isRefutationScore(s: i32): bool {
  return s >= SCORE_COUNTER && s <= SCORE_KILLER1;
}

/** Drops the quiet moves that do not give check from the moves not yet picked (index from
 *  to n), keeping the others in order; returns the new number of moves. For a node that
 *  prunes every such move from here on (late move pruning, futility), so that they are
 *  neither picked nor tested one by one. */
export function dropQuietMoves(ply: i32, from: i32, n: i32): i32 {
  const list = moveList(ply);
  let kept = from;
  for (let j = from; j < n; j++) {
    const m = moveAt(list, j);
    if (!isTactical(m) && !givesCheck(m)) continue;
    store<u16>(list + (<usize>kept << 1), m);
    store<i32>(scoreSlot(ply, kept), load<i32>(scoreSlot(ply, j)));
    kept++;
  }
  return kept;
}
