// Move notation both ways: UCI long algebraic (e2e4, e7e8q, e1g1) and SAN (Nbd7, exd6, O-O, e8=Q#).
// In Chess960 mode UCI castling is king-takes-rook (e1h1, or b1a1 for the king on b1 and the rook
// on a1), as Stockfish writes it with UCI_Chess960; in standard mode it is the king's move (e1g1).

import {
  Move, MOVE_NONE, MOVE_NULL, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PROMOTION, EN_PASSANT, CASTLING, fromSq, toSq, moveFlag, promotionType, typeOf, fileOf, rankOf,
  castlingIndexOf,
} from "./types";
import { pieceOn, doMove, undoMove, inCheck, chess960, castlingRookSquare } from "./position";
import { generateMoves, countLegalMoves, moveAt, GEN_ALL } from "./movegen";
import { squareName } from "./fen";
import { ARENA, ARENA_NOTATION_LIST } from "./arena";

// A private move list in the thread's arena, so that notation never disturbs the search's
// per-ply lists.
// @ts-ignore: decorator
@inline function ownList(): usize {
  return ARENA + ARENA_NOTATION_LIST;
}
const PROMO_CHARS = "  nbrq";
const SAN_PIECES = "  NBRQK";

/** The destination square UCI writes for a move: the castling rook's square for castling in
 *  Chess960 mode, else the move's own destination. */
// @ts-ignore: decorator
@inline function uciTo(m: Move): i32 {
  return chess960 && moveFlag(m) == CASTLING ? castlingRookSquare(castlingIndexOf(m)) : toSq(m);
}

/** UCI text of a move ("0000" for no move). */
export function moveToUci(m: Move): string {
  if (m == MOVE_NONE || m == MOVE_NULL) return "0000";
  let s = squareName(fromSq(m)) + squareName(uciTo(m));
  if (moveFlag(m) == PROMOTION) s += PROMO_CHARS.charAt(promotionType(m));
  return s;
}

/** The legal move the UCI text names in the current position, or MOVE_NONE. An upper-case
 *  promotion letter (e7e8Q) is accepted, as some clients send it. Allocation-free. */
export function parseUciMove(text: string): Move {
  const len = text.length;
  if (len != 4 && len != 5) return MOVE_NONE;
  const from = squareAt(text, 0);
  const to = squareAt(text, 2);
  if (from < 0 || to < 0) return MOVE_NONE;
  let promo = 0;
  if (len == 5) {
    promo = promotionLetter(text.charCodeAt(4) | 0x20);
    if (promo == 0) return MOVE_NONE;
  }
  const n = generateMoves(GEN_ALL, ownList());
  for (let i = 0; i < n; i++) {
    const m = moveAt(ownList(), i);
    if (fromSq(m) == from && uciTo(m) == to && (moveFlag(m) == PROMOTION ? promotionType(m) == promo : promo == 0)) return m;
  }
  return MOVE_NONE;
}

/** The square named by the two characters at i ("e4"), or -1. */
function squareAt(text: string, i: i32): i32 {
  const f = text.charCodeAt(i) - 97;
  const r = text.charCodeAt(i + 1) - 49;
  return <u32>f < 8 && <u32>r < 8 ? r * 8 + f : -1;
}

/** The piece type of a SAN piece letter (N, B, R, Q, K), or 0. */
function pieceLetter(c: i32): i32 {
  return c == 78 ? KNIGHT : c == 66 ? BISHOP : c == 82 ? ROOK : c == 81 ? QUEEN : c == 75 ? KING : 0;
}

/** The piece type of a lower-case promotion letter (n, b, r, q), or 0. */
function promotionLetter(c: i32): i32 {
  return c == 110 ? KNIGHT : c == 98 ? BISHOP : c == 114 ? ROOK : c == 113 ? QUEEN : 0;
}

/** Number of legal moves, and the i-th of them, for listing (order: generation order). */
export function legalMoveCount(): i32 {
  return generateMoves(GEN_ALL, ownList());
}
export function legalMoveAt(i: i32): Move {
  return moveAt(ownList(), i);
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
    const o = moveAt(ownList(), i);
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
    s = fileOf(to) == 6 ? "O-O" : "O-O-O";
  } else {
    const pt = typeOf(pieceOn(from));
    const capture = moveFlag(m) == EN_PASSANT || pieceOn(to) != 0;
    if (pt == PAWN) {
      s = capture ? squareName(from).charAt(0) + "x" : "";
      s += squareName(to);
      if (moveFlag(m) == PROMOTION) s += "=" + SAN_PIECES.charAt(promotionType(m));
    } else {
      s = SAN_PIECES.charAt(pt) + disambiguation(m, generateMoves(GEN_ALL, ownList()));
      s += (capture ? "x" : "") + squareName(to);
    }
  }
  return s + checkSuffix(m);
}

