// The module's exports for positions and moves: FEN in and out, playing and taking back
// moves in UCI and SAN, legal moves, game state (check, repetition, draws), perft and divide.
// The bindings' rules instance (bindings/rules.ts) uses nothing else.

import { Move, MOVE_NONE, MOVE_NULL } from "./types";
import {
  key, doMove, undoMove, compactHistory, canPush, stateCount, validate, checkers, inCheck, isRepetition,
  insufficientMaterial, rule50, lastMove, setChess960 as setChess960Mode, chess960, sideToMove,
} from "./position";
import { parseFen, makeFen, fenErrorText, START_FEN } from "./fen";
import { perft as runPerft, divide as runDivide, divideSize, divideMove, divideCount, PERFT_MAX_DEPTH } from "./perft";
import { moveToUci, parseUciMove, parseSan, sanMatchCount, moveToSan, legalMoveCount, legalMoveAt } from "./notation";
import { seedKeys } from "./zobrist";
import { SLIDER_BACKEND } from "./config";
import { sliderTableBytes as tableBytes } from "./attacks";
import { GAME_MOVES_MAX } from "./arena";

/** Chess960 mode for the positions set up and the UCI moves read and written from now on
 *  (castling as king-takes-rook; X-FEN and Shredder-FEN castling fields). */
export function setChess960(on: bool): void {
  setChess960Mode(on);
}
export function chess960Enabled(): bool {
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

/** Draws the Zobrist keys and hashed perft's lane keys anew from seed (0: the built-in ones);
 *  set the position again after it (its key is stale). */
export function setKeySeed(seed: u64): void {
  seedKeys(seed);
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

/** The side to move: 0 white, 1 black. */
export function sideToMoveValue(): i32 {
  return sideToMove;
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

/** Legal moves of the current position as "<uci> <san>" pairs, separated by spaces. */
export function legalMovesWithSan(): string {
  const n = legalMoveCount();
  const moves = new StaticArray<Move>(n);
  for (let i = 0; i < n; i++) moves[i] = legalMoveAt(i);
  const parts = new Array<string>(n);
  for (let i = 0; i < n; i++) parts[i] = moveToUci(moves[i]) + " " + moveToSan(moves[i]);
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

/** A distributed perft's split, walked in chunks of leaves (perft-split.ts): splitStart(ply),
 *  then splitNext() until it returns 0, reading its records at splitChunk(); splitEnd()
 *  abandons a walk part-way, the position as it was. */
export { splitStart, splitNext, splitChunk, splitEnd } from "./perft-split";

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

/** UCI text of a move (as the engine numbers moves in hostCurrMove). */
export function moveText(m: i32): string {
  return moveToUci(<Move>m);
}

/** Leaf count of the legal move tree to depth (bulk counted at the last ply). */
export function perft(depth: i32): u64 {
  return runPerft(min(depth, PERFT_MAX_DEPTH));
}

/** Perft below each root move; returns the total. */
export function divide(depth: i32): u64 {
  return runDivide(min(depth, PERFT_MAX_DEPTH));
}

/** Hashed perft: perft through the perft table, which lives in the transposition table's
 *  memory (perft-table.ts; the host sizes it and clears it before and after, as the search
 *  table's entries and the perft table's do not mix). */
export function perftHashed(depth: i32): u64 {
  return runPerft(min(depth, PERFT_MAX_DEPTH), true);
}

/** Hashed divide (see perftHashed). */
export function divideHashed(depth: i32): u64 {
  return runDivide(min(depth, PERFT_MAX_DEPTH), true);
}

/** Number of root moves in the last divide. */
export function divideLength(): i32 {
  return divideSize;
}

/** UCI text of root move i of the last divide ("" for an i out of range). */
export function divideMoveUci(i: i32): string {
  return i >= 0 && i < divideSize ? moveToUci(divideMove(i)) : "";
}

/** Count below root move i of the last divide (0 for an i out of range). */
export function divideNodes(i: i32): u64 {
  return i >= 0 && i < divideSize ? divideCount(i) : 0;
}

/** Debug check of every position invariant; "" when all hold. */
export function validatePosition(): string {
  return validate();
}

/** The slider backend of this build: 0 magic, 1 rotated, 2 obstruction difference, 3 ray walk. */
export function sliderBackend(): i32 {
  return SLIDER_BACKEND;
}

/** Bytes of the slider backend's lookup data (attack tables and per-square records). */
export function sliderTableBytes(): i32 {
  return tableBytes();
}

/** Test hook: traps (unreachable), so that hosts can test their crash recovery. */
export function trapForTesting(): void {
  unreachable();
}
