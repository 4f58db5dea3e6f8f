// The root driver: the root moves, iterative deepening with an aspiration window per line,
// MultiPV, the time allocation after each iteration, the info records, a skill level's
// choice, and the result (best move, ponder move, score). The moves below the root are
// searched by the node search (search.ts); the root moves are in the thread's arena.

import { Move, MOVE_NONE, MAX_PLY } from "./types";
import { inCheck, gamePly } from "./position";
import { moveList, moveAt, generateMoves, GEN_ALL } from "./movegen";
import { VALUE_INFINITE, VALUE_DRAW, VALUE_MATE, VALUE_MATE_IN_MAX_PLY, VALUE_KNOWN_WIN, matedIn } from "./score";
import { BOUND_EXACT, BOUND_LOWER, BOUND_UPPER, newSearchGeneration } from "./tt";
import { clearKillers } from "./history";
import { hostInfo, hostCurrMove, hostNow } from "./host";
import { startClock, searchTimeMs, mayStartIteration, setUntimed, setMoveTime, setClock } from "./timeman";
import {
  limitDepth, limitMateMoves, limitMoveTimeMs, clockTimeMs, clockIncMs, clockMovesToGo, infinite, pondering, multiPv,
  rootMoveAllowed,
} from "./limits";
import { skillEnabled, skillDepth, skillPick, SKILL_LINES } from "./skill";
import { param, featureOn, PARAM_ASPIRATION_WINDOW, FEATURE_ASPIRATION } from "./search-params";
import { nodes, stopped, ponderActive, threadIndex, startControl, setMoveReady, publishOwnNodes, endSearch } from "./control";
import { searchRootMove, pvMoveAt, pvLengthAt, resetSelDepth, selDepth } from "./search";
import { prepareTablebases, rootRank, rootInTb, tbScore } from "./syzygy-search";
import {
  ARENA, ARENA_ROOT_MOVES, ROOT_ENTRY_BYTES, ROOT_MAX, ARENA_SKILL_MOVES, ARENA_SKILL_PONDERS, ARENA_SKILL_SCORES,
  SKILL_LINES_MAX,
} from "./arena";

// @ts-ignore: decorator
if (SKILL_LINES > SKILL_LINES_MAX) ERROR("the arena has no room for the skill level's lines");

// ---------------------------------------------------------------- root moves
// One entry per root move, ROOT_ENTRY_BYTES each (Stockfish's RootMove): the nodes spent on
// it, its score in this iteration and in the last, its tablebase rank (0 unless the root is in
// the tables), and its principal variation, whose first move is the root move itself.
//
//   0 u64 nodes | 8 i32 score | 12 i32 previous score | 16 i32 PV length | 20 i32 TB rank
//   | 24 u16 PV[MAX_PLY]
const NODES = 0;
const SCORE = 8;
const PREV_SCORE = 12;
const PV_LENGTH = 16;
const TB_RANK = 20;
const PV = 24;
// @ts-ignore: decorator
if (PV + MAX_PLY * 2 > ROOT_ENTRY_BYTES) ERROR("a root move's entry has no room for its PV");

/** Root moves of the current search. */
export let rootCount: i32 = 0;

// @ts-ignore: decorator
@inline function entry(r: i32): usize {
  return ARENA + ARENA_ROOT_MOVES + <usize>(r * ROOT_ENTRY_BYTES);
}
// @ts-ignore: decorator
@inline function rootMove(r: i32): Move {
  return load<u16>(entry(r), PV);
}
// @ts-ignore: decorator
@inline function rootScore(r: i32): i32 {
  return load<i32>(entry(r), SCORE);
}
// @ts-ignore: decorator
@inline function rootPrevScore(r: i32): i32 {
  return load<i32>(entry(r), PREV_SCORE);
}
// @ts-ignore: decorator
@inline function rootNodes(r: i32): u64 {
  return load<u64>(entry(r), NODES);
}
// @ts-ignore: decorator
@inline function rootTbRank(r: i32): i32 {
  return load<i32>(entry(r), TB_RANK);
}

/** The score root move r reports: its search score, or when the root is in the tables and
 *  the search found no mate, the score of its tablebase rank. */
