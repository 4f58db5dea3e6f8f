// Slider attack tables against the reference ray walk, square by square over random occupancies.

import { rookAttacks, bishopAttacks, knightAttacks, kingAttacks, pawnAttacks } from "../../assembly/attacks";
import { slowRookAttacks, slowBishopAttacks } from "../../assembly/rays";
import { rand64 } from "../../assembly/zobrist";
import { popcount, between, line } from "../../assembly/bitboard";
import { WHITE, BLACK } from "../../assembly/types";

describe("slider attacks", () => {
  it("rook attacks equal the reference on every square over random occupancies", () => {
    let mismatches = 0;
    for (let sq = 0; sq < 64; sq++) {
      for (let i = 0; i < 500; i++) {
        // Sparse, medium and dense occupancies.
        let occ = rand64();
        if (i % 3 == 0) occ &= rand64();
        if (i % 3 == 1) occ &= rand64() & rand64();
        if (rookAttacks(sq, occ) != slowRookAttacks(sq, occ)) mismatches++;
      }
    }
    expect(mismatches).toBe(0);
  });

  it("bishop attacks equal the reference on every square over random occupancies", () => {
    let mismatches = 0;
    for (let sq = 0; sq < 64; sq++) {
      for (let i = 0; i < 500; i++) {
        let occ = rand64();
        if (i % 3 == 0) occ &= rand64();
        if (i % 3 == 1) occ &= rand64() & rand64();
        if (bishopAttacks(sq, occ) != slowBishopAttacks(sq, occ)) mismatches++;
      }
    }
    expect(mismatches).toBe(0);
  });

  it("empty-board slider attack counts are right", () => {
    expect(popcount(rookAttacks(0, 0))).toBe(14);
    expect(popcount(bishopAttacks(0, 0))).toBe(7);
    expect(popcount(bishopAttacks(27, 0))).toBe(13); // d4
  });
});

describe("leaper attacks", () => {
  it("knight, king and pawn attack counts", () => {
    expect(popcount(knightAttacks(0))).toBe(2); // a1
    expect(popcount(knightAttacks(27))).toBe(8); // d4
    expect(popcount(kingAttacks(0))).toBe(3);
    expect(popcount(kingAttacks(27))).toBe(8);
    expect(pawnAttacks(WHITE, 8)).toBe(<u64>1 << 17); // a2 attacks b3 only
    expect(pawnAttacks(BLACK, 55)).toBe(<u64>1 << 46); // h7 attacks g6 only
  });
});

describe("lines", () => {
  it("between and line tables", () => {
    expect(between(0, 63)).toBe(0x0040201008040200); // a1-h8 diagonal, inner squares
    expect(between(0, 7)).toBe(0x7e);
    expect(between(0, 10)).toBe(0); // a1, c2: not aligned
    expect(line(0, 9)).toBe(0x8040201008040201);
  });
});
