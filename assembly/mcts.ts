// Monte Carlo tree search with PUCT, the engine's second search mode (UCI "Search Mode" mcts;
// docs/mcts.md). Each visit walks from the root to a leaf, at each node taking the move with
// the highest mean value plus exploration term (PUCT: the move's prior times the square root
// of the node's visits over the move's own, AlphaZero's growing constant), values the leaf,
// and adds the value to every node of the walk, its sign flipped at each ply. A leaf's value
// is the quiescence search's score on the engine's evaluation (a node search's to a few plies
// with "MCTS Leaf Depth"), turned into an expected score by the win/draw/loss model (wdl.ts):
// a probability, not centipawns. A move not yet visited is valued at its parent's mean less a
// first-play-urgency reduction that grows with the priors already visited.
//
// The priors are a softmax. When a node is expanded (its second visit; the first only values
// it) they are over static move scores (captures by SEE and victim, promotions, checks,
// castling, moves that lose their piece); from its "MCTS Policy Search Visits"-th visit they
// are over each move's quiescence score instead, searched once in a window around the node's
// evaluation: the captures that follow a move are played out, so a move that loses material
// gets almost no visits. A node visited once or twice costs no such searches.
//
// Checkmate and stalemate are proven where the tree meets them and the proofs climb (a node
// with a winning move is lost for the side that moved into it; one whose moves all lose is
// won), so a mate the tree sees is played and reported as a mate. Draws by the rules are
// checked on every walk, since they depend on the path. One thread.
//
// The tree is in memory of its own, grown past the heap as the transposition table's (which
// the leaves' quiescence searches use as in the other mode), and bounded by the Hash option:
// a full tree ends the search, which reports and plays what it has. It is kept between the
// moves of a game: the next search starts from the node of its position when that position
// follows the last root by a few plies and the tree is at most half full.
//
// A node is NODE_BYTES, an edge (a move of an expanded node) EDGE_BYTES; offsets are from the
// tree's base, and offsets below TREE_HEADER mean "none":
//
//   node:  0 u32 visits | 4 u32 edges (0: not expanded) | 8 u16 edge count | 10 u8 proof
//          | 12 u16 plies to the proven end | 14 u8 priors searched | 16 f64 sum of values
//          (for the side that moved into the node)
//   edge:  0 u16 move | 2 u16 prior x 65535 | 4 u32 child node (0: not visited)
//
// A node's edges are made at its second visit (its first only values it), so the many leaves
// visited once cost one node each.

import { Key, Move, MOVE_NONE, MAX_PLY, MAX_MOVES, PROMOTION, CASTLING, QUEEN, moveFlag, promotionType } from "./types";
import {
  doMove, undoMove, inCheck, key, rule50, isRepetition, insufficientMaterial, stateCount, keyBefore, moveBefore,
} from "./position";
import { moveList, moveAt, generateMoves, GEN_ALL } from "./movegen";
import { ARENA, ARENA_MOVE_SCORES } from "./arena";
import { seeGe, SEE_VALUE } from "./see";
import { givesCheck } from "./check";
import { isCaptureMove, capturedType, pieceTo } from "./movepick";
import { leafSearch, selDepth } from "./search";
import { setPlyMove } from "./history";
import { evaluate } from "./eval";
import { VALUE_DRAW, VALUE_TB_WIN_IN_MAX_PLY, mateIn, matedIn } from "./score";
import { wdlMaterial, wdlExpectation, wdlScoreOf } from "./wdl";
import { limitNodes, limitDepth, limitMateMoves, infinite, multiPv, searchMoveCount, rootMoveAllowed, setNodeLimit, MAX_SEARCH_DEPTH } from "./limits";
import { softLimitReached, searchTimeMs } from "./timeman";
import { stopped, ponderActive, setMoveReady, checkLimits, publishNodeCount, endSearch } from "./control";
import { startThinking, setLineCount, setLine, appendLineMove, announceLine, takeLineResult, reportNoMove, lineMove } from "./think";
import { growRegion, grownReserved } from "./table";
import { HASH_DEFAULT_MB } from "./tt";
import {
  param, PARAM_MCTS_CPUCT, PARAM_MCTS_FPU_REDUCTION, PARAM_MCTS_POLICY_TEMPERATURE, PARAM_MCTS_POLICY_SEARCH, PARAM_MCTS_LEAF_DEPTH,
} from "./search-params";

