// The node search: a principal-variation negamax search with its quiescence search, the
// selectivity (null move, late move reductions, futility and reverse futility, late move
// pruning, SEE pruning, singular extensions) with their safeguards, and the search of one
// root move for the root driver (think.ts), which owns the root moves, the iterations and
// the reports. A thread's per-ply stack (PV table, static evals, in-check cache, excluded
// moves, double extensions, best moves) is in its arena (arena.ts).

import {
  Color, Move, MOVE_NONE, MOVE_NULL, MAX_PLY, PAWN, KING, PROMOTION, moveFlag, toSq, typeOf,
} from "./types";
import {
  doMove, undoMove, doNullMove, undoNullMove, inCheck, key, sideToMove, rule50,
  isRepetition, insufficientMaterial, colorBB, piecesOf, lastMove, pieceOn,
} from "./position";
import { moveList, moveAt } from "./movegen";
import { evaluate, keepEvalState } from "./eval";
import { seeGe, SEE_VALUE } from "./see";
import {
  VALUE_INFINITE, VALUE_NONE, VALUE_DRAW, VALUE_MATE_IN_MAX_PLY, VALUE_MATED_IN_MAX_PLY, VALUE_KNOWN_WIN, VALUE_TB_WIN, mateIn, matedIn,
} from "./score";
import { probe, save, ttMove, ttScore, ttEval, ttDepth, ttBound, BOUND_NONE, BOUND_EXACT, BOUND_LOWER, BOUND_UPPER } from "./tt";
import {
  scoreMainMoves, scoreQuiescenceMoves, pickMove, pickedScore, isRefutationScore, isTactical, isCaptureMove, pieceTo, capturedType,
  dropQuietMoves,
} from "./movepick";
import {
  storeKiller, clearKillers, storeCounterMove, updateQuietHistories, historyBonus, quietScore, setPlyMove, continuationRow, updateCaptureHistory,
} from "./history";
import { correctedEval, updateCorrection } from "./correction";
import { givesCheck } from "./check";
import { countNode, stopped } from "./control";
import { cardinality as tbCardinality, probeInterior, rule50Option } from "./syzygy-search";
import { TB_PROBE_FAILED } from "./syzygy-probe";
import {
  featureOn as on, FEATURE_NULL_MOVE, FEATURE_LMR, FEATURE_REVERSE_FUTILITY, FEATURE_FUTILITY, FEATURE_LMP,
  FEATURE_SEE_PRUNING, FEATURE_CHECK_EXTENSION, FEATURE_IIR, FEATURE_SINGULAR, FEATURE_CORRECTION, FEATURE_CUT_NODE,
  FEATURE_HISTORY_PRUNING, FEATURE_DOUBLE_EXTENSION, FEATURE_PIECE_CORRECTION,
  param, setParam, PARAM_RFP_MARGIN, PARAM_NULL_MOVE_DIVISOR, PARAM_LMP_BASE,
  PARAM_HISTORY_PRUNE_MARGIN, PARAM_FUTILITY_BASE, PARAM_FUTILITY_PER_DEPTH, PARAM_SEE_QUIET_MARGIN,
  PARAM_SEE_CAPTURE_MARGIN, PARAM_LMR_BASE, PARAM_LMR_DIVISOR, PARAM_LMR_HISTORY_DIVISOR,
  PARAM_DOUBLE_EXTENSION_MARGIN, PARAM_DELTA_MARGIN,
} from "./search-params";
import {
  ARENA, ARENA_PV_TABLE, ARENA_PV_LENGTH, ARENA_EVAL_STACK, ARENA_CHECK_KEYS, ARENA_CHECK_FLAGS, ARENA_EXCLUDED,
  ARENA_DOUBLE_EXTENSIONS, ARENA_NODE_BEST,
} from "./arena";

// ---------------------------------------------------------------- state
/** The deepest ply reached in the current iteration (UCI seldepth). */
export let selDepth: i32 = 0;
let nullMoveAllowed = true;

// Late move reduction table by depth and move number.
const LMR_TABLE = new StaticArray<u8>(64 * 64);

/** Starts the node search of a new iteration line (think.ts): seldepth from zero. */
export function resetSelDepth(): void {
  selDepth = 0;
}

