// Core chess types and their encodings: colours, pieces, squares, castling rights and moves.

export type Bitboard = u64;
export type Square = i32;
export type Color = i32;
export type PieceType = i32;
export type Piece = i32;
export type Move = u16;
export type Key = u64;

export const WHITE: Color = 0;
export const BLACK: Color = 1;
export const COLOR_NB = 2;

// Piece types; index 0 of the by-type bitboards holds all pieces.
export const ALL_PIECES: PieceType = 0;
export const PAWN: PieceType = 1;
export const KNIGHT: PieceType = 2;
export const BISHOP: PieceType = 3;
export const ROOK: PieceType = 4;
export const QUEEN: PieceType = 5;
export const KING: PieceType = 6;
export const PIECE_TYPE_NB = 7;

// A piece is (colour << 3) | type, so white pieces are 1..6 and black pieces 9..14.
export const NO_PIECE: Piece = 0;
export const PIECE_NB = 16;

/** Builds a piece from its colour and type. */
// @ts-ignore: decorator
@inline export function makePiece(c: Color, pt: PieceType): Piece {
  return (c << 3) | pt;
}

/** The type of a piece. */
// @ts-ignore: decorator
@inline export function typeOf(pc: Piece): PieceType {
  return pc & 7;
}

/** The colour of a piece (meaningless for NO_PIECE). */
// @ts-ignore: decorator
@inline export function colorOf(pc: Piece): Color {
  return pc >> 3;
}

// Squares: a1 = 0, b1 = 1, ..., h8 = 63.
export const SQ_A1: Square = 0;
export const SQ_C1: Square = 2;
export const SQ_D1: Square = 3;
export const SQ_E1: Square = 4;
export const SQ_F1: Square = 5;
export const SQ_G1: Square = 6;
export const SQ_H1: Square = 7;
export const SQ_A8: Square = 56;
export const SQ_C8: Square = 58;
export const SQ_D8: Square = 59;
export const SQ_E8: Square = 60;
export const SQ_F8: Square = 61;
export const SQ_G8: Square = 62;
export const SQ_H8: Square = 63;
export const SQ_NONE: Square = 64;
export const SQUARE_NB = 64;

/** File index 0..7 (a..h) of a square. */
// @ts-ignore: decorator
@inline export function fileOf(sq: Square): i32 {
  return sq & 7;
}

/** Rank index 0..7 (1..8) of a square. */
// @ts-ignore: decorator
@inline export function rankOf(sq: Square): i32 {
  return sq >> 3;
}

/** The square on the given file and rank. */
// @ts-ignore: decorator
@inline export function makeSquare(file: i32, rank: i32): Square {
  return (rank << 3) | file;
}

/** The rank of a square as seen from the given side (0 = its own back rank). */
// @ts-ignore: decorator
@inline export function relativeRank(c: Color, sq: Square): i32 {
  return (sq >> 3) ^ (c * 7);
}

/** The square mirrored vertically when c is black (a1 <-> a8). */
// @ts-ignore: decorator
@inline export function relativeSquare(c: Color, sq: Square): Square {
  return sq ^ (c * 56);
}

// Castling rights, one bit each; the bit's index (0..3, castlingIndex) names the right in the
// per-position castling tables of position.ts.
export const WHITE_OO = 1;
export const WHITE_OOO = 2;
export const BLACK_OO = 4;
export const BLACK_OOO = 8;
export const ANY_CASTLING = 15;
export const CASTLING_RIGHT_NB = 16;

/** Index (0..3) of a castling right: white O-O, white O-O-O, black O-O, black O-O-O. */
// @ts-ignore: decorator
@inline export function castlingIndex(c: Color, kingside: bool): i32 {
  return (c << 1) | (kingside ? 0 : 1);
}

/** Where the king lands when castling with right index i (g1, c1, g8, c8), in standard chess
 *  and Chess960 alike. */
// @ts-ignore: decorator
@inline export function castlingKingTo(i: i32): Square {
  return ((i >> 1) * 56) | (i & 1 ? 2 : 6);
}

/** Where the rook lands when castling with right index i (f1, d1, f8, d8). */
// @ts-ignore: decorator
@inline export function castlingRookTo(i: i32): Square {
  return ((i >> 1) * 56) | (i & 1 ? 3 : 5);
}

/** The right index of a castling move: its colour from the king's rank, its side from the
 *  king's destination (the g-file for O-O, the c-file for O-O-O). */
// @ts-ignore: decorator
@inline export function castlingIndexOf(m: Move): i32 {
  return ((<i32>m >> 8) & 2) | ((<i32>m & 7) == 2 ? 1 : 0);
}

// Move encoding in 16 bits, as Stockfish lays it out:
//
//   15 14 | 13 12 | 11 ........ 6 | 5 ......... 0
//   flag  | promo |     from      |      to
//
// flag: 0 normal, 1 promotion, 2 en passant, 3 castling. promo: promoted type - KNIGHT.
// Castling is encoded as the king's move to its destination (e1g1, e8c8), also in Chess960,
// where the king may not move at all (g1g1) or land on the castling rook's square; the
// castling rook's square is kept per position (position.ts). The CASTLING flag keeps such a
// move apart from a normal king move between the same squares. UCI text in Chess960 mode is
// king-takes-rook (notation.ts).
export const MOVE_NONE: Move = 0;
export const MOVE_NULL: Move = 65; // b1b1: never a real move
export const NORMAL: i32 = 0;
export const PROMOTION: i32 = 1 << 14;
export const EN_PASSANT: i32 = 2 << 14;
export const CASTLING: i32 = 3 << 14;

/** A normal move (also used for captures and double pushes). */
// @ts-ignore: decorator
@inline export function makeMove(from: Square, to: Square): Move {
  return <Move>((from << 6) | to);
}

/** A move with a flag (EN_PASSANT, CASTLING). */
// @ts-ignore: decorator
@inline export function makeSpecial(from: Square, to: Square, flag: i32): Move {
  return <Move>(flag | (from << 6) | to);
}

/** A promotion to the given piece type. */
// @ts-ignore: decorator
@inline export function makePromotion(from: Square, to: Square, pt: PieceType): Move {
  return <Move>(PROMOTION | ((pt - KNIGHT) << 12) | (from << 6) | to);
}

/** Origin square of a move. */
// @ts-ignore: decorator
@inline export function fromSq(m: Move): Square {
  return (<i32>m >> 6) & 63;
}

/** Destination square of a move. */
// @ts-ignore: decorator
@inline export function toSq(m: Move): Square {
  return <i32>m & 63;
}

/** The move's flag: NORMAL, PROMOTION, EN_PASSANT or CASTLING. */
// @ts-ignore: decorator
@inline export function moveFlag(m: Move): i32 {
  return <i32>m & (3 << 14);
}

/** The piece type a promotion creates. */
// @ts-ignore: decorator
@inline export function promotionType(m: Move): PieceType {
  return ((<i32>m >> 12) & 3) + KNIGHT;
}

// Scores (centipawns) and search depth.
export type Score = i32;
export type Depth = i32;
export const MAX_PLY = 128;
/** Room for the moves of one position (no position with at most 16 pieces a side has more). */
export const MAX_MOVES = 512;
