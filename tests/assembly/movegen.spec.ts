// Legal generation against a slow make-and-test reference on random playouts; generation
// kinds; bulk counting; and make/unmake and Zobrist keys along the same playouts.

import {
  Move, WHITE, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, SQ_NONE, CASTLING, EN_PASSANT,
  makeMove, makeSpecial, makePromotion, typeOf, colorOf, relativeRank, fromSq, toSq, moveFlag,
} from "../../assembly/types";
import { squareBB } from "../../assembly/bitboard";
import { pawnAttacks, pieceAttacks } from "../../assembly/attacks";
import {
  sideToMove, epSquare, castlingRights, key, rule50, occupied, colorBB, pieceOn, kingSquare,
  isAttacked, doMove, undoMove, doNullMove, undoNullMove, computeKey, validate, inCheck,
  saveSnapshot, SNAPSHOT_SIZE,
} from "../../assembly/position";
import { parseFen, makeFen, START_FEN } from "../../assembly/fen";
import {
  generateMoves, countLegalMoves, moveList, moveAt, GEN_ALL, GEN_NOISY, GEN_QUIET,
} from "../../assembly/movegen";
import { moveToUci } from "../../assembly/notation";

const FENS: string[] = [
  START_FEN,
  "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
  "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
  "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
  "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
  "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
  "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
  "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1",
  "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
];

// A private xorshift generator so the playouts are the same on every run.
let seed: u64 = 0x1234567;
function rnd(n: i32): i32 {
  seed ^= seed << 13;
  seed ^= seed >> 7;
  seed ^= seed << 17;
  return <i32>(seed % <u64>n);
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
      const them = us ^ 1;
      const oo = us == WHITE ? 1 : 4;
      const ooo = us == WHITE ? 2 : 8;
      if ((castlingRights & oo) && (occ & (squareBB(from + 1) | squareBB(from + 2))) == 0 && !isAttacked(from + 1, them, occ)) {
        addIfLegal(makeSpecial(from, from + 2, CASTLING));
      }
      if ((castlingRights & ooo) && (occ & (squareBB(from - 1) | squareBB(from - 2) | squareBB(from - 3))) == 0 && !isAttacked(from - 1, them, occ)) {
        addIfLegal(makeSpecial(from, from - 2, CASTLING));
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

describe("make and unmake", () => {
  it("restore every field, and the incremental key always equals a recompute", () => {
    let moves = 0;
    let failures = 0;
    for (let f = 0; f < FENS.length; f++) {
      for (let game = 0; game < 10; game++) {
        parseFen(FENS[f]);
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
    expect(failures).toBe(0);
    expect(moves).toBeGreaterThan(50000);
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