// ---------------------------------------------------------------- the mode

/** True while searches run this Monte Carlo search instead of alpha-beta (think.ts). */
export let mctsMode = false;

/** Chooses the search mode: false alpha-beta (the default), true Monte Carlo. */
export function setMctsMode(on: bool): void {
  mctsMode = on;
}

// ---------------------------------------------------------------- the tree's memory

const NODE_BYTES: u32 = 24;
const EDGE_BYTES: u32 = 8;
const TREE_HEADER: u32 = 64;

const N_VISITS = 0;
const N_EDGES = 4;
const N_EDGE_COUNT = 8;
const N_PROOF = 10;
const N_PROOF_PLIES = 12;
const N_SEARCHED = 14;
const N_VALUE_SUM = 16;

const E_MOVE = 0;
const E_PRIOR = 2;
const E_CHILD = 4;

/** Proofs, for the side that moved into the node: none, a win (the side to move is mated, or
 *  every move of its loses), a loss (the side to move has a winning move), a draw (stalemate,
 *  or the best of moves all proven is a draw). */
const PROVEN_NONE: u8 = 0;
const PROVEN_WIN: u8 = 1;
const PROVEN_LOSS: u8 = 2;
const PROVEN_DRAW: u8 = 3;

/** Plies the tree goes down at most (the leaves' quiescence searches need the rest). */
const TREE_PLY_MAX = MAX_PLY - 32;
/** Plies the game may have moved on from the last root for its tree to be kept. */
const REUSE_PLIES = 8;
/** The soft time budget's share a timed search uses (there are no iterations to fit). */
const SOFT_SCALE = 1.3;
/** Visits between polls of the host, the clock and the limits. */
const POLL_VISITS: u64 = 64;
/** AlphaZero's growth of the exploration constant with the parent's visits. */
const CPUCT_BASE = 19652.0;

let treeBase: usize = 0;
let treeReserved: usize = 0;
/** Bytes the tree may use: the Hash option. */
let treeLimit: u32 = 0;
let treeUsed: u32 = TREE_HEADER;
let treeMb: i32 = HASH_DEFAULT_MB;
/** The last search's root (0: no tree), its key, and whether searchmoves restricted its moves. */
let treeRoot: u32 = 0;
let treeRootKey: Key = 0;
let treeRootRestricted = false;
/** Set when the tree had no room for a node or an edge block: the search ends. */
let treeFull = false;

/** Sets the tree's budget to mb megabytes (the Hash option); the tree is dropped. */
export function setTreeMb(mb: i32): void {
  treeMb = max(mb, 1);
  clearTree();
}

/** Drops the tree (a new game). */
export function clearTree(): void {
  treeRoot = 0;
  treeUsed = TREE_HEADER;
}

/** Per-mille of the tree's budget in use (UCI hashfull in this mode). */
export function treeHashfull(): i32 {
  return treeLimit == 0 ? 0 : <i32>((<u64>treeUsed * 1000) / <u64>treeLimit);
}

/** Bytes of the tree in use. */
export function treeBytesUsed(): u32 {
  return treeUsed;
}

// @ts-ignore: decorator
@inline function at(offset: u32): usize {
  return treeBase + <usize>offset;
}

/** A new node with no visits; 0 when the tree is full. */
function allocNode(): u32 {
  if (treeUsed + NODE_BYTES > treeLimit) {
    treeFull = true;
    return 0;
  }
  const n = treeUsed;
  treeUsed += NODE_BYTES;
  memory.fill(at(n), 0, NODE_BYTES);
  return n;
}

/** Room for `count` edges; 0 when the tree is full. */
function allocEdges(count: i32): u32 {
  const bytes = <u32>count * EDGE_BYTES;
  if (treeUsed + bytes > treeLimit) {
    treeFull = true;
    return 0;
  }
  const e = treeUsed;
  treeUsed += bytes;
  return e;
}

/** Makes the tree's memory ready and finds or makes the root; false when memory cannot grow. */
function prepareTree(): bool {
  const bytes = <usize>treeMb << 20;
  const base = growRegion(treeBase, treeReserved, bytes);
  if (base == 0) return false;
  if (base != treeBase) clearTree();
  treeBase = base;
  treeReserved = grownReserved;
  if (<u32>bytes != treeLimit) {
    treeLimit = <u32>bytes;
    clearTree();
  }
  const kept = keptRoot();
  if (kept != 0) {
    treeRoot = kept;
  } else {
    clearTree();
    treeRoot = allocNode();
    treeRootRestricted = searchMoveCount > 0;
  }
  treeRootKey = key;
  return treeRoot != 0;
}

