// The 32-byte position record of self-play data, "marlinformat" (marlinflow's format, read by
// bullet and written by many engines), packed from and unpacked into the current position.
//
//   offset  type     field
//    0      u64      occupancy (bit i = square i, a1 = 0, h8 = 63)
//    8      u8[16]   one 4-bit code per occupied square, lowest square first, even index in the
//                    low nibble: colour << 3 | type, type 0 pawn, 1 knight, 2 bishop, 3 rook,
//                    4 queen, 5 king, 6 a rook that may still castle
//   24      u8       side to move << 7 | en-passant square (64: none)
//   25      u8       halfmove clock (plies since the last capture or pawn move)
//   26      u16      fullmove number
//   28      i16      search score, white's view, centipawns
//   30      u8       game result: 0 black won, 1 draw, 2 white won
//   31      u8       unused, 0
//
// All multi-byte fields are little-endian (wasm's own order).

import {
  Piece, Square, WHITE, NO_PIECE, PAWN, ROOK, SQ_NONE, SQ_A1, SQ_H1, SQ_A8, SQ_H8,
  WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO, makePiece, typeOf, colorOf, rankOf,
} from "./types";
import { popcount } from "./bitboard";
import { pawnAttacks } from "./attacks";
import {
  occupied, pieceOn, piecesOf, putPiece, clearBoard, setState, isAttacked, kingSquare,
  sideToMove, castlingRights, epSquare, rule50, gamePly, saveSnapshot, loadSnapshot,
} from "./position";
import { ARENA, ARENA_SNAPSHOT } from "./arena";
import { checkMaterial, castlingFits, fenErrorText } from "./fen";

export const RECORD_BYTES: usize = 32;
const CASTLING_ROOK = 6;

export const RESULT_BLACK_WIN = 0;
export const RESULT_DRAW = 1;
export const RESULT_WHITE_WIN = 2;

// Error codes of unpackRecord; recordErrorText names the defect.
export const RECORD_OK = 0;
export const RECORD_PIECE_COUNT = 1;
export const RECORD_PIECE_CODE = 2;
export const RECORD_MATERIAL = 3;
export const RECORD_CASTLING = 4;
export const RECORD_EP_SQUARE = 5;
export const RECORD_SIDE_IN_CHECK = 6;
export const RECORD_RESULT = 7;

export let recordErrorText: string = "";

function fail(code: i32, text: string): i32 {
  recordErrorText = text;
  return code;
}

/** The 4-bit code of the piece on sq. */
function pieceCode(pc: Piece, sq: Square): u32 {
  let code = <u32>typeOf(pc) - 1;
  if (typeOf(pc) == ROOK) {
    const rights = castlingRights;
    if ((sq == SQ_H1 && (rights & WHITE_OO)) || (sq == SQ_A1 && (rights & WHITE_OOO)) ||
      (sq == SQ_H8 && (rights & BLACK_OO)) || (sq == SQ_A8 && (rights & BLACK_OOO))) code = CASTLING_ROOK;
  }
  return (<u32>colorOf(pc) << 3) | code;
}

/** Writes the current position with its score (white's view) and result to buf. */
export function packRecord(buf: usize, score: i32, result: i32): void {
  const occ = occupied();
  store<u64>(buf, occ);
  memory.fill(buf + 8, 0, 16);
  let b = occ;
  let i: usize = 0;
  while (b) {
    const sq = <i32>ctz(b);
    b &= b - 1;
    const at = buf + 8 + (i >> 1);
    store<u8>(at, load<u8>(at) | <u8>(pieceCode(pieceOn(sq), sq) << (<u32>(i & 1) << 2)));
    i++;
  }
  store<u8>(buf, <u8>((sideToMove << 7) | (epSquare == SQ_NONE ? 64 : epSquare)), 24);
  store<u8>(buf, <u8>min(rule50, 255), 25);
  store<u16>(buf, <u16>(gamePly / 2 + 1), 26);
  store<i16>(buf, <i16>min(max(score, -32767), 32767), 28);
  store<u8>(buf, <u8>result, 30);
  store<u8>(buf, 0, 31);
}

