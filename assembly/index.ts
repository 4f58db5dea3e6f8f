// The wasm module's exports: the small API the TypeScript bindings are built on.

import { Move, MOVE_NONE, MOVE_NULL } from "./types";
import {
  key, doMove, undoMove, compactHistory, canPush, stateCount, validate, checkers,
  inCheck, isRepetition, insufficientMaterial, rule50, lastMove, setChess960, chess960,
} from "./position";
import { parseFen, makeFen, fenErrorText, START_FEN } from "./fen";
import { perft as runPerft, divide as runDivide, divideSize, divideMove, divideCount, PERFT_MAX_DEPTH } from "./perft";
import { moveToUci, parseUciMove, parseSan, sanMatchCount, moveToSan, legalMoveCount, legalMoveAt } from "./notation";
import { SLIDER_BACKEND } from "./config";
import { GAME_MOVES_MAX } from "./arena";
import { sliderTableBytes as tableBytes } from "./attacks";

/** Chess960 mode for the positions set up and the UCI moves read and written from now on
 *  (castling as king-takes-rook; X-FEN and Shredder-FEN castling fields). */
export function optionChess960(on: bool): void {
  setChess960(on);
}
export function chess960Mode(): bool {
  return chess960;
}

/** Sets the position from a FEN; returns 0 or a FEN error code (the old position stays). */
export function setFen(fen: string): i32 {
  return parseFen(fen);
}

/** Text of the last FEN error. */
export function fenError(): string {
  return fenErrorText;
}

/** FEN of the current position. */
export function getFen(): string {
  return makeFen();
}

/** Sets the start position. */
export function setStartPosition(): void {
  parseFen(START_FEN);
}

/** Zobrist key of the current position. */
export function positionKey(): u64 {
  return key;
}

/** Bitboard of the pieces giving check to the side to move. */
export function checkersBB(): u64 {
  return checkers();
}

/** True when the side to move is in check. */
export function sideInCheck(): bool {
  return inCheck();
}

/** True when the current position occurred at least `times` times before (since the last
 *  irreversible move): times = 2 means a threefold repetition. */
export function repetitionCount(times: i32): bool {
  return isRepetition(times);
}

/** True when neither side can possibly mate (K v K, K+minor v K, KNN v K). */
export function deadDraw(): bool {
  return insufficientMaterial();
}

/** Plies since the last capture or pawn move. */
export function halfmoveClock(): i32 {
  return rule50;
}

/** Plays a move given in UCI notation if it is legal; returns false otherwise. */
export function playUciMove(text: string): bool {
  const m = parseUciMove(text);
  if (m == MOVE_NONE) return false;
  play(m);
  return true;
}

/** Plays a move given in SAN if it is legal; returns false otherwise. */
export function playSanMove(text: string): bool {
  const m = parseSan(text);
  if (m == MOVE_NONE) return false;
  play(m);
  return true;
}

function play(m: Move): void {
  if (stateCount >= GAME_MOVES_MAX) compactHistory();
  if (canPush()) doMove(m);
}

/** Takes back the last move played (for tests of make/unmake); false when the history
 *  holds none. The bindings' game record does not see it. */
export function undoLastMove(): bool {
  const m = lastMove();
  if (m == MOVE_NONE || m == MOVE_NULL) return false;
  undoMove(m);
  return true;
}

/** Legal moves of the current position in UCI notation, separated by spaces. */
export function legalMovesUci(): string {
  const n = legalMoveCount();
  const parts = new Array<string>(n);
  for (let i = 0; i < n; i++) parts[i] = moveToUci(legalMoveAt(i));
  return parts.join(" ");
}

/** FEN after the legal UCI move `text`, the position itself unchanged; "" when the move is
 *  not legal (for opening books, which look up the positions a move leads to). */
export function fenAfterMove(text: string): string {
  const m = parseUciMove(text);
  if (m == MOVE_NONE || !canPush()) return "";
  doMove(m);
  const fen = makeFen();
  undoMove(m);
  return fen;
}

/** SAN of a legal UCI move, or "" when it is not legal. */
export function uciToSan(text: string): string {
  const m = parseUciMove(text);
  return m == MOVE_NONE ? "" : moveToSan(m);
}

/** UCI text of the legal move a SAN names, or "" when none or several match (then
 *  sanToUciMatches tells which). */
