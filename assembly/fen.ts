// FEN parsing with a specific error per defect (the position is untouched on error),
// and FEN writing. Castling fields: KQkq, and in Chess960 mode X-FEN (K/Q: the outermost
// rook on that side of the king) and Shredder-FEN (the rook's file, A-H for white, a-h for
// black), mixed freely; written as X-FEN (a file letter only where K/Q would name another rook).

import {
  Color, Piece, Square, WHITE, BLACK, NO_PIECE, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, SQ_NONE,
  WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO, SQ_A1, SQ_E1, SQ_H1, SQ_A8, SQ_E8, SQ_H8,
  makePiece, typeOf, colorOf, fileOf, rankOf, makeSquare,
} from "./types";
import { popcount, squareBB, RANK_1_BB, RANK_8_BB } from "./bitboard";
import { pawnAttacks } from "./attacks";
import {
  clearBoard, putPiece, setState, pieceOn, piecesOf, colorBB, pieces, isAttacked, kingSquare, occupied,
  saveSnapshot, loadSnapshot, setCastlingRook, outermostRook, castlingRookSquare, chess960,
  sideToMove, castlingRights, epSquare, rule50, gamePly,
} from "./position";
import { ARENA, ARENA_SNAPSHOT } from "./arena";

export const START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

// Error codes; fenErrorMessage gives the text.
export const FEN_OK = 0;
export const FEN_EMPTY = 1;
export const FEN_RANK_COUNT = 2;
export const FEN_RANK_LENGTH = 3;
export const FEN_PIECE_LETTER = 4;
export const FEN_KING_COUNT = 5;
export const FEN_PAWN_ON_BACK_RANK = 6;
export const FEN_TOO_MANY_PIECES = 7;
export const FEN_MISSING_FIELD = 8;
export const FEN_SIDE_TO_MOVE = 9;
export const FEN_CASTLING_FIELD = 10;
export const FEN_CASTLING_PLACEMENT = 11;
export const FEN_EP_SQUARE = 12;
export const FEN_EP_NO_PAWN = 13;
export const FEN_HALFMOVE = 14;
export const FEN_FULLMOVE = 15;
export const FEN_OPPONENT_IN_CHECK = 16;
export const FEN_TRAILING = 17;

/** Text of the last parse error, naming the offending part. */
export let fenErrorText: string = "";

const PIECE_CHARS = " PNBRQK  pnbrqk";

function fail(code: i32, text: string): i32 {
  fenErrorText = text;
  return code;
}

function splitFields(fen: string): string[] {
  const fields: string[] = [];
  let start = -1;
  for (let i = 0; i <= fen.length; i++) {
    const c = i < fen.length ? fen.charCodeAt(i) : 32;
    const space = c == 32 || c == 9 || c == 10 || c == 13;
    if (space && start >= 0) {
      fields.push(fen.substring(start, i));
      start = -1;
    } else if (!space && start < 0) {
      start = i;
    }
  }
  return fields;
}