function shownScore(r: i32, score: i32): i32 {
  return rootInTb && abs(score) < VALUE_MATE_IN_MAX_PLY ? tbScore(rootTbRank(r)) : score;
}

/** PV move i of root move r (for the info record). */
export function rootPvMove(r: i32, i: i32): Move {
  return load<u16>(entry(r) + (<usize>i << 1), PV);
}

/** PV length of root move r. */
export function rootPvLength(r: i32): i32 {
  return load<i32>(entry(r), PV_LENGTH);
}

function initRootMoves(): void {
  const list = moveList(0);
  const n = generateMoves(GEN_ALL, list);
  rootCount = 0;
  for (let i = 0; i < n && rootCount < ROOT_MAX; i++) {
    const m = moveAt(list, i);
    if (!rootMoveAllowed(m)) continue;
    const e = entry(rootCount);
    store<u64>(e, 0, NODES);
    store<i32>(e, -VALUE_INFINITE, SCORE);
    store<i32>(e, -VALUE_INFINITE, PREV_SCORE);
    store<i32>(e, 1, PV_LENGTH);
    store<i32>(e, 0, TB_RANK);
    store<u16>(e, m, PV);
    rootCount++;
  }
  // In the tables: the moves ranked, the best rank first (the lines search it alone, then the
  // next rank, as Stockfish's pvFirst..pvLast). Prepared for every search (its tbhits start
  // from 0), also without a legal move.
  const inTables = prepareTablebases();
  if (inTables && rootCount > 0) {
    for (let r = 0; r < rootCount; r++) store<i32>(entry(r), rootRank(rootMove(r)), TB_RANK);
    sortRootMoves(0, rootCount);
  }
}

/** True when root move a goes before b: a better tablebase rank, or the same and a better
 *  score. */
// @ts-ignore: decorator
@inline function rootBefore(a: i32, b: i32): bool {
  const ra = rootTbRank(a);
  const rb = rootTbRank(b);
  return ra > rb || (ra == rb && rootScore(a) > rootScore(b));
}

/** Stable sort of the root moves from index `from` to `to` (exclusive), best first. */
function sortRootMoves(from: i32, to: i32): void {
  for (let i = from + 1; i < to; i++) {
    for (let j = i; j > from && rootBefore(j, j - 1); j--) swapRoot(j, j - 1);
  }
}

function swapRoot(a: i32, b: i32): void {
  const ea = entry(a);
  const eb = entry(b);
  for (let i: usize = 0; i < <usize>ROOT_ENTRY_BYTES; i += 8) {
    const t = load<u64>(ea + i);
    store<u64>(ea + i, load<u64>(eb + i));
    store<u64>(eb + i, t);
  }
}

// ---------------------------------------------------------------- results
export let completedDepth: i32 = 0;
export let bestMove: Move = MOVE_NONE;
export let ponderMove: Move = MOVE_NONE;
export let bestScore: i32 = 0;
/** The info record of the last report. */
export let infoDepth: i32 = 0;
export let infoSelDepth: i32 = 0;
export let infoMultiPv: i32 = 1;
export let infoScore: i32 = 0;
export let infoBound: i32 = BOUND_EXACT;
export let infoPvIndex: i32 = 0;

// ---------------------------------------------------------------- iterations

let bestMoveChanges: f64 = 0;

/** Searches the root moves from pvIndex on with the window (alpha, beta). */
function searchRoot(alpha: i32, beta: i32, depth: i32, pvIndex: i32): i32 {
  let best = -VALUE_INFINITE;
  // Only the moves of the line's tablebase rank (all of them outside the tables).
  const rank = rootTbRank(pvIndex);
  for (let i = pvIndex; i < rootCount && rootTbRank(i) == rank; i++) {
    const m = rootMove(i);
    if (threadIndex == 0 && searchTimeMs() > 1000) hostCurrMove(m, i + 1, depth);
    const before = nodes;
    const score = searchRootMove(m, alpha, beta, depth, i == pvIndex);
    const e = entry(i);
    store<u64>(e, load<u64>(e, NODES) + nodes - before, NODES);
    if (stopped) break;
    if (i == pvIndex || score > alpha) {
      store<i32>(e, score, SCORE);
      const len = pvLengthAt(1);
      for (let j = 1; j < len; j++) store<u16>(e + (<usize>j << 1), pvMoveAt(1, j), PV);
      store<i32>(e, max(len, 1), PV_LENGTH);
      if (i != pvIndex && pvIndex == 0) bestMoveChanges += 1;
    } else {
      store<i32>(e, -VALUE_INFINITE, SCORE);
    }
    if (score > best) best = score;
    if (score > alpha) {
      alpha = score;
      if (score >= beta) break;
    }
  }
  return best;
}