// The per-ply stack, in the arena: the principal variation from each ply ([ply][i], its length
// per ply), the static eval, the move left out by a singular-extension search (MOVE_NONE:
// none), the double extensions on the line to the ply, and the best move searchMoves() found
// (MOVE_NONE when no move beat alpha, MOVE_NULL when the position has no legal move).

/** Move i of the principal variation found from ply. */
// @ts-ignore: decorator
@inline export function pvMoveAt(ply: i32, i: i32): Move {
  return load<u16>(ARENA + (<usize>(ply * MAX_PLY + i) << 1), ARENA_PV_TABLE);
}
// @ts-ignore: decorator
@inline function setPvMove(ply: i32, i: i32, m: Move): void {
  store<u16>(ARENA + (<usize>(ply * MAX_PLY + i) << 1), m, ARENA_PV_TABLE);
}
/** End (exclusive) of the principal variation found from ply. */
// @ts-ignore: decorator
@inline export function pvLengthAt(ply: i32): i32 {
  return load<i32>(ARENA + (<usize>ply << 2), ARENA_PV_LENGTH);
}
// @ts-ignore: decorator
@inline function setPvLength(ply: i32, n: i32): void {
  store<i32>(ARENA + (<usize>ply << 2), n, ARENA_PV_LENGTH);
}
// @ts-ignore: decorator
@inline function evalAt(ply: i32): i32 {
  return load<i32>(ARENA + (<usize>ply << 2), ARENA_EVAL_STACK);
}
// @ts-ignore: decorator
@inline function setEvalAt(ply: i32, v: i32): void {
  store<i32>(ARENA + (<usize>ply << 2), v, ARENA_EVAL_STACK);
}
// @ts-ignore: decorator
@inline function excludedAt(ply: i32): Move {
  return load<u16>(ARENA + (<usize>ply << 1), ARENA_EXCLUDED);
}
// @ts-ignore: decorator
@inline function setExcluded(ply: i32, m: Move): void {
  store<u16>(ARENA + (<usize>ply << 1), m, ARENA_EXCLUDED);
}
// @ts-ignore: decorator
@inline function doubleExtensionsAt(ply: i32): i32 {
  return load<i32>(ARENA + (<usize>ply << 2), ARENA_DOUBLE_EXTENSIONS);
}
// @ts-ignore: decorator
@inline function setDoubleExtensions(ply: i32, n: i32): void {
  store<i32>(ARENA + (<usize>ply << 2), n, ARENA_DOUBLE_EXTENSIONS);
}
// @ts-ignore: decorator
@inline function nodeBestAt(ply: i32): Move {
  return load<u16>(ARENA + (<usize>ply << 1), ARENA_NODE_BEST);
}
// @ts-ignore: decorator
@inline function setNodeBest(ply: i32, m: Move): void {
  store<u16>(ARENA + (<usize>ply << 1), m, ARENA_NODE_BEST);
}

// ---------------------------------------------------------------- draws

/** Draw by the 50-move rule, insufficient material, or repetition: a repetition inside the
 *  search tree counts at once, one that reaches back before the root needs two (threefold). */
function isDraw(ply: i32): bool {
  return rule50 >= 100 || insufficientMaterial() || isRepetition(2, ply);
}

// ---------------------------------------------------------------- helpers

/** Side to move has pieces other than pawns and king (null move is risky without them). */
function hasNonPawnMaterial(): bool {
  const us = sideToMove;
  return (colorBB(us) & ~piecesOf(us, PAWN) & ~piecesOf(us, KING)) != 0;
}

function updatePv(ply: i32, m: Move): void {
  setPvMove(ply, ply, m);
  const childLen = pvLengthAt(ply + 1);
  for (let i = ply + 1; i < childLen; i++) setPvMove(ply, i, pvMoveAt(ply + 1, i));
  setPvLength(ply, max(childLen, ply + 1));
}

// @ts-ignore: decorator
@inline function reduction(depth: i32, moveCount: i32): i32 {
  return <i32>unchecked(LMR_TABLE[(min(depth, 63) << 6) | min(moveCount, 63)]);
}