/** The legal move a SAN text names in the current position, or MOVE_NONE (also when
 *  ambiguous: sanMatchCount tells which). Tolerated: check and mate marks and annotations
 *  (+ # ! ?), a trailing "e.p.",
 *  zeros in castling (0-0), "=" left out of a promotion (e8Q) or a lower-case promotion
 *  piece, ":" for "x", and no capture sign. Allocation-free: read from the right, the
 *  promotion, the destination, the capture sign, then the piece and the disambiguation. */
/** How many legal moves the last parseSan text matched: 0 (illegal or malformed), 1, or
 *  more (ambiguous). */
export let sanMatchCount: i32 = 0;

export function parseSan(text: string): Move {
  sanMatchCount = 0;
  let s = 0;
  let e = text.length;
  while (s < e && isBlank(text.charCodeAt(s))) s++;
  while (e > s && isMark(text.charCodeAt(e - 1))) e--;
  if (e - s >= 4 && text.charCodeAt(e - 1) == 46 && text.charCodeAt(e - 2) == 112 && text.charCodeAt(e - 3) == 46 && text.charCodeAt(e - 4) == 101) {
    e -= 4; // "e.p."
    while (e > s && isBlank(text.charCodeAt(e - 1))) e--;
  }
  if (e - s < 2) return MOVE_NONE;
  const castle = castlingSide(text, s, e);
  if (castle != 0) return findCastling(castle);
  let promo = 0;
  if (e - s >= 3) {
    const p = promotionLetter(text.charCodeAt(e - 1) | 0x20);
    const before = text.charCodeAt(e - 2);
    if (p != 0 && (before == 61 || isRankChar(before))) {
      promo = p;
      e -= before == 61 ? 2 : 1;
    }
  }
  if (e - s < 2) return MOVE_NONE;
  const to = squareAt(text, e - 2);
  if (to < 0) return MOVE_NONE;
  e -= 2;
  if (e > s && (text.charCodeAt(e - 1) == 120 || text.charCodeAt(e - 1) == 58)) e--; // x or :
  let want = PAWN;
  if (e > s) {
    const idx = pieceLetter(text.charCodeAt(s));
    if (idx != 0) {
      want = idx;
      s++;
    }
  }
  // What remains is the disambiguation: a file, a rank, or both.
  let file = -1;
  let rank = -1;
  if (e - s == 2) {
    const sq = squareAt(text, s);
    if (sq < 0) return MOVE_NONE;
    file = sq & 7;
    rank = sq >> 3;
  } else if (e - s == 1) {
    const c = text.charCodeAt(s);
    if (c >= 97 && c <= 104) file = c - 97;
    else if (isRankChar(c)) rank = c - 49;
    else return MOVE_NONE;
  } else if (e - s > 2) return MOVE_NONE;
  return findMove(want, to, promo, file, rank);
}

/** The one legal move of that piece type to `to` with that promotion, from that file and rank
 *  (-1: any), castling excluded; MOVE_NONE when none or several. */
function findMove(want: i32, to: i32, promo: i32, file: i32, rank: i32): Move {
  const n = generateMoves(GEN_ALL, ownList());
  let found: Move = MOVE_NONE;
  for (let i = 0; i < n; i++) {
    const m = moveAt(ownList(), i);
    const from = fromSq(m);
    if (toSq(m) != to || moveFlag(m) == CASTLING || typeOf(pieceOn(from)) != want) continue;
    if (moveFlag(m) == PROMOTION ? promotionType(m) != promo : promo != 0) continue;
    if ((file >= 0 && fileOf(from) != file) || (rank >= 0 && rankOf(from) != rank)) continue;
    sanMatchCount++;
    found = m;
  }
  return sanMatchCount == 1 ? found : MOVE_NONE;
}

/** 1 for "O-O", 2 for "O-O-O" (letter O or zero), 0 otherwise. */
function castlingSide(text: string, s: i32, e: i32): i32 {
  const len = e - s;
  if (len != 3 && len != 5) return 0;
  for (let i = s; i < e; i++) {
    const c = text.charCodeAt(i);
    if ((i - s) & 1 ? c != 45 : c != 79 && c != 48) return 0;
  }
  return len == 3 ? 1 : 2;
}

function findCastling(side: i32): Move {
  const n = generateMoves(GEN_ALL, ownList());
  for (let i = 0; i < n; i++) {
    const m = moveAt(ownList(), i);
    if (moveFlag(m) == CASTLING && (side == 1) == (fileOf(toSq(m)) == 6)) {
      sanMatchCount = 1;
      return m;
    }
  }
  return MOVE_NONE;
}

// @ts-ignore: decorator
@inline function isBlank(c: i32): bool {
  return c == 32 || c == 9 || c == 10 || c == 13;
}

// @ts-ignore: decorator
@inline function isMark(c: i32): bool {
  return c == 43 || c == 35 || c == 33 || c == 63 || isBlank(c); // + # ! ?
}

// @ts-ignore: decorator
@inline function isRankChar(c: i32): bool {
  return c >= 49 && c <= 56;
}

/** True when the move m would be a capture in the current position. */
export function isCapture(m: Move): bool {
  return moveFlag(m) == EN_PASSANT || (pieceOn(toSq(m)) != 0 && moveFlag(m) != CASTLING);
}