/** Sets the position from the record at buf. On error the previous position stays, and the
 *  code (RECORD_*) is returned with the text in recordErrorText. */
export function unpackRecord(buf: usize): i32 {
  const snapshot = ARENA + ARENA_SNAPSHOT;
  saveSnapshot(snapshot);
  const err = unpackInto(buf);
  if (err != RECORD_OK) loadSnapshot(snapshot);
  else recordErrorText = "";
  return err;
}

function unpackInto(buf: usize): i32 {
  const occ = load<u64>(buf);
  const count = popcount(occ);
  if (count > 32) return fail(RECORD_PIECE_COUNT, "occupancy has " + count.toString() + " squares, more than 32");
  clearBoard();
  let rights = 0;
  let b = occ;
  let i: usize = 0;
  while (b) {
    const sq = <i32>ctz(b);
    b &= b - 1;
    const code = (<i32>load<u8>(buf + 8 + (i >> 1)) >> (<i32>(i & 1) << 2)) & 15;
    i++;
    const type = code & 7;
    if (type == 7) return fail(RECORD_PIECE_CODE, "piece code " + code.toString() + " is not a piece");
    const color = code >> 3;
    if (type == CASTLING_ROOK) {
      const right = castlingRight(sq, color);
      if (right == 0) return fail(RECORD_CASTLING, "a castling rook stands off its corner");
      rights |= right;
    }
    putPiece(makePiece(color, type == CASTLING_ROOK ? ROOK : type + 1), sq);
  }
  if (checkMaterial() != 0) return fail(RECORD_MATERIAL, fenErrorText);
  if (!castlingFits(rights)) return fail(RECORD_CASTLING, "a castling rook without its king on the e-file");
  const stmEp = <i32>load<u8>(buf, 24);
  const stm = stmEp >> 7;
  let ep = stmEp & 127;
  if (ep == 64) ep = SQ_NONE;
  else if (ep > 64 || !epFits(ep, stm)) return fail(RECORD_EP_SQUARE, "en-passant square " + ep.toString() + " does not fit the position");
  // The en-passant square is kept only when a pawn of the side to move attacks it.
  if (ep != SQ_NONE && (pawnAttacks(stm ^ 1, ep) & piecesOf(stm, PAWN)) == 0) ep = SQ_NONE;
  const result = <i32>load<u8>(buf, 30);
  if (result > RESULT_WHITE_WIN) return fail(RECORD_RESULT, "result " + result.toString() + " is not 0, 1 or 2");
  const fullmove = max(<i32>load<u16>(buf, 26), 1);
  setState(stm, rights, ep, <i32>load<u8>(buf, 25), 2 * (fullmove - 1) + stm);
  if (isAttacked(kingSquare(stm ^ 1), stm, occupied())) return fail(RECORD_SIDE_IN_CHECK, "the side not to move is in check");
  return RECORD_OK;
}

function castlingRight(sq: Square, color: i32): i32 {
  if (color == WHITE) return sq == SQ_H1 ? WHITE_OO : sq == SQ_A1 ? WHITE_OOO : 0;
  return sq == SQ_H8 ? BLACK_OO : sq == SQ_A8 ? BLACK_OOO : 0;
}

/** An en-passant square is possible: on the right rank, empty, with the pawn that just
 *  passed it in front and its origin empty. */
function epFits(ep: Square, stm: i32): bool {
  if (rankOf(ep) != (stm == WHITE ? 5 : 2)) return false;
  const pawnSq = stm == WHITE ? ep - 8 : ep + 8;
  const origin = stm == WHITE ? ep + 8 : ep - 8;
  return pieceOn(pawnSq) == makePiece(stm ^ 1, PAWN) && pieceOn(ep) == NO_PIECE && pieceOn(origin) == NO_PIECE;
}

/** Score (white's view) stored in the record at buf. */
// @ts-ignore: decorator
@inline export function recordScore(buf: usize): i32 {
  return <i32>load<i16>(buf, 28);
}

/** Result (RESULT_*) stored in the record at buf. */
// @ts-ignore: decorator
@inline export function recordResult(buf: usize): i32 {
  return <i32>load<u8>(buf, 30);
}