export function sanToUci(text: string): string {
  const m = parseSan(text);
  return m == MOVE_NONE ? "" : moveToUci(m);
}

/** How many legal moves the last sanToUci text matched (more than 1: ambiguous). */
export function sanToUciMatches(): i32 {
  return sanMatchCount;
}

/** Leaf count of the legal move tree to depth (bulk counted at the last ply). */
export function perft(depth: i32): u64 {
  return runPerft(min(depth, PERFT_MAX_DEPTH));
}

/** Perft below each root move; returns the total. */
export function divide(depth: i32): u64 {
  return runDivide(min(depth, PERFT_MAX_DEPTH));
}

/** Number of root moves in the last divide. */
export function divideLength(): i32 {
  return divideSize;
}

/** UCI text of root move i of the last divide. */
export function divideMoveUci(i: i32): string {
  return moveToUci(divideMove(i));
}

/** Count below root move i of the last divide. */
export function divideNodes(i: i32): u64 {
  return divideCount(i);
}

/** Debug check of every position invariant; "" when all hold. */
export function validatePosition(): string {
  return validate();
}


// ---------------------------------------------------------------- search

import { evaluateWithReport as staticEval, termScore, termName, lastPhase, lastScale, TERM_NB } from "./eval";
import { mgValue, egValue } from "./score";
import {
  think, nodes, selDepth, bestMove as resultMove, ponderMove as resultPonder, bestScore as resultScore,
  completedDepth, infoDepth, infoSelDepth, infoMultiPv, infoScore, infoBound, infoPvIndex,
  rootPvMove, rootPvLength, resetSearchState, setFeatures, features, setSearchParam,
} from "./search";
import {
  resetLimits, setDepthLimit, setNodeLimit, setMateLimit, setMoveTimeLimit, setClockLimit,
  setInfinite, setPondering, setMultiPv, addSearchMove,
} from "./limits";
import { resizeTable, clearTable, hashfull, hashSizeMb, HASH_DEFAULT_MB } from "./tt";
import { clearHistory } from "./history";
import { setMoveOverhead } from "./timeman";
import { setSkillLevel, skillLevel, setSkillSeed } from "./skill";
import { searchTimeMs } from "./timeman";
import { runBench, BENCH_FENS } from "./bench";
import { sideToMove } from "./position";

/** Clears the limits before a new `go`. */
export function limitsReset(): void {
  resetLimits();
}
export function limitDepth(d: i32): void {
  setDepthLimit(d);
}
export function limitNodes(n: u64): void {
  setNodeLimit(n);
}
export function limitMate(moves: i32): void {
  setMateLimit(moves);
}
export function limitMoveTime(ms: i32): void {
  setMoveTimeLimit(ms);
}
/** Clock of the side to move: time left, increment, moves to go (0 = sudden death). */
export function limitClock(timeMs: i32, incMs: i32, movesToGo: i32): void {
  setClockLimit(timeMs, incMs, movesToGo);
}
export function limitInfinite(on: bool): void {
  setInfinite(on);
}
export function limitPonder(on: bool): void {
  setPondering(on);
}
/** Restricts the root to this UCI move (searchmoves); false when it is not legal. */
export function limitSearchMove(text: string): bool {
  const m = parseUciMove(text);
  if (m == MOVE_NONE) return false;
  addSearchMove(m);
  return true;
}

/** Runs the search with the limits set; info records are announced through hostInfo. */
export function go(): void {
  ensureTable();
  think();
}

/** The table is allocated by the first search (or optionHash), not at start-up: an instance
 *  that never searches (the bindings' in-thread rules instance) stays small. */
function ensureTable(): void {
  if (hashSizeMb() == 0) resizeTable(HASH_DEFAULT_MB);
}

