// Syzygy tables, the chess side: the WDL and DTZ values of the current position, captures
// and en passant resolved by a small search over the engine's own legal moves (Fathom's
// probe_ab, probe_wdl, probe_dtz), and the value of each root move (Fathom's probe_root).
// The file format is syzygy.ts; the search's use of them is syzygy-search.ts.

import { Move, NO_PIECE, PAWN, EN_PASSANT, typeOf, fromSq, toSq, moveFlag } from "./types";
import { doMove, undoMove, pieceOn, inCheck, castlingRights, occupied, rule50, canPush } from "./position";
import { generateMoves, hasLegalMove, GEN_ALL, GEN_NOISY } from "./movegen";
import { popcount } from "./bitboard";
import { probeTable, tableStatus, tbLargest, TB_WDL, TB_DTZ } from "./syzygy";
import { ARENA, ARENA_TB_LISTS, ARENA_TB_ROOT_MOVES, ARENA_TB_ROOT_DTZ, TB_LEVELS, TB_LIST_MOVES, ROOT_MAX } from "./arena";

/** A probe's result when it could not be made (no table, a bad table, castling rights, too
 *  many pieces). */
export const TB_PROBE_FAILED = -1000000;

// Move lists, one per level of the probes' recursion (captures, then replies), in the arena.

// @ts-ignore: decorator
@inline function listAt(level: i32): usize {
  return ARENA + ARENA_TB_LISTS + <usize>(level * TB_LIST_MOVES * 2);
}
// @ts-ignore: decorator
@inline function moveIn(list: usize, i: i32): Move {
  return load<u16>(list + (<usize>i << 1));
}

/** Fathom's success: 0 failed, 1 done, 2 (probeWdl) the best move is a capture or en
 *  passant, so that the DTZ table must not be probed. */
let success = 0;

// @ts-ignore: decorator
@inline function isCapture(m: Move): bool {
  return moveFlag(m) == EN_PASSANT || pieceOn(toSq(m)) != NO_PIECE;
}

/** Legal moves of a kind into the level's list; -1 when the levels are used up. */
function generate(kind: i32, level: i32): i32 {
  if (level >= TB_LEVELS || !canPush()) return -1;
  return generateMoves(kind, listAt(level));
}

/** probe_ab: the WDL value with captures searched, alpha-beta (no en passant here). */
function probeAb(alpha: i32, beta: i32, level: i32): i32 {
  const n = generate(GEN_NOISY, level);
  if (n < 0) {
    success = 0;
    return 0;
  }
  const list = listAt(level);
  for (let i = 0; i < n; i++) {
    const m = moveIn(list, i);
    if (!isCapture(m)) continue;
    doMove(m);
    const v = -probeAb(-beta, -alpha, level + 1);
    undoMove(m);
    if (success == 0) return 0;
    if (v > alpha) {
      if (v >= beta) return v;
      alpha = v;
    }
  }
  const v = probeTable(TB_WDL, 0);
  if (tableStatus != 1) {
    success = 0;
    return 0;
  }
  return alpha >= v ? alpha : v;
}

/** probe_wdl: the WDL value of the position (-2 loss, -1 blessed loss, 0 draw, 1 cursed
 *  win, 2 win), success set. */
function wdlAt(level: i32): i32 {
  success = 1;
  const n = generate(GEN_NOISY, level);
  if (n < 0) {
    success = 0;
    return 0;
  }
  const list = listAt(level);
  let bestCap = -3;
  let bestEp = -3;
  for (let i = 0; i < n; i++) {
    const m = moveIn(list, i);
    if (!isCapture(m)) continue;
    doMove(m);
    const v = -probeAb(-2, -bestCap, level + 1);
    undoMove(m);
    if (success == 0) return 0;
    if (v > bestCap) {
      if (v == 2) {
        success = 2;
        return 2;
      }
      if (moveFlag(m) != EN_PASSANT) bestCap = v;
      else if (v > bestEp) bestEp = v;
    }
  }
  const v = probeTable(TB_WDL, 0);
  if (tableStatus != 1) {
    success = 0;
    return 0;
  }
  if (bestEp > bestCap) {
    if (bestEp > v) {
      success = 2;
      return bestEp;
    }
    bestCap = bestEp;
  }
  if (bestCap >= v) {
    success = 1 + (bestCap > 0 ? 1 : 0);
    return bestCap;
  }
  // The stalemate case: without the en passant capture, no legal move.
  if (bestEp > -3 && v == 0) {
    const all = generate(GEN_ALL, level);
    if (all < 0) {
      success = 0;
      return 0;
    }
    let other = false;
    for (let i = 0; i < all; i++) {
      if (moveFlag(moveIn(list, i)) != EN_PASSANT) {
        other = true;
        break;
      }
    }
    if (!other && !inCheck()) {
      success = 2;
      return bestEp;
    }
  }
  return v;
}