/** Reverse futility: far above beta near the leaves, assume the node holds. */
// @ts-ignore: decorator
@inline function reverseFutilityPrune(depth: i32, staticEval: i32, beta: i32, improving: bool): bool {
  return on(FEATURE_REVERSE_FUTILITY) && depth <= 6 && staticEval < VALUE_KNOWN_WIN &&
    staticEval - param(PARAM_RFP_MARGIN) * (depth - (improving ? 1 : 0)) >= beta;
}

/** Null move pruning with a zugzwang guard: not without pieces, verified at high depth.
 *  Returns a fail-high score, or VALUE_NONE when the null move does not prune. */
function tryNullMove(depth: i32, ply: i32, beta: i32, staticEval: i32): i32 {
  if (!on(FEATURE_NULL_MOVE) || !nullMoveAllowed || depth < 3 || staticEval < beta || lastMove() == MOVE_NULL ||
    beta <= VALUE_MATED_IN_MAX_PLY || !hasNonPawnMaterial()) {
    return VALUE_NONE;
  }
  const r = 3 + depth / 4 + min((staticEval - beta) / param(PARAM_NULL_MOVE_DIVISOR), 3);
  setPlyMove(ply, -1);
  setDoubleExtensions(ply + 1, doubleExtensionsAt(ply));
  doNullMove();
  setPvLength(ply + 1, ply + 1);
  let score = -search(-beta, -beta + 1, depth - r, ply + 1, false, false);
  undoNullMove();
  if (stopped || score < beta) return VALUE_NONE;
  if (score >= VALUE_MATE_IN_MAX_PLY) score = beta;
  if (depth < 12) return score;
  // Zugzwang verification: the same depth without null moves must hold as well.
  nullMoveAllowed = false;
  const v = search(beta - 1, beta, depth - r, ply, false, true);
  nullMoveAllowed = true;
  return v >= beta ? score : VALUE_NONE;
}

/** Late move pruning: quiet moves this late in the list are skipped near the leaves. */
// @ts-ignore: decorator
@inline function lateMovePrune(depth: i32, quietCount: i32, improving: bool): bool {
  const limit = param(PARAM_LMP_BASE) + depth * depth;
  return on(FEATURE_LMP) && depth <= 7 && quietCount >= (improving ? limit : limit / 2);
}

/** History pruning: near the leaves, a quiet move whose histories say it keeps failing. */
// @ts-ignore: decorator
@inline function historyPrune(depth: i32, orderScore: i32): bool {
  return on(FEATURE_HISTORY_PRUNING) && depth <= 4 && orderScore < -param(PARAM_HISTORY_PRUNE_MARGIN) * depth;
}

/** Futility: a quiet move cannot lift a static eval this far below alpha. */
// @ts-ignore: decorator
@inline function futilityPrune(depth: i32, staticEval: i32, alpha: i32): bool {
  return on(FEATURE_FUTILITY) && depth <= 6 && staticEval + param(PARAM_FUTILITY_BASE) + param(PARAM_FUTILITY_PER_DEPTH) * depth <= alpha;
}

// ---------------------------------------------------------------- main search

/** inCheck() of the position at ply, asked of the board once per position. */
// @ts-ignore: decorator
@inline function checkedAt(ply: i32): bool {
  if (load<u64>(ARENA + (<usize>ply << 3), ARENA_CHECK_KEYS) == key) return load<u8>(ARENA + <usize>ply, ARENA_CHECK_FLAGS) != 0;
  const c = inCheck();
  store<u64>(ARENA + (<usize>ply << 3), key, ARENA_CHECK_KEYS);
  store<u8>(ARENA + <usize>ply, c ? 1 : 0, ARENA_CHECK_FLAGS);
  return c;
}

/** Negamax principal-variation search; pv marks nodes searched with an open window, cutNode
 *  the null-window nodes expected to fail high (the first child of an expected all-node and
 *  the later children of any node). */
