// Move notation both ways: UCI long algebraic (e2e4, e7e8q, e1g1) and SAN (Nbd7, exd6, O-O, e8=Q#).

import {
  Move, MOVE_NONE, MOVE_NULL, PAWN, KNIGHT, KING, PROMOTION, EN_PASSANT, CASTLING, fromSq, toSq, moveFlag, promotionType, typeOf, fileOf, rankOf,
} from "./types";
import { pieceOn, doMove, undoMove, inCheck } from "./position";
import { generateMoves, countLegalMoves, moveAt, GEN_ALL, MAX_MOVES } from "./movegen";
import { squareName } from "./fen";

// A private move list, so that notation never disturbs the search's per-ply lists.
const list: usize = memory.data(MAX_MOVES * 2, 16);
const PROMO_CHARS = "  nbrq";
const SAN_PIECES = "  NBRQK";

/** UCI text of a move ("0000" for no move). */
export function moveToUci(m: Move): string {
  if (m == MOVE_NONE || m == MOVE_NULL) return "0000";
  let s = squareName(fromSq(m)) + squareName(toSq(m));
  if (moveFlag(m) == PROMOTION) s += PROMO_CHARS.charAt(promotionType(m));
  return s;
}

/** The legal move the UCI text names in the current position, or MOVE_NONE. */
export function parseUciMove(text: string): Move {
  const n = generateMoves(GEN_ALL, list);
  for (let i = 0; i < n; i++) {
    const m = moveAt(list, i);
    if (moveToUci(m) == text) return m;
  }
  // Accept an upper-case promotion letter (e7e8Q) as some clients send it.
  if (text.length == 5) {
    const lower = text.substring(0, 4) + text.charAt(4).toLowerCase();
    if (lower != text) return parseUciMove(lower);
  }
  return MOVE_NONE;
}

/** Number of legal moves, and the i-th of them, for listing (order: generation order). */
export function legalMoveCount(): i32 {
  return generateMoves(GEN_ALL, list);
}
export function legalMoveAt(i: i32): Move {
  return moveAt(list, i);
}

function checkSuffix(m: Move): string {
  doMove(m);
  let s = "";
  if (inCheck()) s = countLegalMoves() == 0 ? "#" : "+";
  undoMove(m);
  return s;
}

function disambiguation(m: Move, n: i32): string {
  const from = fromSq(m);
  const to = toSq(m);
  const pt = typeOf(pieceOn(from));
  let sameFile = false;
  let sameRank = false;
  let other = false;
  for (let i = 0; i < n; i++) {
    const o = moveAt(list, i);
    const oFrom = fromSq(o);
    if (o == m || toSq(o) != to || oFrom == from || typeOf(pieceOn(oFrom)) != pt) continue;
    other = true;
    if (fileOf(oFrom) == fileOf(from)) sameFile = true;
    if (rankOf(oFrom) == rankOf(from)) sameRank = true;
  }
  if (!other) return "";
  if (!sameFile) return squareName(from).charAt(0);
  if (!sameRank) return squareName(from).charAt(1);
  return squareName(from);
}

/** SAN of a legal move in the current position. */
export function moveToSan(m: Move): string {
  const from = fromSq(m);
  const to = toSq(m);
  let s: string;
  if (moveFlag(m) == CASTLING) {
    s = to > from ? "O-O" : "O-O-O";
  } else {
    const pt = typeOf(pieceOn(from));
    const capture = moveFlag(m) == EN_PASSANT || pieceOn(to) != 0;
    if (pt == PAWN) {
      s = capture ? squareName(from).charAt(0) + "x" : "";
      s += squareName(to);
      if (moveFlag(m) == PROMOTION) s += "=" + SAN_PIECES.charAt(promotionType(m));
    } else {
      s = SAN_PIECES.charAt(pt) + disambiguation(m, generateMoves(GEN_ALL, list));
      s += (capture ? "x" : "") + squareName(to);
    }
  }
  return s + checkSuffix(m);
}

/** Strips check/mate marks, annotations and capture signs that SAN readers must tolerate. */
function normalizeSan(text: string): string {
  let s = text.trim();
  while (s.length > 0) {
    const c = s.charAt(s.length - 1);
    if (c == "+" || c == "#" || c == "!" || c == "?") s = s.substring(0, s.length - 1);
    else break;
  }
  if (s.endsWith("e.p.")) s = s.substring(0, s.length - 4).trim();
  return s.replaceAll("0", "O");
}

/** How many legal moves the last parseSan text matched: 0 (illegal or malformed), 1, or
 *  more (ambiguous). */
export let sanMatchCount: i32 = 0;

/** The legal move a SAN text names in the current position, or MOVE_NONE when none or more
 *  than one match (sanMatchCount tells which). */
export function parseSan(text: string): Move {
  sanMatchCount = 0;
  const san = normalizeSan(text);
  if (san.length < 2) return MOVE_NONE;
  const n = generateMoves(GEN_ALL, list);
  let found: Move = MOVE_NONE;
  for (let i = 0; i < n; i++) {
    const m = moveAt(list, i);
    if (sanMatches(m, san)) {
      sanMatchCount++;
      found = m;
    }
  }
  return sanMatchCount == 1 ? found : MOVE_NONE;
}

function sanMatches(m: Move, san: string): bool {
  const from = fromSq(m);
  const to = toSq(m);
  if (moveFlag(m) == CASTLING) return san == (to > from ? "O-O" : "O-O-O");
  let s = san;
  // Promotion suffix: "=Q" or "Q" (any case).
  let promo = 0;
  const pIdx = "NBRQ".indexOf(s.charAt(s.length - 1).toUpperCase());
  if (pIdx >= 0 && s.length >= 3) {
    const before = s.charCodeAt(s.length - 2);
    if (before == 61 || isRankChar(before)) {
      promo = pIdx + KNIGHT;
      s = s.substring(0, s.length - (before == 61 ? 2 : 1));
    }
  }
  if (moveFlag(m) == PROMOTION ? promo != promotionType(m) : promo != 0) return false;
  if (s.length < 2 || s.substring(s.length - 2) != squareName(to)) return false;
  s = s.substring(0, s.length - 2);
  if (s.endsWith("x") || s.endsWith(":")) s = s.substring(0, s.length - 1);
  const pt = typeOf(pieceOn(from));
  let want = PAWN;
  if (s.length > 0) {
    const idx = SAN_PIECES.indexOf(s.charAt(0));
    if (idx >= KNIGHT && idx <= KING) {
      want = idx;
      s = s.substring(1);
    }
  }
  if (pt != want) return false;
  // What remains is the disambiguation: a file, a rank, or both.
  const fromName = squareName(from);
  if (s.length == 0) return true;
  if (s.length == 1) return s == fromName.charAt(0) || s == fromName.charAt(1);
  return s == fromName;
}

// @ts-ignore: decorator
@inline function isRankChar(c: i32): bool {
  return c >= 49 && c <= 56;
}

/** True when the move m would be a capture in the current position. */
export function isCapture(m: Move): bool {
  return moveFlag(m) == EN_PASSANT || (pieceOn(toSq(m)) != 0 && moveFlag(m) != CASTLING);
}