const WDL_TO_DTZ: StaticArray<i32> = [-1, -101, 0, 101, 1];

/** True when the side to move is mated. */
function isMate(): bool {
  return inCheck() && !hasLegalMove();
}

/** probe_dtz: the DTZ value of the position (see probeDtz), success set. */
function dtzAt(level: i32): i32 {
  const wdl = wdlAt(level);
  if (success == 0) return 0;
  if (wdl == 0) return 0;
  if (success == 2) return WDL_TO_DTZ[wdl + 2];
  const list = listAt(level);
  const n = generate(GEN_ALL, level);
  if (n < 0) {
    success = 0;
    return 0;
  }
  // Winning: a winning pawn move (not a capture) makes DTZ 1.
  if (wdl > 0) {
    for (let i = 0; i < n; i++) {
      const m = moveIn(list, i);
      if (typeOf(pieceOn(fromSq(m))) != PAWN || isCapture(m)) continue;
      doMove(m);
      const v = -wdlAt(level + 1);
      undoMove(m);
      if (success == 0) return 0;
      if (v == wdl) return WDL_TO_DTZ[wdl + 2];
    }
  }
  const dtz = probeTable(TB_DTZ, wdl);
  if (tableStatus == 1) {
    success = 1;
    return WDL_TO_DTZ[wdl + 2] + (wdl > 0 ? dtz : -dtz);
  }
  if (tableStatus == 0) {
    success = 0;
    return 0;
  }
  // The table holds the other side to move: one ply of search.
  let best = wdl > 0 ? i32.MAX_VALUE : WDL_TO_DTZ[wdl + 2];
  for (let i = 0; i < n; i++) {
    const m = moveIn(list, i);
    if (isCapture(m) || typeOf(pieceOn(fromSq(m))) == PAWN) continue;
    doMove(m);
    const v = -dtzAt(level + 1);
    const mate = v == 1 && isMate();
    undoMove(m);
    if (success == 0) return 0;
    if (mate) best = 1;
    else if (wdl > 0) {
      if (v > 0 && v + 1 < best) best = v + 1;
    } else if (v - 1 < best) best = v - 1;
  }
  success = 1;
  return best;
}

/** True when the current position can be probed: no castling rights, few enough pieces. */
function probeable(): bool {
  return castlingRights == 0 && popcount(occupied()) <= tbLargest;
}

/** WDL value of the current position from the side to move: -2 loss, -1 loss saved by the
 *  50-move rule, 0 draw, 1 win spoilt by the 50-move rule, 2 win; TB_PROBE_FAILED when no
 *  table answers. The halfmove clock is not looked at. */
export function probeWdl(): i32 {
  if (!probeable()) return TB_PROBE_FAILED;
  const v = wdlAt(0);
  return success == 0 ? TB_PROBE_FAILED : v;
}

/** DTZ of the current position from the side to move, Fathom's convention: 0 draw; n > 0
 *  win with a zeroing move in n plies (n > 100: spoilt by the 50-move rule), n < 0 loss; a
 *  value may be one ply more than the truth (see Fathom's probe_dtz); -1 when mated;
 *  TB_PROBE_FAILED when no table answers. */
export function probeDtz(): i32 {
  if (!probeable()) return TB_PROBE_FAILED;
  const v = dtzAt(0);
  return success == 0 ? TB_PROBE_FAILED : v;
}

// ---------------------------------------------------------------- root moves

// The root moves of the last probeRoot and their DTZ, in the arena.
let rootCount = 0;

// @ts-ignore: decorator
@inline function rootMoveIn(i: i32): Move {
  return load<u16>(ARENA + (<usize>i << 1), ARENA_TB_ROOT_MOVES);
}
// @ts-ignore: decorator
@inline function rootDtzOf(i: i32): i32 {
  return load<i32>(ARENA + (<usize>i << 2), ARENA_TB_ROOT_DTZ);
}

/** Probes every legal move of the current position as Fathom's probe_root does: each
 *  move's DTZ counted from the current position (1 for a mate), 0 draws; returns the
 *  number of moves, or -1 when a probe failed. The values are read with rootMoveAt,
 *  rootMoveDtz and rootMoveWdl. */
export function probeRoot(): i32 {
  rootCount = 0;
  if (!probeable()) return -1;
  const dtz = dtzAt(0);
  if (success == 0) return -1;
  return probeMoves(true, dtz, true);
}