function search(alpha: i32, beta: i32, depth: i32, ply: i32, pv: bool, cutNode: bool): i32 {
  setPvLength(ply, ply);
  if (stopped) return 0;
  const checked = checkedAt(ply);
  if (checked && on(FEATURE_CHECK_EXTENSION) && ply < MAX_PLY / 2) depth++;
  if (depth <= 0) return quiescence(alpha, beta, ply, pv);
  countNode();
  if (stopped) return 0;
  if (ply > selDepth) selDepth = ply;
  if (isDraw(ply)) return VALUE_DRAW;
  if (ply >= MAX_PLY - 2) return checked ? VALUE_DRAW : evaluate();

  // Mate distance pruning: no line from here beats a mate already found nearer the root.
  alpha = max(alpha, matedIn(ply));
  beta = min(beta, mateIn(ply + 1));
  if (alpha >= beta) return alpha;
  keepEvalState();

  // A singular-extension search of this position leaves one move out: its table entry, which
  // includes that move, neither cuts it off nor is overwritten by it.
  const excluded: Move = excludedAt(ply);
  const posKey = key;
  const hit = probe(posKey, ply);
  const hashMove = hit ? ttMove : MOVE_NONE;
  const hashScore = hit ? ttScore : VALUE_NONE;
  const hashDepth = hit ? ttDepth : -1;
  const hashBound = hit ? ttBound : BOUND_NONE;
  if (hit && !pv && excluded == MOVE_NONE && ttCutoff(hashScore, depth, alpha, beta)) return hashScore;

  // Tablebases (Stockfish's step 5): a position reached by a capture or pawn move with few
  // enough pieces is looked up. A draw, or a win or loss on the far side of the window, ends
  // the node; at a PV node a win is a floor for the search's score and a loss a ceiling.
  let tbFloor = -VALUE_INFINITE;
  let tbCeiling = VALUE_INFINITE;
  if (tbCardinality != 0 && excluded == MOVE_NONE) {
    const wdl = probeInterior(depth);
    if (wdl != TB_PROBE_FAILED) {
      const drawScore = rule50Option ? 1 : 0;
      const value = wdl < -drawScore ? -VALUE_TB_WIN + ply : wdl > drawScore ? VALUE_TB_WIN - ply : VALUE_DRAW + 2 * wdl * drawScore;
      const bound = wdl < -drawScore ? BOUND_UPPER : wdl > drawScore ? BOUND_LOWER : BOUND_EXACT;
      if (bound == BOUND_EXACT || (bound == BOUND_LOWER ? value >= beta : value <= alpha)) {
        save(posKey, ply, MOVE_NONE, value, VALUE_NONE, min(MAX_PLY - 1, depth + 6), bound);
        return value;
      }
      if (pv) {
        if (bound == BOUND_LOWER) {
          tbFloor = value;
          alpha = max(alpha, value);
        } else {
          tbCeiling = value;
        }
      }
    }
  }

  let rawEval = VALUE_NONE;
  let staticEval = VALUE_NONE;
  let improving = false;
  if (!checked) {
    rawEval = hit && ttEval != VALUE_NONE ? ttEval : evaluate();
    staticEval = on(FEATURE_CORRECTION) ? correctedEval(sideToMove, rawEval, on(FEATURE_PIECE_CORRECTION)) : rawEval;
    const prev = ply >= 2 ? evalAt(ply - 2) : VALUE_NONE;
    improving = prev == VALUE_NONE || staticEval > prev;
  }
  setEvalAt(ply, staticEval);
  // The stored score is a better guess than the static eval when its bound allows.
  const eval_ = hit && !checked ? refinedEval(staticEval, hashScore) : staticEval;

  if (!pv && !checked && excluded == MOVE_NONE) {
    const pruned = pruneNode(depth, ply, beta, eval_, improving);
    if (pruned != VALUE_NONE) return pruned;
  }
  // Internal iterative reduction: without a hash move this node is probably not critical.
  if (on(FEATURE_IIR) && depth >= 4 && hashMove == MOVE_NONE) depth--;

  // Singular extension: when every move but the hash move fails well below the hash score,
  // the hash move is forced and is searched a ply deeper; when even without it the node
  // fails high, two moves beat beta and the node is cut (multi-cut).
  let hashExtension = 0;
  if (on(FEATURE_SINGULAR) && depth >= SINGULAR_DEPTH && excluded == MOVE_NONE && hashMove != MOVE_NONE &&
    (hashBound & BOUND_LOWER) != 0 && hashDepth >= depth - 3 && abs(hashScore) < VALUE_KNOWN_WIN) {
    const singularBeta = hashScore - 2 * depth;
    setExcluded(ply, hashMove);
    const score = search(singularBeta - 1, singularBeta, (depth - 1) / 2, ply, false, cutNode);
    setExcluded(ply, MOVE_NONE);
    if (stopped) return 0;
    if (score < singularBeta) hashExtension = doubleExtends(pv, score, singularBeta, ply) ? 2 : 1;
    else if (singularBeta >= beta) return singularBeta;
    else if (hashScore >= beta) hashExtension = -1;
  }

  let best = searchMoves(alpha, beta, depth, ply, pv, cutNode, checked, improving, hashMove, hashExtension, excluded, eval_);
  if (stopped) return 0;
  if (pv) best = min(max(best, tbFloor), tbCeiling);
  const bestMove = nodeBestAt(ply);
  if (excluded == MOVE_NONE && bestMove != MOVE_NULL) storeNode(posKey, ply, bestMove, best, alpha, beta, depth, rawEval, staticEval, checked);
  return best;
}