/** Parses a decimal number of at most 9 digits; -1 when the text is not one. */
function parseCount(s: string): i32 {
  if (s.length == 0 || s.length > 9) return -1;
  let v = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** Places the pieces of the board field. A rank of the wrong length is reported with the
 *  number of squares it describes ("rank 3 describes 9 squares, not 8"), long or short. */
function placePieces(board: string): i32 {
  let rank = 7;
  let file = 0; // squares described so far on this rank, possibly more than 8
  for (let i = 0; i < board.length; i++) {
    const ch = board.charCodeAt(i);
    if (ch == 47) {
      // '/'
      if (file != 8) return rankLengthError(rank, file);
      if (--rank < 0) return fail(FEN_RANK_COUNT, "the board has more than 8 ranks");
      file = 0;
    } else if (ch >= 49 && ch <= 56) {
      file += ch - 48;
    } else {
      const idx = PIECE_CHARS.indexOf(String.fromCharCode(ch));
      if (idx <= 0 || ch == 32) return fail(FEN_PIECE_LETTER, "unknown piece letter '" + String.fromCharCode(ch) + "'");
      if (file < 8) putPiece(idx, makeSquare(file, rank));
      file++;
    }
  }
  if (rank > 0) return fail(FEN_RANK_COUNT, "the board has " + (8 - rank).toString() + " ranks, not 8");
  if (file != 8) return rankLengthError(rank, file);
  return FEN_OK;
}

function rankLengthError(rank: i32, squares: i32): i32 {
  return fail(FEN_RANK_LENGTH, "rank " + (rank + 1).toString() + " describes " + squares.toString() + " squares, not 8");
}

/** Checks the kings, the piece counts and the back ranks of the position just placed. */
export function checkMaterial(): i32 {
  for (let c = WHITE; c <= BLACK; c++) {
    const side = c == WHITE ? "white" : "black";
    const kings = popcount(piecesOf(c, KING));
    if (kings != 1) return fail(FEN_KING_COUNT, side + " has " + kings.toString() + " kings, not 1");
    if (popcount(colorBB(c)) > 16) return fail(FEN_TOO_MANY_PIECES, side + " has more than 16 pieces");
    if (popcount(piecesOf(c, PAWN)) > 8) return fail(FEN_TOO_MANY_PIECES, side + " has more than 8 pawns");
  }
  if (pieces(PAWN) & (RANK_1_BB | RANK_8_BB)) return fail(FEN_PAWN_ON_BACK_RANK, "a pawn stands on the first or eighth rank");
  return FEN_OK;
}

/** Reads the castling field into rights, naming each right's rook with setCastlingRook.
 *  Returns the rights, or -1 for letters that are not castling letters or repeat a right, or
 *  -2 when the king and rooks do not stand where the field needs them (in standard mode: the
 *  king on e1/e8 and the rooks in the corners). */
function parseCastling(field: string): i32 {
  if (field == "-") return 0;
  let rights = 0;
  for (let i = 0; i < field.length; i++) {
    const ch = field.charCodeAt(i);
    const c = ch >= 97 ? BLACK : WHITE;
    const lower = ch | 0x20;
    let rook = SQ_NONE;
    let kingside = true;
    const k = kingSquare(c);
    if (lower == 107 || lower == 113) {
      // K or Q (X-FEN): the outermost rook on that side.
      kingside = lower == 107;
      rook = outermostRook(c, kingside);
    } else if (lower >= 97 && lower <= 104) {
      // A file letter (Shredder-FEN): the rook on that file of the back rank.
      rook = makeSquare(lower - 97, c * 7);
      if (pieceOn(rook) != makePiece(c, ROOK) || rankOf(k) != c * 7 || fileOf(rook) == fileOf(k)) return -2;
      kingside = fileOf(rook) > fileOf(k);
    } else {
      return -1;
    }
    const bit = 1 << ((c << 1) | (kingside ? 0 : 1));
    if (rights & bit) return -1;
    if (rook == SQ_NONE) return -2;
    if (!chess960 && (k != (c == WHITE ? SQ_E1 : SQ_E8) || fileOf(rook) != (kingside ? 7 : 0))) return -2;
    rights |= bit;
    setCastlingRook((c << 1) | (kingside ? 0 : 1), rook);
  }
  return rights;
}

/** True when the kings and rooks stand where standard chess's castling rights need them
 *  (the king on e1/e8, the rooks in the corners). */
export function castlingFits(rights: i32): bool {
  const wk = makePiece(WHITE, KING);
  const bk = makePiece(BLACK, KING);
  const wr = makePiece(WHITE, ROOK);
  const br = makePiece(BLACK, ROOK);
  if (rights & (WHITE_OO | WHITE_OOO) && pieceOn(SQ_E1) != wk) return false;
  if (rights & (BLACK_OO | BLACK_OOO) && pieceOn(SQ_E8) != bk) return false;
  if (rights & WHITE_OO && pieceOn(SQ_H1) != wr) return false;
  if (rights & WHITE_OOO && pieceOn(SQ_A1) != wr) return false;
  if (rights & BLACK_OO && pieceOn(SQ_H8) != br) return false;
  if (rights & BLACK_OOO && pieceOn(SQ_A8) != br) return false;
  return true;
}

/** Parses the en-passant field; returns the square, SQ_NONE, or -1 and sets the error. */
function parseEp(field: string, stm: Color): i32 {
  if (field == "-") return SQ_NONE;
  if (field.length != 2) return -fail(FEN_EP_SQUARE, "en-passant field '" + field + "' is not a square");
  const f = field.charCodeAt(0) - 97;
  const r = field.charCodeAt(1) - 49;
  if (f < 0 || f > 7 || r < 0 || r > 7) return -fail(FEN_EP_SQUARE, "en-passant field '" + field + "' is not a square");
  const want = stm == WHITE ? 5 : 2;
  if (r != want) return -fail(FEN_EP_SQUARE, "en-passant square " + field + " is not on the " + (stm == WHITE ? "6th" : "3rd") + " rank");
  const ep = makeSquare(f, r);
  const them = stm ^ 1;
  const pawnSq = stm == WHITE ? ep - 8 : ep + 8;
  const origin = stm == WHITE ? ep + 8 : ep - 8;
  if (pieceOn(pawnSq) != makePiece(them, PAWN) || pieceOn(ep) != NO_PIECE || pieceOn(origin) != NO_PIECE) {
    return -fail(FEN_EP_NO_PAWN, "no pawn can have just moved past " + field);
  }
  return ep;
}

function parseFields(fields: string[]): i32 {
  if (fields.length == 0) return fail(FEN_EMPTY, "empty FEN");
  const err = placePieces(fields[0]);
  if (err) return err;
  const mat = checkMaterial();
  if (mat) return mat;
  if (fields.length < 4) return fail(FEN_MISSING_FIELD, "FEN needs the side to move, castling and en-passant fields");
  if (fields.length > 6) return fail(FEN_TRAILING, "unexpected text after the FEN: '" + fields[6] + "'");
  const side = fields[1];
  if (side != "w" && side != "b") return fail(FEN_SIDE_TO_MOVE, "side to move must be 'w' or 'b', not '" + side + "'");
  const stm = side == "w" ? WHITE : BLACK;
  const rights = parseCastling(fields[2]);
  if (rights == -1) {
    return fail(FEN_CASTLING_FIELD, "castling field must be '-' or letters from 'KQkq'" + (chess960 ? " or rook files 'A'-'H', 'a'-'h'" : "") + ", each right once, not '" + fields[2] + "'");
  }
  if (rights < 0) {
    return fail(FEN_CASTLING_PLACEMENT, "castling rights '" + fields[2] + "' do not match the king and rook squares" + (chess960 ? "" : " (Chess960 castling needs Chess960 mode)"));
  }
  let ep = parseEp(fields[3], stm);
  if (ep < 0) return -ep;
  const halfmove = fields.length > 4 ? parseCount(fields[4]) : 0;
  if (halfmove < 0 || halfmove > 9999) {
    return fail(FEN_HALFMOVE, "halfmove clock must be an integer from 0 to 9999, not '" + fields[4] + "'");
  }
  const fullmove = fields.length > 5 ? parseCount(fields[5]) : 1;
  if (fullmove < 0) return fail(FEN_FULLMOVE, "fullmove number must be a positive integer, not '" + fields[5] + "'");
  // The en-passant square is kept only when a pawn of the side to move attacks it.
  if (ep != SQ_NONE && (pawnAttacks(stm ^ 1, ep) & piecesOf(stm, PAWN)) == 0) ep = SQ_NONE;
  setState(stm, rights, ep, halfmove, 2 * (max(fullmove, 1) - 1) + stm);
  if (isAttacked(kingSquare(stm ^ 1), stm, occupied())) return fail(FEN_OPPONENT_IN_CHECK, "the side not to move is in check");
  return FEN_OK;
}

/** Sets the position from a FEN. On error the previous position stays, and the code
 *  (FEN_*) is returned with the text in fenErrorText. */
export function parseFen(fen: string): i32 {
  const snapshot = ARENA + ARENA_SNAPSHOT;
  saveSnapshot(snapshot);
  clearBoard();
  const err = parseFields(splitFields(fen));
  if (err != FEN_OK) loadSnapshot(snapshot);
  else fenErrorText = "";
  return err;
}

/** The FEN of the current position. */
export function makeFen(): string {
  let s = "";
  for (let r = 7; r >= 0; r--) {
    let empty = 0;
    for (let f = 0; f < 8; f++) {
      const pc = pieceOn(makeSquare(f, r));
      if (pc == NO_PIECE) {
        empty++;
        continue;
      }
      if (empty) s += empty.toString();
      empty = 0;
      s += PIECE_CHARS.charAt(pc);
    }
    if (empty) s += empty.toString();
    if (r) s += "/";
  }
  s += sideToMove == WHITE ? " w " : " b ";
  s += castlingField();
  s += " " + squareName(epSquare) + " " + rule50.toString() + " " + (gamePly / 2 + 1).toString();
  return s;
}

/** The castling field: "-", or for each right K, Q, k, q when the castling rook is the
 *  outermost one on its side (always in standard chess), else the rook's file (X-FEN). */
function castlingField(): string {
  if (castlingRights == 0) return "-";
  let s = "";
  for (let i = 0; i < 4; i++) {
    if ((castlingRights & (1 << i)) == 0) continue;
    const c = i >> 1;
    const rook = castlingRookSquare(i);
    let ch = rook == outermostRook(c, (i & 1) == 0) ? ((i & 1) == 0 ? 75 : 81) : 65 + fileOf(rook);
    if (c == BLACK) ch |= 0x20;
    s += String.fromCharCode(ch);
  }
  return s;
}

/** Algebraic name of a square ("e4"), or "-" for SQ_NONE. */
export function squareName(sq: Square): string {
  if (sq == SQ_NONE) return "-";
  return String.fromCharCode(97 + fileOf(sq)) + String.fromCharCode(49 + rankOf(sq));
}