/** One iteration for one PV line, with an aspiration window around the last score. */
function aspirationSearch(depth: i32, pvIndex: i32): void {
  const prev = rootPrevScore(pvIndex);
  let delta = param(PARAM_ASPIRATION_WINDOW);
  let alpha = -VALUE_INFINITE;
  let beta = VALUE_INFINITE;
  if (featureOn(FEATURE_ASPIRATION) && depth >= 5 && prev > -VALUE_INFINITE && abs(prev) < VALUE_KNOWN_WIN) {
    alpha = max(prev - delta, -VALUE_INFINITE);
    beta = min(prev + delta, VALUE_INFINITE);
  }
  while (true) {
    const score = searchRoot(alpha, beta, depth, pvIndex);
    sortRootMoves(pvIndex, rootCount);
    if (stopped) return;
    if (score <= alpha) {
      beta = (alpha + beta) / 2;
      alpha = max(score - delta, -VALUE_INFINITE);
      reportLine(depth, pvIndex, BOUND_UPPER);
    } else if (score >= beta) {
      beta = min(score + delta, VALUE_INFINITE);
      reportLine(depth, pvIndex, BOUND_LOWER);
    } else {
      return;
    }
    delta += delta / 2 + 5;
  }
}

function reportLine(depth: i32, pvIndex: i32, bound: i32): void {
  // Helpers never report. A skill level searches more lines than asked for; only those asked
  // for are reported.
  if (threadIndex != 0 || pvIndex >= multiPv) return;
  infoDepth = depth;
  infoSelDepth = selDepth;
  infoMultiPv = pvIndex + 1;
  infoPvIndex = pvIndex;
  infoScore = rootScore(pvIndex);
  if (infoScore == -VALUE_INFINITE) infoScore = rootPrevScore(pvIndex);
  infoScore = shownScore(pvIndex, infoScore);
  infoBound = bound;
  // Only report bounds after the first second, as other engines do.
  if (bound == BOUND_EXACT || searchTimeMs() > 1000) {
    publishOwnNodes();
    hostInfo();
  }
}

/** The mate limit (go mate N) is met when a mate in at most N moves is proven. */
function mateLimitMet(score: i32): bool {
  return limitMateMoves > 0 && score >= VALUE_MATE_IN_MAX_PLY && VALUE_MATE - score <= 2 * limitMateMoves - 1;
}

function configureTime(): void {
  startClock();
  if (limitMoveTimeMs > 0) setMoveTime(limitMoveTimeMs);
  else if (clockTimeMs >= 0 && !infinite) setClock(clockTimeMs, clockIncMs, clockMovesToGo, gamePly);
  else setUntimed();
}

/** Stability factor for the time manager: more time when the best move keeps changing or
 *  the score drops, less when one move took most of the effort. */
function stability(prevBest: i32): f64 {
  let f = 1.0 + bestMoveChanges * 0.35;
  const drop = prevBest - rootScore(0);
  if (drop > 30) f *= 1.0 + min(<f64>drop, 150.0) / 150.0;
  let total: u64 = 0;
  for (let i = 0; i < rootCount; i++) total += rootNodes(i);
  if (total > 0 && <f64>rootNodes(0) / <f64>total > 0.9) f *= 0.6;
  return min(max(f, 0.4), 2.5);
}

// The lines of the last completed iteration, for a skill level's choice (in the arena).
let skillCount = 0;

/** Runs the search with the current limits; results in bestMove, ponderMove, bestScore.
 *  Below full strength (skill.ts; not for an infinite search) the search looks at least at
 *  SKILL_LINES lines, ends at the skill's depth, and plays the line the skill chooses. */