/** What a searched node leaves behind: its table entry (bound from the window it was searched
 *  with), and a lesson for the correction history when the result says more than the static
 *  eval (not in check, a quiet best move or none, a bound on the right side of the static eval). */
function storeNode(
  posKey: u64, ply: i32, bestMove: Move, best: i32, alpha: i32, beta: i32, depth: i32, rawEval: i32, staticEval: i32, checked: bool,
): void {
  const bound = best >= beta ? BOUND_LOWER : best > alpha ? BOUND_EXACT : BOUND_UPPER;
  save(posKey, ply, bestMove, best, rawEval, depth, bound);
  if (on(FEATURE_CORRECTION) && !checked && (bestMove == MOVE_NONE || !isTactical(bestMove)) &&
    !(bound == BOUND_LOWER && best <= staticEval) && !(bound == BOUND_UPPER && best >= staticEval) &&
    abs(best) < VALUE_KNOWN_WIN) {
    updateCorrection(sideToMove, staticEval, best, depth, on(FEATURE_PIECE_CORRECTION));
  }
}

/** Depth from which the hash move is tested for a singular extension. */
const SINGULAR_DEPTH = 8;
/** A singular move whose alternatives all fail the double extension margin (search-params.ts)
 *  below the singular bound is extended by two plies, at most this many times on a line. */
const DOUBLE_EXTENSIONS_MAX = 6;

/** A singular hash move is extended twice (not at PV nodes, where the window is open). */
// @ts-ignore: decorator
@inline function doubleExtends(pv: bool, score: i32, singularBeta: i32, ply: i32): bool {
  return on(FEATURE_DOUBLE_EXTENSION) && !pv && score < singularBeta - param(PARAM_DOUBLE_EXTENSION_MARGIN) &&
    doubleExtensionsAt(ply) < DOUBLE_EXTENSIONS_MAX;
}

/** TT cutoff: the entry just probed is deep enough and its bound decides the window
 *  (alpha, beta). Reads the probe's ttDepth and ttBound. */
// @ts-ignore: decorator
@inline function ttCutoff(hashScore: i32, depth: i32, alpha: i32, beta: i32): bool {
  return ttDepth >= depth && hashScore != VALUE_NONE &&
    (ttBound == BOUND_EXACT || (ttBound == BOUND_LOWER ? hashScore >= beta : hashScore <= alpha));
}

/** The static eval, or the hash score of the entry just probed when its bound says the
 *  true value lies on the hash score's side of the static eval. */
// @ts-ignore: decorator
@inline function refinedEval(staticEval: i32, hashScore: i32): i32 {
  return hashScore != VALUE_NONE &&
    (ttBound == BOUND_EXACT || (ttBound == BOUND_LOWER ? hashScore > staticEval : hashScore < staticEval))
    ? hashScore : staticEval;
}

/** Pruning before any move is searched, at non-PV nodes out of check: reverse futility and
 *  the null move. Returns the node's score, or VALUE_NONE when nothing prunes. */
