// Whether a legal move gives check, told from the board before the move is made, so that the
// search can prune a quiet move without making and unmaking it first. A node asks this of
// many moves in a row, so the squares that check the enemy king and the men that may uncover
// a check are worked out once per position (Stockfish's check info); the rare moves go the
// long way round.

import {
  Move, Bitboard, Key, Color, WHITE, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, NORMAL, PROMOTION, EN_PASSANT, CASTLING,
  fromSq, toSq, moveFlag, promotionType, typeOf, castlingIndexOf, castlingKingTo, castlingRookTo,
} from "./types";
import { squareBB } from "./bitboard";
import { pawnAttacks, knightAttacks, bishopAttacks, rookAttacks } from "./attacks";
import { sideToMove, key, occupied, colorBB, pieces, pieceOn, kingSquare, castlingRookSquare } from "./position";
import { ARENA, ARENA_CHECK_SQUARES } from "./arena";

// The check info of the position last asked about, told apart by its key, occupancy and side.
let infoKey: Key = 0;
let infoOccupied: Bitboard = 0;
let infoSide: Color = -1;
// Squares from which a pawn, knight, bishop, rook or queen of the side to move checks the enemy
// king, by piece type, in the thread's arena.

// @ts-ignore: decorator
@inline function setCheckSquares(pt: i32, b: Bitboard): void {
  store<u64>(ARENA + (<usize>pt << 3), b, ARENA_CHECK_SQUARES);
}
// The mover's men that may stand between one of its sliders and the enemy king (a superset:
// the mover's men first seen from the king along a line on which a slider of the mover stands
// behind one of them).
let discoverers: Bitboard = 0;

function updateCheckInfo(): void {
  const us = sideToMove;
  const ksq = kingSquare(us ^ 1);
  const occ = occupied();
  const ours = colorBB(us);
  const diagonal = bishopAttacks(ksq, occ);
  const straight = rookAttacks(ksq, occ);
  setCheckSquares(PAWN, pawnAttacks(us ^ 1, ksq));
  setCheckSquares(KNIGHT, knightAttacks(ksq));
  setCheckSquares(BISHOP, diagonal);
  setCheckSquares(ROOK, straight);
  setCheckSquares(QUEEN, diagonal | straight);
  setCheckSquares(KING, 0);
  const diagonalBlockers = diagonal & ours;
  const straightBlockers = straight & ours;
  const diagonalSliders = (pieces(BISHOP) | pieces(QUEEN)) & ours;
  const straightSliders = (pieces(ROOK) | pieces(QUEEN)) & ours;
  discoverers =
    ((bishopAttacks(ksq, occ ^ diagonalBlockers) & diagonalSliders) != 0 ? diagonalBlockers : 0) |
    ((rookAttacks(ksq, occ ^ straightBlockers) & straightSliders) != 0 ? straightBlockers : 0);
  infoKey = key;
  infoOccupied = occ;
  infoSide = us;
}

/** True when the legal move m of the side to move checks the enemy king: the moved piece from
 *  its destination, or one of the mover's sliders through the square it leaves (or, en passant,
 *  the square of the pawn it takes). Equal to making m and asking inCheck(). */
export function givesCheck(m: Move): bool {
  if (moveFlag(m) != NORMAL) return givesCheckSlow(m);
  if (key != infoKey || occupied() != infoOccupied || sideToMove != infoSide) updateCheckInfo();
  const from = fromSq(m);
  if (load<u64>(ARENA + (<usize>typeOf(pieceOn(from)) << 3), ARENA_CHECK_SQUARES) & squareBB(toSq(m))) return true;
  return (discoverers & squareBB(from)) != 0 && givesCheckSlow(m);
}

/** givesCheck from first principles: the move's man from its destination and the mover's
 *  sliders through the squares the move opens, on the board as the move leaves it. */
function givesCheckSlow(m: Move): bool {
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
