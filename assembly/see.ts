// Static exchange evaluation: the material balance of the capture sequence on one square,
// each side recapturing with its least valuable attacker, x-rays included; and the test
// against a threshold that the search asks, decided by bounds when they suffice.

import {
  Move, PAWN, BISHOP, ROOK, QUEEN, KING, PROMOTION, EN_PASSANT, CASTLING,
  fromSq, toSq, moveFlag, promotionType, typeOf,
} from "./types";
import { squareBB, lsb } from "./bitboard";
import { bishopAttacks, rookAttacks } from "./attacks";
import { occupied, pieces, colorBB, pieceOn, sideToMove, attackersTo } from "./position";

/** Exchange values by piece type (none, pawn, knight, bishop, rook, queen, king). */
export const SEE_VALUE: StaticArray<i32> = [0, 100, 320, 330, 500, 950, 20000];

const gain: usize = memory.data(40 * 4, 4);

// @ts-ignore: decorator
@inline function gainAt(i: i32): i32 {
  return load<i32>(gain + (<usize>i << 2));
}

// @ts-ignore: decorator
@inline function setGain(i: i32, v: i32): void {
  store<i32>(gain + (<usize>i << 2), v);
}

/** The static exchange value of move m for the side to move (castling scores 0). */
export function see(m: Move): i32 {
  const flag = moveFlag(m);
  if (flag == CASTLING) return 0;
  const from = fromSq(m);
  const to = toSq(m);
  let occ = occupied() ^ squareBB(from);
  let captured = unchecked(SEE_VALUE[typeOf(pieceOn(to))]);
  if (flag == EN_PASSANT) {
    occ ^= squareBB(to ^ 8);
    captured = unchecked(SEE_VALUE[PAWN]);
  }
  let onSquare = unchecked(SEE_VALUE[typeOf(pieceOn(from))]);
  if (flag == PROMOTION) {
    onSquare = unchecked(SEE_VALUE[promotionType(m)]);
    captured += onSquare - unchecked(SEE_VALUE[PAWN]);
  }
  setGain(0, captured);
  const diagonal = pieces(BISHOP) | pieces(QUEEN);
  const straight = pieces(ROOK) | pieces(QUEEN);
  let attackers = attackersTo(to, occ) & occ;
  let stm = sideToMove ^ 1;
  let d = 0;
  while (d < 38) {
    const mine = attackers & colorBB(stm);
    if (mine == 0) break;
    // The least valuable attacker recaptures.
    let pt = PAWN;
    let b: u64 = 0;
    for (; pt <= KING; pt++) {
      b = mine & pieces(pt);
      if (b) break;
    }
    // A king may only take last: not while the square is still defended.
    if (pt == KING && (attackers & colorBB(stm ^ 1)) != 0) break;
    d++;
    setGain(d, onSquare - gainAt(d - 1));
    onSquare = unchecked(SEE_VALUE[pt]);
    occ ^= squareBB(lsb(b));
    if (pt == PAWN || pt == BISHOP || pt == QUEEN) attackers |= bishopAttacks(to, occ) & diagonal;
    if (pt == ROOK || pt == QUEEN) attackers |= rookAttacks(to, occ) & straight;
    attackers &= occ;
    stm ^= 1;
  }
  // Each side may stop capturing when continuing loses: negamax the gain list backwards.
  while (d > 0) {
    setGain(d - 1, -max(-gainAt(d - 1), gainAt(d)));
    d--;
  }
  return gainAt(0);
}

/** True when the exchange value of m is at least threshold, as see(m) >= threshold. The
 *  exchange is worth at most what the move takes (the opponent may decline to recapture) and
 *  at least that less the piece it puts on the square (the mover may decline to go on), so
 *  most moves are decided by these bounds without the exchange being played out. */
export function seeGe(m: Move, threshold: i32): bool {
  const flag = moveFlag(m);
  if (flag == CASTLING) return 0 >= threshold;
  let captured = unchecked(SEE_VALUE[flag == EN_PASSANT ? PAWN : typeOf(pieceOn(toSq(m)))]);
  let onSquare = unchecked(SEE_VALUE[typeOf(pieceOn(fromSq(m)))]);
  if (flag == PROMOTION) {
    onSquare = unchecked(SEE_VALUE[promotionType(m)]);
    captured += onSquare - unchecked(SEE_VALUE[PAWN]);
  }
  if (captured < threshold) return false;
  if (captured - onSquare >= threshold) return true;
  return see(m) >= threshold;
}