function pruneNode(depth: i32, ply: i32, beta: i32, eval_: i32, improving: bool): i32 {
  if (reverseFutilityPrune(depth, eval_, beta, improving)) return eval_;
  return tryNullMove(depth, ply, beta, eval_);
}

/** The move loop of search(): tries the moves in order (all but the excluded one) with move
 *  pruning, reductions and re-searches, and rewards the move that fails high. Returns the
 *  node's score and leaves its best move for nodeBestAt(ply). */
function searchMoves(
  alpha: i32, beta: i32, depth: i32, ply: i32, pv: bool, cutNode: bool, checked: bool, improving: bool,
  hashMove: Move, hashExtension: i32, excluded: Move, eval_: i32,
): i32 {
  clearKillers(ply + 1);
  const prevMove = lastMove();
  const row1 = continuationRow(ply - 1);
  const row2 = continuationRow(ply - 2);
  let n = scoreMainMoves(ply, hashMove, prevMove, row1, row2);
  if (n == 0) {
    setNodeBest(ply, MOVE_NULL);
    return checked ? matedIn(ply) : VALUE_DRAW;
  }

  let best = -VALUE_INFINITE;
  let bestM: Move = MOVE_NONE;
  let moveCount = 0;
  let quietCount = 0;
  let quietsDropped = false;
  const list = moveList(ply);
  const us = sideToMove;
  for (let i = 0; i < n; i++) {
    const m = pickMove(ply, i, n, true);
    if (m == excluded) continue;
    const orderScore = pickedScore(ply, i);
    const quiet = !isTactical(m);
    const movePieceTo = pieceTo(m);
    moveCount++;
    if (quiet) quietCount++;

    // Pruning of moves that cannot matter, never before a line avoids being mated. Quiet
    // moves that give check are never pruned by the quiet rules: they may carry a mating
    // attack (asked of the board before the move is made, which the rules usually spare).
    const prunable = !pv && !checked && best > VALUE_MATED_IN_MAX_PLY;
    if (prunable && quiet) {
      if (lateMovePrune(depth, quietCount, improving) || futilityPrune(depth, eval_, alpha)) {
        // Both stay true for the rest of the node: the quiet moves after this one that do not
        // give check are dropped once, so those that stay are checks and need no second test.
        if (!quietsDropped) {
          n = dropQuietMoves(ply, i + 1, n);
          quietsDropped = true;
          if (!givesCheck(m)) continue;
        }
      } else if (historyPrune(depth, orderScore) && !givesCheck(m)) continue;
    }
    if (prunable && on(FEATURE_SEE_PRUNING) && depth <= 6 && moveFlag(m) != PROMOTION &&
      !seeGe(m, -(quiet ? param(PARAM_SEE_QUIET_MARGIN) : param(PARAM_SEE_CAPTURE_MARGIN)) * depth)) continue;

    setPlyMove(ply, movePieceTo);
    doMove(m);
    const checks = checkedAt(ply + 1);
    // Late move reductions for quiet moves that are not killers, counters or checks.
    const r = moveCount > 1 && quiet && !checks && !checked && !isRefutationScore(orderScore)
      ? lateMoveReduction(us, m, movePieceTo, depth, moveCount, pv, cutNode, improving, row1, row2) : 0;
    const extension = m == hashMove ? hashExtension : 0;
    const newDepth = depth - 1 + extension;
    setDoubleExtensions(ply + 1, doubleExtensionsAt(ply) + (extension == 2 ? 1 : 0));
    const score = searchMove(alpha, beta, newDepth, r, ply, pv, cutNode, moveCount == 1);
    undoMove(m);
    if (stopped) return 0;

    if (score > best) {
      best = score;
      if (score > alpha) {
        bestM = m;
        if (pv) updatePv(ply, m);
        if (score >= beta) {
          if (quiet) rewardQuiet(m, ply, depth, prevMove, list, i, row1, row2);
          else updateCaptureHistory(movePieceTo, capturedType(m), historyBonus(depth));
          punishCaptures(list, i, historyBonus(depth));
          break;
        }
        alpha = score;
      }
    }
  }
  if (moveCount == 0 || best == -VALUE_INFINITE) {
    // Every move was pruned (or the only one is excluded): the node fails low.
    best = alpha;
  }
  setNodeBest(ply, bestM);
  return best;
}

