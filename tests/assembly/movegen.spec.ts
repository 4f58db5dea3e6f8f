// Legal generation against a slow make-and-test reference on random playouts; generation
// kinds; bulk counting; and make/unmake and Zobrist keys along the same playouts, in
// standard chess and in Chess960 (castling with the king and rooks anywhere on the back rank).

import {
  Move, WHITE, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, SQ_NONE, CASTLING, EN_PASSANT,
  makeMove, makeSpecial, makePromotion, typeOf, colorOf, relativeRank, fromSq, toSq, moveFlag,
  castlingKingTo, castlingRookTo,
} from "../../assembly/types";
import { squareBB, between } from "../../assembly/bitboard";
import { pawnAttacks, pieceAttacks } from "../../assembly/attacks";
import {
  sideToMove, epSquare, castlingRights, key, rule50, occupied, colorBB, pieceOn, kingSquare,
  isAttacked, doMove, undoMove, doNullMove, undoNullMove, computeKey, validate, inCheck,
  saveSnapshot, setChess960, castlingRookSquare,
} from "../../assembly/position";
import { parseFen, makeFen, START_FEN } from "../../assembly/fen";
import { SNAPSHOT_SIZE } from "../../assembly/arena";
import {
  generateMoves, countLegalMoves, moveList, moveAt, GEN_ALL, GEN_NOISY, GEN_QUIET,
} from "../../assembly/movegen";
import { moveToUci } from "../../assembly/notation";
import { Xorshift } from "./random";
import { FENS, FENS_960 } from "./positions";


const random = new Xorshift(0x1234567);
function rnd(n: i32): i32 {
  return random.next(n);
}

const ref = new StaticArray<u16>(512);
let refCount = 0;

function addIfLegal(m: Move): void {
  const us = sideToMove;
  doMove(m);
  if (!isAttacked(kingSquare(us), us ^ 1, occupied())) ref[refCount++] = m;
  undoMove(m);
}

/** Slow reference: every pseudo-legal move, kept when the king is safe after it. */
function referenceMoves(): void {
  refCount = 0;
  const us = sideToMove;
  const own = colorBB(us);
  const occ = occupied();
  for (let from = 0; from < 64; from++) {
    const pc = pieceOn(from);
    if (pc == 0 || colorOf(pc) != us) continue;
    const pt = typeOf(pc);
    if (pt == PAWN) {
      const up = us == WHITE ? 8 : -8;
      const last = relativeRank(us, from) == 6;
      let targets = pawnAttacks(us, from) & colorBB(us ^ 1);
      if ((occ & squareBB(from + up)) == 0) {
        targets |= squareBB(from + up);
        if (relativeRank(us, from) == 1 && (occ & squareBB(from + 2 * up)) == 0) targets |= squareBB(from + 2 * up);
      }
      for (let to = 0; to < 64; to++) {
        if ((targets & squareBB(to)) == 0) continue;
        if (last) {
          for (let p = KNIGHT; p <= QUEEN; p++) addIfLegal(makePromotion(from, to, p));
        } else addIfLegal(makeMove(from, to));
      }
      if (epSquare != SQ_NONE && (pawnAttacks(us, from) & squareBB(epSquare)) != 0) {
        addIfLegal(makeSpecial(from, epSquare, EN_PASSANT));
      }
      continue;
    }
    const targets = pieceAttacks(pt, from, occ) & ~own;
    for (let to = 0; to < 64; to++) if (targets & squareBB(to)) addIfLegal(makeMove(from, to));
    if (pt == KING && !inCheck()) {
      for (let side = 0; side < 2; side++) {
        const i = (us << 1) | side;
        if ((castlingRights & (1 << i)) == 0) continue;
        // Every square the king and the rook cross or land on is empty (but for the two of
        // them), and no square the king crosses or lands on is attacked; make-and-test
        // then catches a destination that the rook had shielded.
        const rook = castlingRookSquare(i);
        const kTo = castlingKingTo(i);
        const rTo = castlingRookTo(i);
        const path = between(from, kTo) | squareBB(kTo) | between(rook, rTo) | squareBB(rTo);
        if (path & occ & ~squareBB(from) & ~squareBB(rook)) continue;
        let attacked = false;
        for (let sq = 0; sq < 64; sq++) {
          if ((between(from, kTo) | squareBB(kTo)) & squareBB(sq) && isAttacked(sq, us ^ 1, occ)) attacked = true;
        }
        if (!attacked) addIfLegal(makeSpecial(from, kTo, CASTLING));
      }
    }
  }
}

function sameSet(list: usize, n: i32): bool {
  if (n != refCount) return false;
  for (let i = 0; i < n; i++) {
    let found = false;
    const m = moveAt(list, i);
    for (let j = 0; j < refCount; j++) if (ref[j] == m) found = true;
    if (!found) return false;
  }
  return true;
}

const before: usize = memory.data(<i32>SNAPSHOT_SIZE, 8);
const after: usize = memory.data(<i32>SNAPSHOT_SIZE, 8);

function snapshotsEqual(): bool {
  saveSnapshot(after);
  return memory.compare(before, after, SNAPSHOT_SIZE) == 0;
}

