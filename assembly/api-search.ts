// The module's exports for searching: the limits of the next search, the options (hash,
// MultiPV, move overhead, skill level, selectivity features, tunable parameters), the search
// itself, its result and info records, the static evaluation and its terms, the win/draw/loss
// model and the bench. The search runs on the position set through api-rules.ts.

import { Move, MOVE_NONE } from "./types";
import { parseUciMove, moveToUci } from "./notation";
import { evaluateWithReport, termScore, termName, lastPhase, lastScale, TERM_NB } from "./eval";
import { mgValue, egValue, VALUE_MATE_IN_MAX_PLY, VALUE_MATED_IN_MAX_PLY } from "./score";
import { setSearchParam as setParam, selDepth } from "./search";
import { setFeatures, features } from "./search-params";
import {
  think, bestMove, ponderMove, bestScore, completedDepth, infoDepth, infoSelDepth, infoMultiPv, infoScore, infoBound,
  infoPvIndex, rootPvMove, rootPvLength, resetSearchState, thinkHelper,
} from "./think";
import { addSearchMove } from "./limits";
import { resizeTable, clearTable, hashfull, hashSizeMb, HASH_DEFAULT_MB } from "./tt";
import { clearHistory } from "./history";
import { searchTimeMs } from "./timeman";
import { skillLevel as level } from "./skill";
import { runBench, BENCH_FENS } from "./bench";
import { searchNodes, searchTbHits, setThread as setSearchThread, threadShared } from "./control";
import { wdlPermille, wdlMaterial } from "./wdl";
import { mctsMode, setMctsMode, mctsThink, clearTree, setTreeMb as setOwnTreeMb, treeHashfull, treeBytesUsed } from "./mcts";

// ---------------------------------------------------------------- limits and options
// The setters of the limits, MultiPV, the move overhead and the skill level are the core's
// own: the host calls them by these names.
export {
  resetLimits, setDepthLimit, setNodeLimit, setMateLimit, setMoveTimeLimit, setClockLimit, setInfinite, setPondering,
  setMultiPv,
} from "./limits";
export { setMoveOverhead } from "./timeman";
export { setSkillLevel, setSkillSeed } from "./skill";
export {
  paramCount as searchParamCount, paramValue as searchParamValue, paramName as searchParamName,
  paramDefault as searchParamDefault, paramMin as searchParamMin, paramMax as searchParamMax,
} from "./search-params";

/** Restricts the root to this UCI move (searchmoves); false when it is not legal. */
export function addSearchMoveUci(text: string): bool {
  const m = parseUciMove(text);
  if (m == MOVE_NONE) return false;
  addSearchMove(m);
  return true;
}

/** Resizes the transposition table; false when memory cannot grow that far. */
export function setHash(mb: i32): bool {
  return resizeTable(mb);
}
/** The table size in MB (the default before the first search allocates it). */
export function hashMb(): i32 {
  const mb = hashSizeMb();
  return mb != 0 ? mb : HASH_DEFAULT_MB;
}
/** Clears the transposition table and the Monte Carlo search's tree (UCI Clear Hash). */
export function clearHash(): void {
  clearTable();
  clearTree();
}
/** The skill level in effect (0..20, fractions allowed; 20 is full strength), see skill.ts. */
export function skillLevel(): f64 {
  return level();
}
/** Debug: the enabled selectivity features (a bit mask, see search-params.ts). */
export function setSearchFeatures(mask: i32): void {
  setFeatures(mask);
}
export function searchFeatures(): i32 {
  return features;
}
/** Tuning: sets search parameter i (see search-params.ts), clamped to its range; false for
 *  an unknown index. */
export function setSearchParam(i: i32, value: i32): bool {
  return setParam(i, value);
}
/** The search mode: 0 alpha-beta (the default), 1 Monte Carlo tree search (mcts.ts); false
 *  for another value. */
export function setSearchMode(mode: i32): bool {
  if (mode != 0 && mode != 1) return false;
  setMctsMode(mode == 1);
  return true;
}
export function searchMode(): i32 {
  return mctsMode ? 1 : 0;
}
/** The Monte Carlo search's tree budget in MB (the bindings give it the Hash option); the
 *  tree is dropped. */
export function setTreeMb(mb: i32): void {
  setOwnTreeMb(mb);
}
/** Bytes of the Monte Carlo search's tree in use (its memory per visit, bench/mcts.ts). */
export function treeBytes(): u32 {
  return treeBytesUsed();
}
/** Forgets everything learnt in the current game (TT, history, killers, the MCTS tree). */
export function newGame(): void {
  clearTree();
  clearTable();
  clearHistory();
  resetSearchState();
}