export function optionMultiPv(n: i32): void {
  setMultiPv(n);
}
export function optionMoveOverhead(ms: i32): void {
  setMoveOverhead(ms);
}
/** Resizes the transposition table; false when memory cannot grow that far. */
export function optionHash(mb: i32): bool {
  return resizeTable(mb);
}
/** The table size in MB (the default before the first search allocates it). */
export function hashMb(): i32 {
  const mb = hashSizeMb();
  return mb != 0 ? mb : HASH_DEFAULT_MB;
}
export function clearHash(): void {
  clearTable();
}
/** Strength: the skill level 0..20 (fractions allowed; 20 is full strength), see skill.ts. */
export function optionSkillLevel(level: f64): void {
  setSkillLevel(level);
}
export function skillLevelValue(): f64 {
  return skillLevel();
}
/** Seeds the skill level's choices (0: from the clock). */
export function optionSkillSeed(seed: u64): void {
  setSkillSeed(seed);
}
/** Debug: the enabled selectivity features (a bit mask, see search.ts). */
export function optionSearchFeatures(mask: i32): void {
  setFeatures(mask);
}
export function searchFeatures(): i32 {
  return features;
}
/** Tuning: sets search parameter i (see search-params.ts), clamped to its range; false for
 *  an unknown index. */
export function optionSearchParam(i: i32, value: i32): bool {
  return setSearchParam(i, value);
}
export {
  paramCount as searchParamCount, paramValue as searchParamValue, paramName as searchParamName,
  paramDefault as searchParamDefault, paramMin as searchParamMin, paramMax as searchParamMax,
} from "./search-params";
/** Forgets everything learnt in the current game (TT, history, killers). */
export function newGame(): void {
  clearTable();
  clearHistory();
  resetSearchState();
}