export function think(): void {
  startThinking();
  initRootMoves();
  if (rootCount == 0) {
    reportNoMove();
    return;
  }
  bestMove = rootMove(0);
  let prevBest = -VALUE_INFINITE;
  const skill = skillEnabled() && !infinite;
  const lines = min(skill ? max(multiPv, SKILL_LINES) : multiPv, rootCount);
  const reported = min(multiPv, lines);
  const lastDepth = skill ? min(limitDepth, skillDepth()) : limitDepth;
  for (let depth = 1; depth <= lastDepth; depth++) {
    bestMoveChanges *= 0.5;
    for (let i = 0; i < rootCount; i++) store<i32>(entry(i), rootScore(i), PREV_SCORE);
    for (let pvIndex = 0; pvIndex < lines && !stopped; pvIndex++) {
      resetSelDepth();
      aspirationSearch(depth, pvIndex);
      // MultiPV: the lines so far in score order, since a later line may beat an earlier one.
      if (!stopped) sortRootMoves(0, pvIndex + 1);
    }
    if (stopped) {
      adoptInterruptedIteration(prevBest);
      break;
    }
    completedDepth = depth;
    setMoveReady();
    takeResult();
    if (skill) keepSkillLines(lines);
    for (let pvIndex = 0; pvIndex < reported; pvIndex++) reportLine(depth, pvIndex, BOUND_EXACT);
    if (mateLimitMet(bestScore)) break;
    if (!ponderActive && !infinite && !mayStartIteration(stability(prevBest))) break;
    prevBest = rootScore(0);
  }
  endSearch();
  if (skill && skillCount > 0) playSkillLine();
}

/** Starts a search on the main thread: its time, the table's generation, its control, and no
 *  result yet. */
export function startThinking(): void {
  configureTime();
  newSearchGeneration();
  startControl(pondering);
  resetSelDepth();
  completedDepth = 0;
  bestMove = MOVE_NONE;
  ponderMove = MOVE_NONE;
  bestScore = 0;
  skillCount = 0;
}

// ---------------------------------------------------------------- another search's lines
// The Monte Carlo search (mcts.ts) reports its lines through the same root entries, info
// record and results: line r is entry r, its move first.

/** Sets the number of lines (root entries) the reports may name. */
export function setLineCount(n: i32): void {
  rootCount = min(n, ROOT_MAX);
}

/** Writes line r: its root move and score, a PV of that move alone (appendLineMove adds). */
export function setLine(r: i32, m: Move, score: i32): void {
  const e = entry(r);
  store<u64>(e, 0, NODES);
  store<i32>(e, score, SCORE);
  store<i32>(e, score, PREV_SCORE);
  store<i32>(e, 1, PV_LENGTH);
  store<i32>(e, 0, TB_RANK);
  store<u16>(e, m, PV);
}

/** Line r's root move. */
export function lineMove(r: i32): Move {
  return rootMove(r);
}

/** Adds a move to line r's PV; false when it is full (MAX_PLY moves). */
export function appendLineMove(r: i32, m: Move): bool {
  const e = entry(r);
  const n = load<i32>(e, PV_LENGTH);
  if (n >= MAX_PLY) return false;
  store<u16>(e + (<usize>n << 1), m, PV);
  store<i32>(e, n + 1, PV_LENGTH);
  return true;
}

/** Announces line r (pvIndex) as an exact info record at this depth and seldepth. */
export function announceLine(depth: i32, selectiveDepth: i32, pvIndex: i32): void {
  infoDepth = depth;
  infoSelDepth = selectiveDepth;
  infoMultiPv = pvIndex + 1;
  infoPvIndex = pvIndex;
  infoScore = rootScore(pvIndex);
  infoBound = BOUND_EXACT;
  hostInfo();
}

/** Takes line 0 as the search's result, reached at this depth. */
export function takeLineResult(depth: i32): void {
  completedDepth = depth;
  bestMove = rootMove(0);
  bestScore = rootScore(0);
  ponderMove = rootPvLength(0) > 1 ? rootPvMove(0, 1) : MOVE_NONE;
}