/** Without DTZ tables: probes every legal move's WDL value as Fathom's root_probe_wdl does and
 *  keeps, for each, the DTZ a move of that value would have (1 or 101 a win, -1 or -101 a loss,
 *  0 a draw), so that rootMoveWdl and rootMoveRank read them as they read probeRoot's. With
 *  rule50 false a cursed win counts as a win and a blessed loss as a loss. The number of moves,
 *  or -1 when a probe failed. */
export function probeRootWdl(rule50Rule: bool): i32 {
  rootCount = 0;
  if (!probeable()) return -1;
  return probeMoves(false, 0, rule50Rule);
}

/** Every legal move's value from the current position, kept in the arena: its DTZ (dtz: the
 *  position's), or with WDL tables only the DTZ its WDL value stands for. */
function probeMoves(dtzTables: bool, dtz: i32, rule50Rule: bool): i32 {
  const n = generate(GEN_ALL, 0);
  if (n < 0) return -1;
  const list = listAt(0);
  for (let i = 0; i < n; i++) {
    const m = moveIn(list, i);
    doMove(m);
    const v = dtzTables ? moveDtz(dtz) : moveWdlAsDtz(rule50Rule);
    undoMove(m);
    if (success == 0 || i >= ROOT_MAX) return -1;
    store<u16>(ARENA + (<usize>i << 1), m, ARENA_TB_ROOT_MOVES);
    store<i32>(ARENA + (<usize>i << 2), v, ARENA_TB_ROOT_DTZ);
  }
  rootCount = n;
  return n;
}

/** After a root move: its DTZ counted from the root (root_probe_dtz), success set. */
function moveDtz(rootDtz: i32): i32 {
  if (rootDtz > 0 && isMate()) return 1;
  if (rule50 != 0) {
    const v = -dtzAt(1);
    return v > 0 ? v + 1 : v < 0 ? v - 1 : 0;
  }
  const v = -wdlAt(1);
  return success != 0 ? WDL_TO_DTZ[v + 2] : 0;
}

/** After a root move: the DTZ its WDL value stands for (root_probe_wdl), success set. */
function moveWdlAsDtz(rule50Rule: bool): i32 {
  let v = -wdlAt(1);
  if (success == 0) return 0;
  if (!rule50Rule) v = v > 0 ? 2 : v < 0 ? -2 : 0;
  return WDL_TO_DTZ[v + 2];
}

/** The i-th root move of the last probeRoot. */
export function rootMoveAt(i: i32): Move {
  return i >= 0 && i < rootCount ? rootMoveIn(i) : 0;
}
/** Its DTZ from the current position (signed as probeDtz, 1 for a mate). */
export function rootMoveDtz(i: i32): i32 {
  return i >= 0 && i < rootCount ? rootDtzOf(i) : TB_PROBE_FAILED;
}
/** Its WDL value given the halfmove clock now (Fathom's dtz_to_wdl), -2..2. */
export function rootMoveWdl(i: i32, halfmoves: i32): i32 {
  if (i < 0 || i >= rootCount) return TB_PROBE_FAILED;
  const d = rootDtzOf(i);
  if (d > 0) return d + halfmoves <= 100 ? 2 : 1;
  if (d < 0) return -d + halfmoves <= 100 ? -2 : -1;
  return 0;
}
/** The rank of a sure win (Stockfish's MAX_DTZ): larger than any DTZ plus halfmove clock. */
export const TB_MAX_DTZ = 1 << 18;

/** Its rank for the root move list, as Stockfish's root_probe ranks: TB_MAX_DTZ a win kept
 *  within the 50-move rule (all such wins equal unless the position has repeated, so that
 *  the search picks among them), TB_MAX_DTZ - (dtz + clock) a win that may not be (below
 *  TB_MAX_DTZ / 2 - 100: spoilt), 0 a draw, -TB_MAX_DTZ a loss, above it a loss the 50-move
 *  rule may save. hasRepeated: a position has occurred twice since the last zeroing move. */
export function rootMoveRank(i: i32, halfmoves: i32, hasRepeated: bool): i32 {
  if (i < 0 || i >= rootCount) return TB_PROBE_FAILED;
  const v = rootDtzOf(i);
  if (v > 0) return v + halfmoves <= 99 && !hasRepeated ? TB_MAX_DTZ : TB_MAX_DTZ - (v + halfmoves);
  if (v < 0) return -v * 2 + halfmoves < 100 ? -TB_MAX_DTZ : -TB_MAX_DTZ + (-v + halfmoves);
  return 0;
}