/** Plies by which a late quiet move m of side us is reduced: the table's value, less at PV nodes and
 *  for moves with a good history, more when the position is not improving and at expected
 *  cut-nodes. */
function lateMoveReduction(
  us: Color, m: Move, movePieceTo: i32, depth: i32, moveCount: i32, pv: bool, cutNode: bool, improving: bool, row1: i32, row2: i32,
): i32 {
  if (!on(FEATURE_LMR) || depth < 3) return 0;
  let r = reduction(depth, moveCount);
  if (pv) r--;
  if (!improving) r++;
  if (cutNode && on(FEATURE_CUT_NODE)) r++;
  r -= quietScore(us, m, movePieceTo, row1, row2) / param(PARAM_LMR_HISTORY_DIVISOR);
  return min(max(r, 0), depth - 2);
}

/** Principal variation search of one move already made: the first move with the full
 *  window; later ones with a null window at depth newDepth - r, re-searched at full depth
 *  when a reduced search beats alpha, and with the full window when a PV node's move lands
 *  inside it. A child is an expected cut-node when it is a later move's (its parent expects
 *  one of its moves to refute it) or the first move of an expected all-node. */
function searchMove(alpha: i32, beta: i32, newDepth: i32, r: i32, ply: i32, pv: bool, cutNode: bool, first: bool): i32 {
  if (first) return -search(-beta, -alpha, newDepth, ply + 1, pv, !pv && !cutNode);
  let score = -search(-alpha - 1, -alpha, newDepth - r, ply + 1, false, true);
  if (score > alpha && r > 0) score = -search(-alpha - 1, -alpha, newDepth, ply + 1, false, !cutNode);
  if (score > alpha && score < beta && pv) score = -search(-beta, -alpha, newDepth, ply + 1, true, false);
  return score;
}

/** A quiet move caused a cutoff: remember it, and penalise the quiet moves tried before it. */
function rewardQuiet(m: Move, ply: i32, depth: i32, prevMove: Move, list: usize, index: i32, row1: i32, row2: i32): void {
  const us = sideToMove;
  const bonus = historyBonus(depth);
  storeKiller(ply, m);
  storeCounterMove(prevMove, m);
  updateQuietHistories(us, m, pieceTo(m), row1, row2, bonus);
  for (let j = 0; j < index; j++) {
    const q = moveAt(list, j);
    if (!isTactical(q)) updateQuietHistories(us, q, pieceTo(q), row1, row2, -bonus);
  }
}

/** A move caused a cutoff: the captures tried before it lose capture history. */
function punishCaptures(list: usize, index: i32, bonus: i32): void {
  for (let j = 0; j < index; j++) {
    const q = moveAt(list, j);
    if (isTactical(q)) updateCaptureHistory(pieceTo(q), capturedType(q), -bonus);
  }
}

// ---------------------------------------------------------------- quiescence