/** The node of the current position in the last search's tree, when the position is that
 *  root's or follows it by at most REUSE_PLIES moves and the tree is at most half full; 0
 *  otherwise. */
function keptRoot(): u32 {
  if (treeRoot == 0 || treeRootRestricted || searchMoveCount > 0 || treeUsed > treeLimit / 2) return 0;
  for (let back = 0; back <= REUSE_PLIES && back <= stateCount; back++) {
    if ((back == 0 ? key : keyBefore(back)) != treeRootKey) continue;
    let node = treeRoot;
    for (let i = back; i >= 1 && node != 0; i--) node = childOf(node, moveBefore(i));
    return node != 0 && load<u32>(at(node), N_VISITS) > 0 ? node : 0;
  }
  return 0;
}

/** Edges of the node at address a: none until it is expanded. */
// @ts-ignore: decorator
@inline function edgeCount(a: usize): i32 {
  return load<u32>(a, N_EDGES) == 0 ? 0 : <i32>load<u16>(a, N_EDGE_COUNT);
}

/** Address of edge i of the expanded node at address a. */
// @ts-ignore: decorator
@inline function edgeAt(a: usize, i: i32): usize {
  return at(load<u32>(a, N_EDGES)) + <usize>(i * EDGE_BYTES);
}

/** The child node of `node` reached by m (0: none yet). */
function childOf(node: u32, m: Move): u32 {
  const a = at(node);
  for (let i = 0, n = edgeCount(a); i < n; i++) {
    const e = edgeAt(a, i);
    if (load<u16>(e, E_MOVE) == m) return load<u32>(e, E_CHILD);
  }
  return 0;
}

// ---------------------------------------------------------------- values and priors

/** A score of the side to move as a value in -1..1 (twice the expected score, less one). */
function valueOf(score: i32): f64 {
  if (score >= VALUE_TB_WIN_IN_MAX_PLY) return 1.0;
  if (score <= -VALUE_TB_WIN_IN_MAX_PLY) return -1.0;
  return 2.0 * wdlExpectation(<f64>score, wdlMaterial()) - 1.0;
}

/** The window around the node's static evaluation the searched policy's searches look in: a
 *  move found outside it scores at its edge (a prior e^-10 of the best's, or less, at the
 *  default temperature, where 100 centipawns are a unit of logit). */
const SEARCHED_POLICY_WINDOW = 500;

/** The searched policy's score of move m at ply, for the side to move, clamped to (lo, hi):
 *  the quiescence search's score after it, which has played out the captures that follow. */
function searchedScore(m: Move, ply: i32, lo: i32, hi: i32): i32 {
  doMove(m);
  const score = -leafSearch(0, ply + 1, -hi, -lo);
  undoMove(m);
  return min(max(score, lo), hi);
}

/** The static score of a move: captures by SEE and victim, promotions, checks, castling, and
 *  a move that loses its piece. */
function staticLogit(m: Move): f64 {
  const flag = moveFlag(m);
  let s = 0.0;
  if (flag == PROMOTION) s = promotionType(m) == QUEEN ? 2.5 : -2.5;
  else if (isCaptureMove(m)) s = seeGe(m, 0) ? 1.0 + <f64>unchecked(SEE_VALUE[capturedType(m)]) / 500.0 : -0.5;
  else if (flag == CASTLING) s = 0.5;
  else if (!seeGe(m, 0)) s = -1.0;
  if (givesCheck(m)) s += 0.7;
  return s;
}

/** Makes the edges of the node at address a (its position on the board, at ply): the legal
 *  moves (at the root, those searchmoves allows) with their static priors. False when the
 *  tree is full. */