// ---------------------------------------------------------------- the search

/** Runs the search with the limits set; info records are announced through hostInfo. */
export function go(): void {
  // With several threads the table is the shared module's: the own one is not made.
  if (!threadShared()) ensureTable();
  if (mctsMode) mctsThink();
  else think();
}

/** Makes this instance thread `index` of a search (0: the main thread, which reports and
 *  decides the move): with the shared module's table and header when `shared` (the host
 *  gives that module's functions as imports), with its own otherwise. */
export function setThread(index: i32, shared: bool): void {
  setSearchThread(index, shared);
}

/** Runs a helper thread's search (Lazy SMP) with the limits set, until the shared stop
 *  request or the depth limit; it reports nothing. */
export function goHelper(): void {
  thinkHelper();
}

/** The table is allocated by the first search (or setHash), not at start-up: an instance
 *  that never searches (the bindings' rules instance) stays small. */
function ensureTable(): void {
  if (hashSizeMb() == 0) resizeTable(HASH_DEFAULT_MB);
}

/** Runs the bench to depth; returns the node signature. */
export function bench(depth: i32): u64 {
  ensureTable();
  return runBench(depth);
}
export function benchPositionCount(): i32 {
  return BENCH_FENS.length;
}
/** The FEN of bench position i ("" for an i out of range). */
export function benchFen(i: i32): string {
  return i >= 0 && i < BENCH_FENS.length ? BENCH_FENS[i] : "";
}

// Results of the last search.
export function resultBestMove(): string {
  return moveToUci(bestMove);
}
export function resultPonderMove(): string {
  return ponderMove == MOVE_NONE ? "" : moveToUci(ponderMove);
}
export function resultScore(): i32 {
  return bestScore;
}
export function resultDepth(): i32 {
  return completedDepth;
}

// The info record announced by hostInfo.
export function infoDepthValue(): i32 {
  return infoDepth;
}
export function infoSelDepthValue(): i32 {
  return infoSelDepth;
}
export function infoMultiPvValue(): i32 {
  return infoMultiPv;
}
/** Score in centipawns, or a mate score (|v| > 31000: plies to mate = 32000 - |v|). */
export function infoScoreValue(): i32 {
  return infoScore;
}
/** 3 exact, 2 lower bound, 1 upper bound. */
export function infoBoundValue(): i32 {
  return infoBound;
}
/** Nodes of the search so far, every thread's. */
export function infoNodes(): u64 {
  return searchNodes();
}
export function infoTimeMs(): f64 {
  return searchTimeMs();
}
export function infoHashfull(): i32 {
  return mctsMode ? treeHashfull() : hashfull();
}
/** Tablebase probes of the search so far that answered, every thread's. */
export function infoTbHits(): u64 {
  return searchTbHits();
}
/** The principal variation of the reported line, in UCI notation. */
export function infoPv(): string {
  if (infoPvIndex < 0) return "";
  const n = rootPvLength(infoPvIndex);
  const parts = new Array<string>(n);
  for (let i = 0; i < n; i++) parts[i] = moveToUci(<Move>rootPvMove(infoPvIndex, i));
  return parts.join(" ");
}
/** The seldepth of the line being searched (for currmove reports). */
export function currentSelDepth(): i32 {
  return selDepth;
}

// ---------------------------------------------------------------- evaluation

/** Static evaluation from the side to move's view, in centipawns. */
export function evaluatePosition(): i32 {
  return evaluateWithReport();
}
/** Name of evaluation term t (0 <= t < TERM_NB), "" for another t. */
export function evalTermName(t: i32): string {
  return t >= 0 && t < TERM_NB ? termName(t) : "";
}
/** Midgame (part 0) or endgame (part 1) value of an evaluation term for a colour, from
 *  white's view, after evaluatePosition. */
export function evalTerm(term: i32, color: i32, part: i32): i32 {
  if (term < 0 || term >= TERM_NB || color < 0 || color > 1) return 0;
  const s = termScore(term, color);
  return part == 0 ? mgValue(s) : egValue(s);
}
export function evalPhase(): i32 {
  return lastPhase;
}
export function evalScale(): i32 {
  return lastScale;
}

/** Win (part 0), draw (1) or loss (2) chance in permille, for the side to move, of a score in
 *  the current position (the model of wdl.ts; found mates are certain). */
export function scoreWdl(score: i32, part: i32): i32 {
  if (score >= VALUE_MATE_IN_MAX_PLY) return part == 0 ? 1000 : 0;
  if (score <= VALUE_MATED_IN_MAX_PLY) return part == 2 ? 1000 : 0;
  return wdlPermille(score, wdlMaterial(), part);
}