function quiescence(alpha: i32, beta: i32, ply: i32, pv: bool): i32 {
  if (stopped) return 0;
  countNode();
  if (stopped) return 0;
  if (ply > selDepth) selDepth = ply;
  if (rule50 >= 100 || insufficientMaterial()) return VALUE_DRAW;
  const checked = checkedAt(ply);
  if (ply >= MAX_PLY - 2) return checked ? VALUE_DRAW : evaluate();
  keepEvalState();

  const posKey = key;
  const hit = probe(posKey, ply);
  const hashMove = hit ? ttMove : MOVE_NONE;
  if (hit && !pv && ttScore != VALUE_NONE &&
    (ttBound == BOUND_EXACT || (ttBound == BOUND_LOWER ? ttScore >= beta : ttScore <= alpha))) {
    return ttScore;
  }

  let best = -VALUE_INFINITE;
  let standPat = VALUE_NONE;
  let rawEval = VALUE_NONE;
  if (!checked) {
    rawEval = hit && ttEval != VALUE_NONE ? ttEval : evaluate();
    standPat = on(FEATURE_CORRECTION) ? correctedEval(sideToMove, rawEval, on(FEATURE_PIECE_CORRECTION)) : rawEval;
    if (standPat >= beta) {
      if (!hit) save(posKey, ply, MOVE_NONE, standPat, rawEval, -1, BOUND_LOWER);
      return standPat;
    }
    if (standPat > alpha) alpha = standPat;
    best = standPat;
  }
  const alphaOrig = alpha;
  const n = scoreQuiescenceMoves(ply, hashMove, checked);
  let bestM: Move = MOVE_NONE;
  let searched = 0;
  for (let i = 0; i < n; i++) {
    const m = pickMove(ply, i, n, false);
    if (!checked) {
      if (!isTactical(m)) continue;
      // Delta pruning: even winning the piece cannot reach alpha.
      const gain = unchecked(SEE_VALUE[isCaptureMove(m) ? captureType(m) : 0]) + (moveFlag(m) == PROMOTION ? 850 : 0);
      if (standPat + gain + param(PARAM_DELTA_MARGIN) <= alpha) continue;
      if (!seeGe(m, 0)) continue;
    }
    doMove(m);
    const score = -quiescence(-beta, -alpha, ply + 1, pv);
    undoMove(m);
    searched++;
    if (stopped) return 0;
    if (score > best) {
      best = score;
      if (score > alpha) {
        bestM = m;
        if (score >= beta) break;
        alpha = score;
      }
    }
  }
  if (checked && n == 0) return matedIn(ply);
  const bound = best >= beta ? BOUND_LOWER : best > alphaOrig ? BOUND_EXACT : BOUND_UPPER;
  save(posKey, ply, bestM, best, rawEval, 0, bound);
  return best;
}

/** The score of the position at ply (the side to move's view) within the window (alpha,
 *  beta): the quiescence search's for depth 0, else the node search's to depth. The value of
 *  a leaf, and of a move for the policy, of the Monte Carlo search (mcts.ts), whose walk to
 *  ply set the moves' continuation rows. */
export function leafSearch(depth: i32, ply: i32, alpha: i32 = -VALUE_INFINITE, beta: i32 = VALUE_INFINITE): i32 {
  if (depth <= 0) return quiescence(alpha, beta, ply, false);
  setDoubleExtensions(ply, 0);
  return search(alpha, beta, depth, ply, true, false);
}

// @ts-ignore: decorator
@inline function captureType(m: Move): i32 {
  const pc = pieceOn(toSq(m));
  return pc == 0 ? PAWN : typeOf(pc);
}


// ---------------------------------------------------------------- a root move

/** Searches root move m for the root driver: the first move (the line's PV move) with the
 *  window (alpha, beta), a later one with a null window first and the full window when it
 *  lands inside. Returns its score; its principal variation below it is pvMoveAt(1, i) for
 *  1 <= i < pvLengthAt(1). */
export function searchRootMove(m: Move, alpha: i32, beta: i32, depth: i32, first: bool): i32 {
  setPlyMove(0, pieceTo(m));
  setDoubleExtensions(1, 0);
  doMove(m);
  let score: i32;
  if (first) {
    score = -search(-beta, -alpha, depth - 1, 1, true, false);
  } else {
    score = -search(-alpha - 1, -alpha, depth - 1, 1, false, true);
    if (score > alpha && score < beta) score = -search(-beta, -alpha, depth - 1, 1, true, false);
  }
  undoMove(m);
  return score;
}

// ---------------------------------------------------------------- reductions and parameters

function initReductions(): void {
  const base = <f64>param(PARAM_LMR_BASE) / 100;
  const divisor = <f64>param(PARAM_LMR_DIVISOR) / 100;
  for (let d = 1; d < 64; d++) {
    for (let m = 1; m < 64; m++) {
      LMR_TABLE[(d << 6) | m] = <u8>(base + Math.log(<f64>d) * Math.log(<f64>m) / divisor);
    }
  }
}

initReductions();

/** Sets a tunable search parameter (see search-params.ts), clamped to its range; the
 *  reduction table follows its formula's parameters. Returns false for an unknown index. */
export function setSearchParam(i: i32, value: i32): bool {
  if (!setParam(i, value)) return false;
  if (i == PARAM_LMR_BASE || i == PARAM_LMR_DIVISOR) initReductions();
  return true;
}