function expand(a: usize, ply: i32): bool {
  const list = moveList(ply);
  const n = generateMoves(GEN_ALL, list);
  let count = 0;
  for (let i = 0; i < n; i++) if (ply > 0 || rootMoveAllowed(moveAt(list, i))) count++;
  const edges = allocEdges(count);
  if (edges == 0) return false;
  let j = 0;
  for (let i = 0; i < n; i++) {
    const m = moveAt(list, i);
    if (ply > 0 || rootMoveAllowed(m)) {
      const e = at(edges + <u32>j * EDGE_BYTES);
      store<u16>(e, m, E_MOVE);
      store<u32>(e, 0, E_CHILD);
      j++;
    }
  }
  store<u32>(a, edges, N_EDGES);
  store<u16>(a, <u16>count, N_EDGE_COUNT);
  setPriors(a, ply, false);
  return true;
}

/** Sets the priors of the expanded node at address a (its position on the board, at ply): a
 *  softmax over its moves' static scores, or over their quiescence scores when `searched`.
 *  The scores (hundredths of a logit at temperature 1) wait in the ply's move-score slots of
 *  the arena. False, the priors as they were, when the search stopped. */
function setPriors(a: usize, ply: i32, searched: bool): bool {
  const edges = at(load<u32>(a, N_EDGES));
  const n = <i32>load<u16>(a, N_EDGE_COUNT);
  const scores = ARENA + ARENA_MOVE_SCORES + <usize>(ply * MAX_MOVES * 4);
  const center = searched ? evaluate() : 0;
  let top = i32.MIN_VALUE;
  for (let i = 0; i < n; i++) {
    const m = load<u16>(edges + <usize>(i * EDGE_BYTES), E_MOVE);
    const score = searched
      ? searchedScore(m, ply, center - SEARCHED_POLICY_WINDOW, center + SEARCHED_POLICY_WINDOW) - center
      : <i32>Math.round(staticLogit(m) * 100.0);
    if (stopped) return false;
    store<i32>(scores + <usize>(i << 2), score);
    top = max(top, score);
  }
  const temperature = <f64>param(PARAM_MCTS_POLICY_TEMPERATURE);
  let sum = 0.0;
  for (let i = 0; i < n; i++) sum += Math.exp(<f64>(load<i32>(scores + <usize>(i << 2)) - top) / temperature);
  for (let i = 0; i < n; i++) {
    const p = Math.exp(<f64>(load<i32>(scores + <usize>(i << 2)) - top) / temperature) / sum;
    store<u16>(edges + <usize>(i * EDGE_BYTES), <u16>max(1, <i32>Math.round(p * 65535.0)), E_PRIOR);
  }
  if (searched) store<u8>(a, 1, N_SEARCHED);
  return true;
}

// @ts-ignore: decorator
@inline function prior(e: usize): f64 {
  return <f64>load<u16>(e, E_PRIOR) / 65535.0;
}

// ---------------------------------------------------------------- a visit

/** The node's mean value for the side that moved into it. */
// @ts-ignore: decorator
@inline function meanValue(a: usize): f64 {
  return load<f64>(a, N_VALUE_SUM) / <f64>max<u32>(load<u32>(a, N_VISITS), 1);
}

/** The edge a walk takes from the expanded node at address a: a move proven to win at once,
 *  else the highest mean value (the first-play urgency for a move not visited) plus
 *  exploration (PUCT). */
function select(a: usize): usize {
  const edges = at(load<u32>(a, N_EDGES));
  const n = <i32>load<u16>(a, N_EDGE_COUNT);
  const visits = <f64>load<u32>(a, N_VISITS);
  let visitedPolicy = 0.0;
  for (let i = 0; i < n; i++) {
    const e = edges + <usize>(i * EDGE_BYTES);
    const child = load<u32>(e, E_CHILD);
    if (child != 0 && load<u32>(at(child), N_VISITS) > 0) visitedPolicy += prior(e);
  }
  const fpu = -meanValue(a) - (<f64>param(PARAM_MCTS_FPU_REDUCTION) / 100.0) * Math.sqrt(visitedPolicy);
  const cpuct = <f64>param(PARAM_MCTS_CPUCT) / 100.0 + Math.log((visits + CPUCT_BASE + 1.0) / CPUCT_BASE);
  const explore = cpuct * Math.sqrt(max(visits, 1.0));
  let best = edges;
  let bestScore = -Infinity;
  for (let i = 0; i < n; i++) {
    const e = edges + <usize>(i * EDGE_BYTES);
    const child = load<u32>(e, E_CHILD);
    let q = fpu;
    let childVisits = 0.0;
    if (child != 0) {
      const c = at(child);
      if (load<u8>(c, N_PROOF) == PROVEN_WIN) return e;
      const cv = load<u32>(c, N_VISITS);
      if (cv > 0) {
        q = meanValue(c);
        childVisits = <f64>cv;
      }
    }
    const score = q + explore * prior(e) / (1.0 + childVisits);
    if (score > bestScore) {
      bestScore = score;
      best = e;
    }
  }
  return best;
}

