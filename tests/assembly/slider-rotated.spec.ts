// The rotated-bitboard layouts and tables on their own, in any build: each orientation is
// a permutation that packs every line into consecutive bits, and the table lookups with
// explicitly rotated occupancies equal the reference square by square, so no slider wraps
// from one packed diagonal into the next.

import {
  RANKS, FILES, A1H8, A8H1, rotatedBit, rotate, lineAttacks, rotatedLineShift, initRotated,
} from "../../assembly/slider-rotated";
import { slowRookAttacks, slowBishopAttacks } from "../../assembly/rays";
import { rand64 } from "../../assembly/zobrist";
import { squareBB } from "../../assembly/bitboard";

// The rotated build has done this at start-up; the other builds never do. It also clears the
// rotated occupancies, which this spec does not use.
initRotated();

// The whole line through sq in the orientation's direction (sq alone on a corner diagonal).
function lineOf(o: i32, sq: i32): u64 {
  const df = o == FILES ? 0 : 1;
  const dr = o == RANKS ? 0 : o == A8H1 ? -1 : 1;
  let b = squareBB(sq);
  for (let dir = -1; dir <= 1; dir += 2) {
    let f = (sq & 7) + df * dir;
    let r = (sq >> 3) + dr * dir;
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      b |= squareBB((r << 3) | f);
      f += df * dir;
      r += dr * dir;
    }
  }
  return b;
}

function rookRef(sq: i32, occ: u64, o: i32): u64 {
  return slowRookAttacks(sq, occ) & lineOf(o, sq);
}

function bishopRef(sq: i32, occ: u64, o: i32): u64 {
  return slowBishopAttacks(sq, occ) & lineOf(o, sq);
}

describe("rotated layouts", () => {
  it("every orientation maps the 64 squares onto the 64 bits", () => {
    for (let o = RANKS; o <= A8H1; o++) {
      let all: u64 = 0;
      for (let sq = 0; sq < 64; sq++) all |= rotatedBit(o, sq);
      expect(all).toBe(0xffffffffffffffff);
    }
  });

  it("ranks are the normal board and files are the board rotated by 90 degrees", () => {
    for (let sq = 0; sq < 64; sq++) {
      expect(rotatedBit(RANKS, sq)).toBe(squareBB(sq));
      expect(rotatedBit(FILES, sq)).toBe(squareBB(((sq & 7) << 3) | (sq >> 3)));
      // The shifts the rook lookup computes instead of loading.
      expect(rotatedLineShift(RANKS, sq)).toBe((sq & 56) | 1);
      expect(rotatedLineShift(FILES, sq)).toBe(((sq & 7) << 3) | 1);
    }
  });

  it("every line is a run of consecutive bits whose inner squares start at the line's shift", () => {
    let bad = 0;
    for (let o = RANKS; o <= A8H1; o++) {
      for (let sq = 0; sq < 64; sq++) {
        const packed = rotate(lineOf(o, sq), o);
        const len = <i32>popcnt<u64>(packed);
        const first = <i32>ctz<u64>(packed);
        if (packed >> (<u64>first) != ((<u64>1) << (<u64>len)) - 1) bad++;
        if (len > 2 && rotatedLineShift(o, sq) != first + 1) bad++;
      }
    }
    expect(bad).toBe(0);
  });
});

describe("rotated tables", () => {
  it("rank and file lookups equal the reference on every square over random occupancies", () => {
    let bad = 0;
    for (let sq = 0; sq < 64; sq++) {
      for (let i = 0; i < 300; i++) {
        let occ = rand64();
        if (i % 3 == 0) occ &= rand64();
        if (i % 3 == 1) occ &= rand64() & rand64();
        if (lineAttacks(RANKS, sq, occ, rotatedLineShift(RANKS, sq)) != rookRef(sq, occ, RANKS)) bad++;
        const files = rotate(occ, FILES);
        if (lineAttacks(FILES, sq, files, rotatedLineShift(FILES, sq)) != rookRef(sq, occ, FILES)) bad++;
      }
    }
    expect(bad).toBe(0);
  });

  it("diagonal lookups equal the reference on every square over random occupancies, never wrapping", () => {
    let bad = 0;
    for (let sq = 0; sq < 64; sq++) {
      for (let i = 0; i < 300; i++) {
        let occ = rand64();
        if (i % 3 == 0) occ &= rand64();
        if (i % 3 == 1) occ &= rand64() & rand64();
        // Every 5th occupancy fills the whole board outside sq's two diagonals: a table that
        // read a neighbouring diagonal's bits would see blockers there.
        if (i % 5 == 0) occ |= ~(lineOf(A1H8, sq) | lineOf(A8H1, sq));
        for (let o = A1H8; o <= A8H1; o++) {
          const got = lineAttacks(o, sq, rotate(occ, o), rotatedLineShift(o, sq));
          if (got != bishopRef(sq, occ, o)) bad++;
        }
      }
    }
    expect(bad).toBe(0);
  });
});