describe("legal move generation", () => {
  it("equals the make-and-test reference along random playouts", () => {
    let positions = 0;
    let failures = 0;
    for (let f = 0; f < FENS.length; f++) {
      for (let game = 0; game < 12; game++) {
        parseFen(FENS[f]);
        for (let ply = 0; ply < 80; ply++) {
          const list = moveList(0);
          const n = generateMoves(GEN_ALL, list);
          referenceMoves();
          positions++;
          if (!sameSet(list, n)) {
            failures++;
            if (failures < 5) log<string>("generator differs in " + makeFen());
          }
          if (countLegalMoves() != n) failures++;
          if (n == 0) break;
          doMove(moveAt(list, rnd(n)));
        }
      }
    }
    expect(failures).toBe(0);
    expect(positions).toBeGreaterThan(3000);
  });

  it("equals the make-and-test reference along random Chess960 playouts", () => {
    setChess960(true);
    let positions = 0;
    let failures = 0;
    let castlings = 0;
    for (let f = 0; f < FENS_960.length; f++) {
      for (let game = 0; game < 12; game++) {
        expect(parseFen(FENS_960[f])).toBe(0);
        for (let ply = 0; ply < 80; ply++) {
          const list = moveList(0);
          const n = generateMoves(GEN_ALL, list);
          referenceMoves();
          positions++;
          if (!sameSet(list, n)) {
            failures++;
            if (failures < 5) log<string>("generator differs in " + makeFen());
          }
          if (countLegalMoves() != n) failures++;
          for (let i = 0; i < n; i++) if (moveFlag(moveAt(list, i)) == CASTLING) castlings++;
          if (n == 0) break;
          doMove(moveAt(list, rnd(n)));
        }
      }
    }
    setChess960(false);
    expect(failures).toBe(0);
    expect(positions).toBeGreaterThan(3000);
    expect(castlings).toBeGreaterThan(200);
  });

  it("noisy and quiet moves partition all moves", () => {
    let failures = 0;
    for (let f = 0; f < FENS.length; f++) {
      parseFen(FENS[f]);
      for (let ply = 0; ply < 60; ply++) {
        const all = generateMoves(GEN_ALL, moveList(0));
        const noisy = generateMoves(GEN_NOISY, moveList(1));
        const quiet = generateMoves(GEN_QUIET, moveList(2));
        if (noisy + quiet != all) failures++;
        for (let i = 0; i < noisy; i++) {
          const m = moveAt(moveList(1), i);
          const capture = pieceOn(toSq(m)) != 0 || moveFlag(m) == EN_PASSANT;
          if (!capture && moveFlag(m) != 1 << 14) failures++;
        }
        for (let i = 0; i < quiet; i++) {
          const m = moveAt(moveList(2), i);
          if (pieceOn(toSq(m)) != 0 || moveFlag(m) == EN_PASSANT || moveFlag(m) == 1 << 14) failures++;
        }
        if (all == 0) break;
        doMove(moveAt(moveList(0), rnd(all)));
      }
    }
    expect(failures).toBe(0);
  });
});

/** Makes and unmakes every move along random playouts from fens: the key must equal a
 *  recompute and every invariant hold after each move, and every field be restored after
 *  each unmake (and the same for null moves). Returns the number of failures. */
function makeUnmakeFailures(fens: string[], chess960: bool): i32 {
  setChess960(chess960);
  let moves = 0;
  let failures = 0;
  for (let f = 0; f < fens.length; f++) {
    for (let game = 0; game < 10; game++) {
      parseFen(fens[f]);
      for (let ply = 0; ply < 100; ply++) {
        const list = moveList(0);
        const n = generateMoves(GEN_ALL, list);
        if (n == 0) break;
        // Every move of this position: make, check, unmake, compare.
        saveSnapshot(before);
        for (let i = 0; i < n; i++) {
          const m = moveAt(list, i);
          doMove(m);
          moves++;
          if (key != computeKey() || validate() != "") {
            failures++;
            if (failures < 5) log<string>("after " + moveToUci(m) + ": " + validate());
          }
          undoMove(m);
          if (!snapshotsEqual() || validate() != "") failures++;
        }
        if (!inCheck()) {
          doNullMove();
          if (key != computeKey() || epSquare != SQ_NONE) failures++;
          undoNullMove();
          if (!snapshotsEqual()) failures++;
        }
        doMove(moveAt(list, rnd(n)));
      }
    }
  }
  setChess960(false);
  expect(moves).toBeGreaterThan(50000);
  return failures;
}

describe("make and unmake", () => {
  it("restore every field, and the incremental key always equals a recompute", () => {
    expect(makeUnmakeFailures(FENS, false)).toBe(0);
  });

  it("do the same in Chess960, castling included", () => {
    expect(makeUnmakeFailures(FENS_960, true)).toBe(0);
  });

  it("resets the rule-50 counter on captures and pawn moves only", () => {
    parseFen("4k3/8/8/3p4/4P3/8/8/4K1N1 w - - 7 20");
    doMove(makeMove(6, 21)); // Ng1f3
    expect(rule50).toBe(8);
    doMove(makeMove(60, 59)); // Ke8d8
    expect(rule50).toBe(9);
    doMove(makeMove(28, 35)); // exd5
    expect(rule50).toBe(0);
  });
});
