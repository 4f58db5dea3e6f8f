// Whether a legal move gives check, told from the board before the move is made, so that the
// search can prune a quiet move without making and unmaking it first.

import {
  Move, Bitboard, WHITE, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PROMOTION, EN_PASSANT, CASTLING,
  fromSq, toSq, moveFlag, promotionType, typeOf, castlingIndexOf, castlingKingTo, castlingRookTo,
} from "./types";
import { squareBB } from "./bitboard";
import { pawnAttacks, knightAttacks, bishopAttacks, rookAttacks } from "./attacks";
import { sideToMove, occupied, colorBB, pieces, pieceOn, kingSquare, castlingRookSquare } from "./position";

/** True when the legal move m of the side to move checks the enemy king: the moved piece from
 *  its destination, or one of the mover's sliders through the square it leaves (or, en passant,
 *  the square of the pawn it takes). Equal to making m and asking inCheck(). */
export function givesCheck(m: Move): bool {
  const us = sideToMove;
  const ksq = kingSquare(us ^ 1);
  const flag = moveFlag(m);
  const from = fromSq(m);
  let to = toSq(m);
  let pt = typeOf(pieceOn(from));
  // The mover's men that stay where they are, and every man after the move.
  let staying = colorBB(us) & ~squareBB(from);
  let occ = occupied() & ~squareBB(from);
  if (flag == CASTLING) {
    // The rook is the piece that can check; the king leaves its square, and may land on the rook's.
    const i = castlingIndexOf(m);
    const rook = castlingRookSquare(i);
    staying &= ~squareBB(rook);
    occ = (occ & ~squareBB(rook)) | squareBB(castlingKingTo(i));
    to = castlingRookTo(i);
    pt = ROOK;
  } else if (flag == EN_PASSANT) {
    occ &= ~squareBB(to + (us == WHITE ? -8 : 8));
  } else if (flag == PROMOTION) {
    pt = promotionType(m);
  }
  occ |= squareBB(to);
  const king = squareBB(ksq);
  // The moved piece from its destination.
  if (pt == PAWN) {
    if (pawnAttacks(us, to) & king) return true;
  } else if (pt == KNIGHT) {
    if (knightAttacks(to) & king) return true;
  } else if (pt != KING) {
    const diagonal = pt == BISHOP || pt == QUEEN ? bishopAttacks(to, occ) : 0;
    const straight = pt == ROOK || pt == QUEEN ? rookAttacks(to, occ) : 0;
    if ((diagonal | straight) & king) return true;
  }
  // The mover's other sliders, through the squares the move opened (a legal position's side
  // not to move is never in check from a man that does not move).
  const diagonals: Bitboard = (pieces(BISHOP) | pieces(QUEEN)) & staying;
  const straights: Bitboard = (pieces(ROOK) | pieces(QUEEN)) & staying;
  return (bishopAttacks(ksq, occ) & diagonals) != 0 || (rookAttacks(ksq, occ) & straights) != 0;
}