// ---------------------------------------------------------------- helper threads
// Lazy SMP: every helper searches the same root as the main thread with its own histories,
// killers and stacks (its arena), and shares only the transposition table, where the main
// thread finds what the helpers learnt. To spread the threads over different depths, helper
// i skips some iterations, in Stockfish 10's pattern: a window of SKIP_SIZE depths on, then
// as many off, shifted by SKIP_PHASE (helper 1 searches every other depth, helper 2 the
// others, ...).
const SKIP_SIZE: StaticArray<i32> = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: StaticArray<i32> = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/** True when helper `index` (1 and up) skips the iteration at depth. */
function skipsDepth(index: i32, depth: i32): bool {
  const i = (index - 1) % 20;
  return ((depth + gamePly + unchecked(SKIP_PHASE[i])) / unchecked(SKIP_SIZE[i])) % 2 != 0;
}

/** A helper thread's search: iterative deepening over the root moves to the depth limit,
 *  skipping its depths, one line, no reports, no time of its own. It ends when the main
 *  thread (or the host) stops it; its work reaches the main thread through the table. */
export function thinkHelper(): void {
  startControl(false);
  resetSelDepth();
  completedDepth = 0;
  bestMove = MOVE_NONE;
  initRootMoves();
  for (let depth = 1; depth <= limitDepth && rootCount > 0 && !stopped; depth++) {
    if (depth > 1 && skipsDepth(threadIndex, depth)) continue;
    for (let i = 0; i < rootCount; i++) store<i32>(entry(i), rootScore(i), PREV_SCORE);
    resetSelDepth();
    aspirationSearch(depth, 0);
    if (stopped) break;
    completedDepth = depth;
    setMoveReady();
    takeResult();
  }
  publishOwnNodes();
}

/** No legal move: the score is mate or stalemate, reported once. */
export function reportNoMove(): void {
  bestScore = inCheck() ? matedIn(0) : VALUE_DRAW;
  infoDepth = 0;
  infoSelDepth = 0;
  infoMultiPv = 1;
  infoScore = bestScore;
  infoBound = BOUND_EXACT;
  infoPvIndex = -1;
  hostInfo();
}

/** Keeps the best lines of the iteration just completed for the skill's choice. */
function keepSkillLines(lines: i32): void {
  skillCount = min(lines, SKILL_LINES);
  for (let i = 0; i < skillCount; i++) {
    store<u16>(ARENA + (<usize>i << 1), rootMove(i), ARENA_SKILL_MOVES);
    store<u16>(ARENA + (<usize>i << 1), rootPvLength(i) > 1 ? rootPvMove(i, 1) : MOVE_NONE, ARENA_SKILL_PONDERS);
    store<i32>(ARENA + (<usize>i << 2), rootScore(i), ARENA_SKILL_SCORES);
  }
}

/** Plays the line the skill level chooses among those kept. */
function playSkillLine(): void {
  const k = skillPick(ARENA + ARENA_SKILL_SCORES, skillCount, hostNow());
  bestMove = load<u16>(ARENA + (<usize>k << 1), ARENA_SKILL_MOVES);
  ponderMove = load<u16>(ARENA + (<usize>k << 1), ARENA_SKILL_PONDERS);
  bestScore = load<i32>(ARENA + (<usize>k << 2), ARENA_SKILL_SCORES);
}

function takeResult(): void {
  bestMove = rootMove(0);
  bestScore = shownScore(0, rootScore(0));
  ponderMove = rootPvLength(0) > 1 ? rootPvMove(0, 1) : MOVE_NONE;
}

/** After a stop: the interrupted iteration's best move counts when it was fully searched
 *  and scored better than the last completed iteration's best. */
function adoptInterruptedIteration(prevBest: i32): void {
  if (completedDepth == 0 || (rootScore(0) > prevBest && rootScore(0) > -VALUE_INFINITE)) {
    if (rootScore(0) > -VALUE_INFINITE) takeResult();
  }
}

/** Clears the per-game search memory that is not in the TT (killers and PV state). */
export function resetSearchState(): void {
  for (let i = 0; i < MAX_PLY; i++) clearKillers(i);
  bestMoveChanges = 0;
}