// Results of the last search.
export function resultBestMove(): string {
  return moveToUci(resultMove);
}
export function resultPonderMove(): string {
  return resultPonder == MOVE_NONE ? "" : moveToUci(resultPonder);
}
export function resultScoreValue(): i32 {
  return resultScore;
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
export function infoNodes(): u64 {
  return nodes;
}
export function infoTimeMs(): f64 {
  return searchTimeMs();
}
export function infoHashfull(): i32 {
  return hashfull();
}
/** The principal variation of the reported line, in UCI notation. */
export function infoPv(): string {
  if (infoPvIndex < 0) return "";
  const n = rootPvLength(infoPvIndex);
  const parts = new Array<string>(n);
  for (let i = 0; i < n; i++) parts[i] = moveToUci(rootPvMove(infoPvIndex, i));
  return parts.join(" ");
}
export function moveText(m: i32): string {
  return moveToUci(<Move>m);
}
export function currentSelDepth(): i32 {
  return selDepth;
}

// ---------------------------------------------------------------- evaluation and bench

/** Static evaluation from the side to move's view, in centipawns. */
export function evaluatePosition(): i32 {
  return staticEval();
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
export function sideToMoveValue(): i32 {
  return sideToMove;
}

/** Test hook: traps (unreachable), so that hosts can test their crash recovery. */
export function trapForTesting(): void {
  unreachable();
}

/** Runs the bench to depth; returns the node signature. */
export function bench(depth: i32): u64 {
  ensureTable();
  return runBench(depth);
}
export function benchPositionCount(): i32 {
  return BENCH_FENS.length;
}

/** The slider backend of this build: 0 magic, 1 rotated, 2 obstruction difference, 3 ray walk. */
export function sliderBackend(): i32 {
  return SLIDER_BACKEND;
}

/** Bytes of the slider backend's lookup data (attack tables and per-square records). */
export function sliderTableBytes(): i32 {
  return tableBytes();
}

setStartPosition();

// ---------------------------------------------------------------- constants
// Values the bindings use, defined once in the engine and exported as module globals (read
// as `exports.NAME.value`). Those the bindings need before an instance exists are restated
// in TypeScript (bindings/validate.ts, bindings/core.ts) and tests/constants.test.ts checks
// each against its export here.

export { START_FEN } from "./fen";
export { HASH_MIN_MB, HASH_MAX_MB, HASH_DEFAULT_MB } from "./tt";
export { MAX_SEARCH_DEPTH, MULTIPV_MAX, MULTIPV_DEFAULT } from "./limits";
export { MOVE_OVERHEAD_MAX_MS, MOVE_OVERHEAD_DEFAULT_MS } from "./timeman";
export { FEATURE_ALL } from "./search";
export { SKILL_MAX } from "./skill";
export { VALUE_MATE, VALUE_MATE_IN_MAX_PLY } from "./score";
export { POLL_CONTINUE, POLL_STOP, POLL_PONDERHIT } from "./host";
export { TERM_NB } from "./eval";

// ---------------------------------------------------------------- game records

/** Plays the legal move `text` names, in SAN ("Nf3", "exd6", "O-O") or, when `uci` is true,
 *  in UCI ("g1f3"); returns "<uci> <san>", the SAN as the engine writes it (with check and
 *  mate signs), or "" when no legal move matches (or, for SAN, several do). One call per move
 *  for game records and PGN reading. */
export function playNotation(text: string, uci: bool): string {
  const m = uci ? parseUciMove(text) : parseSan(text);
  if (m == MOVE_NONE) return "";
  const out = moveToUci(m) + " " + moveToSan(m);
  play(m);
  return out;
}

/** Legal moves of the current position as "<uci> <san>" pairs, separated by spaces. */
export function legalMovesWithSan(): string {
  const n = legalMoveCount();
  const moves = new StaticArray<Move>(n);
  for (let i = 0; i < n; i++) moves[i] = legalMoveAt(i);
  const parts = new Array<string>(n);
  for (let i = 0; i < n; i++) parts[i] = moveToUci(moves[i]) + " " + moveToSan(moves[i]);
  return parts.join(" ");
}

// ---------------------------------------------------------------- learning data

import { RECORD_BYTES, packRecord, unpackRecord, recordErrorText } from "./packed-board";
import { isCapture } from "./notation";
import { PROMOTION, moveFlag } from "./types";

/** Records the host can read and write at recordBuffer(): RECORD_BYTES (32) each. */
const RECORD_CAPACITY = 4096;
const recordArea: usize = memory.data(RECORD_CAPACITY * <i32>RECORD_BYTES, 16);

/** Address of the record area in memory (records of 32 bytes, see packed-board.ts). */
export function recordBuffer(): usize {
  return recordArea;
}
export function recordCapacity(): i32 {
  return RECORD_CAPACITY;
}
/** Writes the current position with a score (white's view) and result (0 black won, 1 draw,
 *  2 white won) to record slot i. */
export function packPosition(i: i32, score: i32, result: i32): void {
  packRecord(recordArea + <usize>(i & (RECORD_CAPACITY - 1)) * RECORD_BYTES, score, result);
}
/** Sets the position from record slot i; returns 0 or an error code (the old position stays). */
export function unpackPosition(i: i32): i32 {
  return unpackRecord(recordArea + <usize>(i & (RECORD_CAPACITY - 1)) * RECORD_BYTES);
}
/** Text of the last record error. */
export function recordError(): string {
  return recordErrorText;
}
/** True when a legal UCI move is a capture or a promotion. */
export function isNoisyUci(text: string): bool {
  const m = parseUciMove(text);
  return m != MOVE_NONE && (isCapture(m) || moveFlag(m) == PROMOTION);
}

// ---------------------------------------------------------------- tuning

import { traceAvailable, traceRecords, tracePvLeaf, traceWordsFor } from "./tuner";
import { WEIGHT_COUNT, weightName, weightKind, getWeight, setWeight, checkWeightLayout } from "./weights";
import { initParams } from "./params";
import { TRACE } from "./trace";
import { clearPawnTable } from "./pawns";

// Every export below works in the tuning build only (build/wasmchess-tune.wasm, EVAL_TRACE);
// elsewhere they answer nothing, and the compiler drops what they would use.
let traceOut: StaticArray<i32> | null = null;

function traceArea(): StaticArray<i32> {
  if (traceOut == null) traceOut = new StaticArray<i32>(traceWordsFor(RECORD_CAPACITY));
  return traceOut!;
}

/** True in the tuning build (build/wasmchess-tune.wasm), whose evaluation can be traced. */
export function evalTraceAvailable(): bool {
  return traceAvailable();
}
/** Traces record slots 0..count-1 (see tuner.ts for the output); returns the words written,
 *  readable at traceBuffer(). The current position is changed. */
export function traceRecordSlots(count: i32, quiet: bool): i32 {
  return TRACE ? traceRecords(recordArea, min(count, RECORD_CAPACITY), quiet, traceArea()) : 0;
}
/** Traces the quiet leaf of the last search's principal variation. */
export function tracePrincipalLeaf(): i32 {
  return TRACE ? tracePvLeaf(traceArea()) : 0;
}
/** Address of the trace output. */
export function traceBuffer(): usize {
  return TRACE ? changetype<usize>(traceArea()) : 0;
}
export function weightCount(): i32 {
  return TRACE ? WEIGHT_COUNT : 0;
}
export function weightNameAt(i: i32): string {
  return TRACE && i >= 0 && i < WEIGHT_COUNT ? weightName(i) : "";
}
/** 0: packed S(mg, eg); 1: plain integer. */
export function weightKindAt(i: i32): i32 {
  return TRACE ? weightKind(i) : 0;
}
export function weightValue(i: i32): i32 {
  return TRACE && i >= 0 && i < WEIGHT_COUNT ? getWeight(i) : 0;
}
/** Sets weight i; call weightsChanged() after a batch. */
export function setWeightValue(i: i32, v: i32): void {
  if (TRACE && i >= 0 && i < WEIGHT_COUNT) setWeight(i, v);
}
/** Rebuilds the derived tables and forgets cached pawn entries after weights changed. */
export function weightsChanged(): void {
  if (!TRACE) return;
  initParams();
  clearPawnTable();
}
export function weightLayoutError(): string {
  return TRACE ? checkWeightLayout() : "";
}

// ---------------------------------------------------------------- network

import { USE_NNUE } from "./config";
import { loadNetwork, netErrorText, hidden as networkHiddenSize, kingBuckets as networkKingBuckets, INPUTS, netHash, setSimdKernels } from "./nnue";
import { runKernel } from "./nnue-bench";
export { PSQT_MAX } from "./nnue";
import { invalidateAccumulators } from "./accumulator";

// The bytes of a network file being loaded (network build only).
let networkScratch: StaticArray<u8> | null = null;

/** True in the network build (build/wasmchess-nnue.wasm). */
export function networkAvailable(): bool {
  return USE_NNUE;
}
/** Address of room for a network file of len bytes (written by the host, then networkLoad). */
export function networkBuffer(len: i32): usize {
  if (!USE_NNUE || len <= 0 || len > 16 << 20) return 0;
  if (networkScratch == null || networkScratch!.length < len) networkScratch = new StaticArray<u8>(len);
  return changetype<usize>(networkScratch);
}
/** Loads the network file of len bytes written at networkBuffer(len); false (keeping the
 *  network in use) when it is not a valid network file. */
export function networkLoad(len: i32): bool {
  if (!USE_NNUE || networkScratch == null || networkScratch!.length < len) return false;
  if (!loadNetwork(changetype<usize>(networkScratch), len)) return false;
  invalidateAccumulators();
  return true;
}
/** Why the last networkLoad failed. */
export function networkError(): string {
  return netErrorText;
}
/** Hidden size of the network in use (0: none, the hand-crafted evaluation is used). */
export function networkHidden(): i32 {
  return USE_NNUE ? networkHiddenSize : 0;
}
/** Input features of the network in use: 768 per king bucket (0: none). */
export function networkInputs(): i32 {
  return USE_NNUE && networkHiddenSize != 0 ? INPUTS * networkKingBuckets : 0;
}
/** The search's network kernels: SIMD (true, the default) or the scalar references. */
export function networkSimd(on: bool): void {
  if (USE_NNUE) setSimdKernels(on);
}
/** Runs one network kernel (0 refresh, 1 update by the last move, 2 output) `iterations`
 *  times on the current position, SIMD or scalar; a checksum of its result, or -1. */
export function networkKernel(kernel: i32, simd: bool, iterations: i32): i32 {
  return USE_NNUE && networkHiddenSize != 0 ? runKernel(kernel, simd, iterations) : -1;
}
/** Content hash of the network in use. */
export function networkHash(): u32 {
  return USE_NNUE ? netHash : 0;
}

// ---------------------------------------------------------------- win/draw/loss model

import { wdlPermille, wdlMaterial } from "./wdl";
import { VALUE_MATE_IN_MAX_PLY, VALUE_MATED_IN_MAX_PLY } from "./score";

/** Win (part 0), draw (1) or loss (2) chance in permille, for the side to move, of a score in
 *  the current position (the model of wdl.ts; found mates are certain). */
export function scoreWdl(score: i32, part: i32): i32 {
  if (score >= VALUE_MATE_IN_MAX_PLY) return part == 0 ? 1000 : 0;
  if (score <= VALUE_MATED_IN_MAX_PLY) return part == 2 ? 1000 : 0;
  return wdlPermille(score, wdlMaterial(), part);
}
