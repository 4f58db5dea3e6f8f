// The wasm module's exports: the small API the TypeScript bindings are built on.

import { Move, MOVE_NONE } from "./types";
import {
  key, doMove, compactHistory, canPush, stateCount, HISTORY_MAX, validate, checkers,
  inCheck, isRepetition, insufficientMaterial, rule50,
} from "./position";
import { parseFen, makeFen, fenErrorText, START_FEN } from "./fen";
import { perft as runPerft, divide as runDivide, divideSize, divideMove, divideCount, PERFT_MAX_DEPTH } from "./perft";
import { moveToUci, parseUciMove, parseSan, moveToSan, legalMoveCount, legalMoveAt } from "./notation";
import { SLIDER_BACKEND } from "./config";
import { sliderTableBytes as tableBytes } from "./attacks";

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
  if (stateCount >= HISTORY_MAX) compactHistory();
  if (canPush()) doMove(m);
}

/** Legal moves of the current position in UCI notation, separated by spaces. */
export function legalMovesUci(): string {
  const n = legalMoveCount();
  const parts = new Array<string>(n);
  for (let i = 0; i < n; i++) parts[i] = moveToUci(legalMoveAt(i));
  return parts.join(" ");
}

/** SAN of a legal UCI move, or "" when it is not legal. */
export function uciToSan(text: string): string {
  const m = parseUciMove(text);
  return m == MOVE_NONE ? "" : moveToSan(m);
}

/** UCI text of the legal move a SAN names, or "" when none (or ambiguous). */
export function sanToUci(text: string): string {
  const m = parseSan(text);
  return m == MOVE_NONE ? "" : moveToUci(m);
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

/** The slider backend of this build: 0 magic, 1 rotated, 2 obstruction difference, 3 ray walk. */
export function sliderBackend(): i32 {
  return SLIDER_BACKEND;
}

/** Bytes of the slider backend's lookup data (attack tables and per-square records). */
export function sliderTableBytes(): i32 {
  return tableBytes();
}

setStartPosition();