/** A draw by the 50-move rule, insufficient material or repetition (one inside the tree
 *  counts at once, one reaching back before the root needs two), as the node search has it. */
function drawByRule(ply: i32): bool {
  return rule50 >= 100 || insufficientMaterial() || isRepetition(2, ply);
}

/** The value of a leaf (the node at address a, its position on the board) for the side that
 *  moved into it: mate and stalemate are proven, other positions get the quiescence search's
 *  score. NaN when the search was stopped. */
function leafValue(a: usize, ply: i32): f64 {
  if (generateMoves(GEN_ALL, moveList(ply)) == 0) {
    const mated = inCheck();
    store<u8>(a, mated ? PROVEN_WIN : PROVEN_DRAW, N_PROOF);
    store<u16>(a, 0, N_PROOF_PLIES);
    return mated ? 1.0 : 0.0;
  }
  const score = leafSearch(param(PARAM_MCTS_LEAF_DEPTH), ply);
  return stopped ? NaN : -valueOf(score);
}

/** Takes a proof of the child at address c up into its parent at address a: a child won for
 *  the side to move at a makes a lost (the quickest such win counts); when every child is
 *  proven and none won, a is won (every child lost: the longest defence counts) or drawn. */
function updateProof(a: usize, c: usize): void {
  const proof = load<u8>(c, N_PROOF);
  if (proof == PROVEN_NONE) return;
  if (proof == PROVEN_WIN) {
    const plies = load<u16>(c, N_PROOF_PLIES) + 1;
    if (load<u8>(a, N_PROOF) != PROVEN_LOSS || plies < load<u16>(a, N_PROOF_PLIES)) {
      store<u8>(a, PROVEN_LOSS, N_PROOF);
      store<u16>(a, plies, N_PROOF_PLIES);
    }
    return;
  }
  const edges = at(load<u32>(a, N_EDGES));
  const n = <i32>load<u16>(a, N_EDGE_COUNT);
  let drawn = false;
  let longest: i32 = 0;
  for (let i = 0; i < n; i++) {
    const child = load<u32>(edges + <usize>(i * EDGE_BYTES), E_CHILD);
    if (child == 0) return;
    const p = load<u8>(at(child), N_PROOF);
    if (p == PROVEN_NONE || p == PROVEN_WIN) return;
    if (p == PROVEN_DRAW) drawn = true;
    else longest = max(longest, <i32>load<u16>(at(child), N_PROOF_PLIES));
  }
  store<u8>(a, drawn ? PROVEN_DRAW : PROVEN_WIN, N_PROOF);
  store<u16>(a, drawn ? 0 : <u16>(longest + 1), N_PROOF_PLIES);
}

/** The deepest ply a walk reached in this search. */
let treeDepth = 0;

/** One walk from `node` (its position on the board, at ply) to a leaf and back. Returns the
 *  walk's value for the side that moved into node (1 a win, -1 a loss), added to the node's
 *  statistics; NaN, with no statistic changed, when the walk was cut short (the search
 *  stopped or the tree is full). */
function visit(node: u32, ply: i32): f64 {
  const a = at(node);
  if (ply > treeDepth) treeDepth = ply;
  const proof = load<u8>(a, N_PROOF);
  let v: f64;
  if (proof != PROVEN_NONE) v = proof == PROVEN_WIN ? 1.0 : proof == PROVEN_LOSS ? -1.0 : 0.0;
  else if (ply > 0 && drawByRule(ply)) v = 0.0;
  else if (load<u32>(a, N_VISITS) == 0 || ply >= TREE_PLY_MAX) v = leafValue(a, ply);
  else v = descend(a, ply);
  if (isNaN(v)) return v;
  store<u32>(a, load<u32>(a, N_VISITS) + 1, N_VISITS);
  store<f64>(a, load<f64>(a, N_VALUE_SUM) + v, N_VALUE_SUM);
  return v;
}

