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
import { ARENA, ARENA_SEE_GAIN } from "./arena";

/** Exchange values by piece type (none, pawn, knight, bishop, rook, queen, king). */
export const SEE_VALUE: StaticArray<i32> = [0, 100, 320, 330, 500, 950, 20000];

// The gain list of the exchange, in the thread's arena (at most 32 men take part).

// @ts-ignore: decorator
@inline function gainAt(i: i32): i32 {
  return load<i32>(ARENA + (<usize>i << 2), ARENA_SEE_GAIN);
}

// @ts-ignore: decorator
@inline function setGain(i: i32, v: i32): void {
  store<i32>(ARENA + (<usize>i << 2), v, ARENA_SEE_GAIN);
}

/** What move m (not castling) takes, a promotion's gain included. */
// @ts-ignore: decorator
@inline function takenValue(m: Move): i32 {
  const flag = moveFlag(m);
  if (flag == EN_PASSANT) return unchecked(SEE_VALUE[PAWN]);
  const captured = unchecked(SEE_VALUE[typeOf(pieceOn(toSq(m)))]);
  return flag == PROMOTION ? captured + unchecked(SEE_VALUE[promotionType(m)]) - unchecked(SEE_VALUE[PAWN]) : captured;
}

/** The value of the piece move m (not castling) puts on its destination. */
// @ts-ignore: decorator
@inline function placedValue(m: Move): i32 {
  return moveFlag(m) == PROMOTION ? unchecked(SEE_VALUE[promotionType(m)]) : unchecked(SEE_VALUE[typeOf(pieceOn(fromSq(m)))]);
}

/** The static exchange value of move m for the side to move (castling scores 0). */
export function see(m: Move): i32 {
  return moveFlag(m) == CASTLING ? 0 : exchange(m, takenValue(m), placedValue(m));
}

/** Plays out the exchange that move m (not castling) starts, taking `captured` and putting a
 *  piece worth onSquare on the square; returns its value for the side to move. */
function exchange(m: Move, captured: i32, onSquare: i32): i32 {
  const to = toSq(m);
  let occ = occupied() ^ squareBB(fromSq(m));
  if (moveFlag(m) == EN_PASSANT) occ ^= squareBB(to ^ 8);
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
  if (moveFlag(m) == CASTLING) return 0 >= threshold;
  const captured = takenValue(m);
  if (captured < threshold) return false;
  const onSquare = placedValue(m);
  if (captured - onSquare >= threshold) return true;
  return exchange(m, captured, onSquare) >= threshold;
}
