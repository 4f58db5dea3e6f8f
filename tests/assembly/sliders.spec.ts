// The slider backend of this build against the reference ray walk inside real positions:
// with the position's own occupancy (the rotated backend's fast path) and with occupancies
// that differ from it the way king danger, en passant and x-rays make them.

import { rookAttacks, bishopAttacks, queenAttacks } from "../../assembly/attacks";
import { slowRookAttacks, slowBishopAttacks } from "../../assembly/rays";
import { squareBB } from "../../assembly/bitboard";
import { SLIDER_BACKEND, SLIDERS_MAGIC, SLIDERS_ROTATED, SLIDERS_OBSTRUCTION } from "../../assembly/config";
import { occupied, doMove, undoMove, validate } from "../../assembly/position";
import { parseFen, START_FEN } from "../../assembly/fen";
import { generateMoves, moveList, moveAt, GEN_ALL } from "../../assembly/movegen";
import { sliderTableBytes } from "../../assembly/attacks";
import { Xorshift } from "./random";

const FENS: string[] = [
  START_FEN,
  "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
  "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
  "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
];

const random = new Xorshift(0x9e3779b97f4a7c15);
function rnd(n: i32): i32 {
  return random.next(n);
}

/** Mismatches against the reference on every square for one occupancy. */
function mismatches(occ: u64): i32 {
  let bad = 0;
  for (let sq = 0; sq < 64; sq++) {
    if (rookAttacks(sq, occ) != slowRookAttacks(sq, occ)) bad++;
    if (bishopAttacks(sq, occ) != slowBishopAttacks(sq, occ)) bad++;
    if (queenAttacks(sq, occ) != (slowRookAttacks(sq, occ) | slowBishopAttacks(sq, occ))) bad++;
  }
  return bad;
}

describe("slider backend in positions", () => {
  it("is the one the build asked for", () => {
    expect(SLIDER_BACKEND >= SLIDERS_MAGIC && SLIDER_BACKEND <= SLIDERS_OBSTRUCTION).toBe(true);
    log<string>("slider backend " + SLIDER_BACKEND.toString() + ", " + sliderTableBytes().toString() + " bytes of tables");
    if (SLIDER_BACKEND == SLIDERS_ROTATED) expect(sliderTableBytes()).toBe(131584);
  });

  it("equals the reference along random playouts, on the position's occupancy and variations of it", () => {
    let positions = 0;
    let bad = 0;
    for (let f = 0; f < FENS.length; f++) {
      for (let game = 0; game < 6; game++) {
        parseFen(FENS[f]);
        for (let ply = 0; ply < 60; ply++) {
          const occ = occupied();
          bad += mismatches(occ);
          // One square taken away (a king for king danger), one added, and an en-passant-like
          // change of three squares.
          const a = rnd(64);
          const b = rnd(64);
          const c = rnd(64);
          bad += mismatches(occ & ~squareBB(a));
          bad += mismatches(occ | squareBB(b));
          bad += mismatches(occ ^ squareBB(a) ^ squareBB(b) ^ squareBB(c));
          positions++;
          const list = moveList(0);
          const n = generateMoves(GEN_ALL, list);
          if (n == 0) break;
          const m = moveAt(list, rnd(n));
          // Make, unmake and make again: the boards must come back after every step.
          doMove(m);
          undoMove(m);
          if (validate() != "") bad++;
          doMove(m);
          if (validate() != "") bad++;
        }
      }
    }
    expect(bad).toBe(0);
    expect(positions).toBeGreaterThan(500);
  });
});