/** The inner part of a walk: expands the node at address a when this is its second visit,
 *  searches its priors at the visit the options say, takes the selected move, visits the
 *  child, and returns the value for a's mover. */
function descend(a: usize, ply: i32): f64 {
  if (load<u32>(a, N_EDGES) == 0 && !expand(a, ply)) return NaN;
  const searchAt = <u32>param(PARAM_MCTS_POLICY_SEARCH);
  if (searchAt != 0 && load<u32>(a, N_VISITS) + 1 >= searchAt && load<u8>(a, N_SEARCHED) == 0 && !setPriors(a, ply, true)) return NaN;
  const e = select(a);
  let child = load<u32>(e, E_CHILD);
  if (child == 0) {
    child = allocNode();
    if (child == 0) return NaN;
    store<u32>(e, child, E_CHILD);
  }
  const m = load<u16>(e, E_MOVE);
  setPlyMove(ply, pieceTo(m));
  doMove(m);
  const v = visit(child, ply + 1);
  undoMove(m);
  if (isNaN(v)) return v;
  updateProof(a, at(child));
  return -v;
}

// ---------------------------------------------------------------- lines and reports

/** Rank of a child (address c, 0 for a move not visited) among its siblings, for the side to
 *  move at the parent: a proven win first (the quickest), a proven loss last (the longest),
 *  the others by visits, then by mean value. */
function rankOf(c: usize): f64 {
  if (c == 0) return 0.0;
  const proof = load<u8>(c, N_PROOF);
  if (proof == PROVEN_WIN) return 3e12 - <f64>load<u16>(c, N_PROOF_PLIES);
  if (proof == PROVEN_LOSS) return -3e12 + <f64>load<u16>(c, N_PROOF_PLIES);
  const visits = <f64>load<u32>(c, N_VISITS);
  return visits == 0 ? 0.0 : visits + (meanValue(c) + 1.0) / 4.0;
}

/** The best visited child of the node at address a (0: none). */
function bestChild(a: usize): u32 {
  const edges = at(load<u32>(a, N_EDGES));
  const n = edgeCount(a);
  let best: u32 = 0;
  let bestRank = 0.0;
  for (let i = 0; i < n; i++) {
    const child = load<u32>(edges + <usize>(i * EDGE_BYTES), E_CHILD);
    if (child == 0 || load<u32>(at(child), N_VISITS) == 0) continue;
    const r = rankOf(at(child));
    if (best == 0 || r > bestRank) {
      best = child;
      bestRank = r;
    }
  }
  return best;
}

/** The move that leads from node to child. */
function moveTo(node: u32, child: u32): Move {
  const a = at(node);
  for (let i = 0, n = edgeCount(a); i < n; i++) {
    const e = edgeAt(a, i);
    if (load<u32>(e, E_CHILD) == child) return load<u16>(e, E_MOVE);
  }
  return MOVE_NONE;
}

/** The score a root child (address c) reports for the side to move at the root: a mate for a
 *  proof, else its mean value as centipawns through the win/draw/loss model at the root. */
function childScore(c: usize, material: f64): i32 {
  const proof = load<u8>(c, N_PROOF);
  const plies = <i32>load<u16>(c, N_PROOF_PLIES) + 1;
  if (proof == PROVEN_WIN) return mateIn(plies);
  if (proof == PROVEN_LOSS) return matedIn(plies);
  if (proof == PROVEN_DRAW) return VALUE_DRAW;
  return wdlScoreOf((meanValue(c) + 1.0) / 2.0, material);
}

/** Length of the line of best children from the root. */
function mainLineLength(): i32 {
  if (treeRoot == 0) return 0;
  let n = 0;
  for (let node = bestChild(at(treeRoot)); node != 0 && n < MAX_PLY; node = bestChild(at(node))) n++;
  return n;
}

/** True when root child `child` is the move of one of the first `count` lines written. */
function written(child: u32, count: i32): bool {
  const m = moveTo(treeRoot, child);
  for (let r = 0; r < count; r++) if (lineMove(r) == m) return true;
  return false;
}

/** Writes the best `lines` visited root children (by rank) as the lines of the reports, each
 *  with its line of best children; returns how many were written (at least one: when nothing
 *  was visited, a root move unscored). */
function writeLines(lines: i32): i32 {
  const root = at(treeRoot);
  const edges = at(load<u32>(root, N_EDGES));
  const n = treeRoot == 0 ? 0 : edgeCount(root);
  const material = wdlMaterial();
  let count = 0;
  while (count < lines) {
    let pick: u32 = 0;
    let pickRank = 0.0;
    for (let i = 0; i < n; i++) {
      const child = load<u32>(edges + <usize>(i * EDGE_BYTES), E_CHILD);
      if (child == 0 || load<u32>(at(child), N_VISITS) == 0 || written(child, count)) continue;
      const r = rankOf(at(child));
      if (pick == 0 || r > pickRank) {
        pick = child;
        pickRank = r;
      }
    }
    if (pick == 0) break;
    setLine(count, moveTo(treeRoot, pick), childScore(at(pick), material));
    let node = pick;
    for (let next = bestChild(at(node)); next != 0; next = bestChild(at(node))) {
      if (!appendLineMove(count, moveTo(node, next))) break;
      node = next;
    }
    count++;
  }
  if (count == 0) {
    setLine(0, n > 0 ? load<u16>(edges, E_MOVE) : firstRootMove(), VALUE_DRAW);
    count = 1;
  }
  setLineCount(count);
  return count;
}

/** The first legal root move that searchmoves allows (MOVE_NONE: none). */
function firstRootMove(): Move {
  const list = moveList(0);
  const n = generateMoves(GEN_ALL, list);
  for (let i = 0; i < n; i++) if (rootMoveAllowed(moveAt(list, i))) return moveAt(list, i);
  return MOVE_NONE;
}

/** Reports the best lines (MultiPV) at the depth of the main line, with the visits as nodes. */
function report(visits: u64): void {
  const lines = writeLines(multiPv);
  publishNodeCount(visits);
  const depth = max(mainLineLength(), 1);
  for (let r = 0; r < lines; r++) announceLine(depth, max(selDepth, treeDepth), r);
}

// ---------------------------------------------------------------- the search

/** True when the root is proven: no visit can change the move. */
// @ts-ignore: decorator
@inline function rootProven(): bool {
  return load<u8>(at(treeRoot), N_PROOF) != PROVEN_NONE;
}

/** True when the root is proven won within the mate limit (go mate N). */
function mateLimitMet(): bool {
  const root = at(treeRoot);
  return limitMateMoves > 0 && load<u8>(root, N_PROOF) == PROVEN_LOSS &&
    <i32>load<u16>(root, N_PROOF_PLIES) <= 2 * limitMateMoves - 1;
}

/** Runs the Monte Carlo search with the limits set (a node limit counts visits; a depth
 *  limit ends it once the main line is that long); results and info records as think()'s.
 *  Without room for the tree it runs no visit and plays a legal move. */
export function mctsThink(): void {
  startThinking();
  const visitLimit = limitNodes;
  setNodeLimit(0); // the leaves' searches count their nodes; the visits are this search's
  treeFull = false;
  treeDepth = 0;
  if (firstRootMove() == MOVE_NONE) {
    reportNoMove();
    setNodeLimit(visitLimit);
    return;
  }
  let visits: u64 = 0;
  if (prepareTree()) {
    let lastReportMs = 0.0;
    let lastDepth = 0;
    while (true) {
      if (rootProven()) {
        // Nothing left to learn: wait for the stop or the ponderhit when one is due.
        if (!infinite && !ponderActive) break;
        checkLimits();
        if (stopped) break;
        continue;
      }
      if (isNaN(visit(treeRoot, 0))) break;
      visits++;
      if (visits == 2) setMoveReady(); // the root's first child is visited: a move to play
      if (visitLimit != 0 && visits >= visitLimit) break;
      if (visits % POLL_VISITS != 0) continue;
      checkLimits();
      if (stopped) break;
      if (!ponderActive && !infinite && softLimitReached(SOFT_SCALE)) break;
      const depth = mainLineLength();
      if (depth >= limitDepth && limitDepth < MAX_SEARCH_DEPTH) break;
      if (mateLimitMet()) break;
      const now = searchTimeMs();
      if (depth > lastDepth || now - lastReportMs >= 1000) {
        report(visits);
        lastDepth = depth;
        lastReportMs = now;
      }
    }
  }
  report(visits);
  takeLineResult(max(mainLineLength(), 1));
  endSearch();
  publishNodeCount(visits);
  setNodeLimit(visitLimit);
}
