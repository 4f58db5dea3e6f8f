// Static exchange evaluation on labelled positions (values: P 100, N 320, B 330, R 500, Q 950).

import { parseFen, makeFen } from "../../assembly/fen";
import { parseUciMove, moveToUci } from "../../assembly/notation";
import { see, seeGe } from "../../assembly/see";
import { Move, MOVE_NONE } from "../../assembly/types";
import { Xorshift, visitPlayoutMoves } from "./random";
import { FENS } from "./positions";

const random = new Xorshift(0x2545f4914f6cdd1d);
// Thresholds around the values the bounds of seeGe fall on, and the search's margins.
const THRESHOLDS: i32[] = [-1000, -331, -330, -329, -321, -320, -200, -101, -100, -99, -1, 0, 1, 99, 100, 101, 320, 850, 851];

let failures = 0;

function compareSeeGe(m: Move): void {
  const value = see(m);
  for (let t = 0; t < THRESHOLDS.length; t++) {
    if (seeGe(m, THRESHOLDS[t]) == value >= THRESHOLDS[t]) continue;
    failures++;
    if (failures < 5) log<string>(makeFen() + " " + moveToUci(m) + " threshold " + THRESHOLDS[t].toString());
  }
}

/** Compares seeGe(m, t) with see(m) >= t for every legal move and every threshold along random
 *  playouts; returns the number of disagreements. */
function seeGeMismatches(games: i32): i32 {
  failures = 0;
  visitPlayoutMoves(FENS, games, 60, random, compareSeeGe);
  return failures;
}

function seeOf(fen: string, uci: string): i32 {
  parseFen(fen);
  const m = parseUciMove(uci);
  if (m == MOVE_NONE) {
    log<string>("illegal test move " + uci);
    return -99999;
  }
  return see(m);
}

describe("see", () => {
  it("wins an undefended pawn", () => {
    expect(seeOf("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5")).toBe(100);
  });
  it("resolves a long exchange with x-rays on both sides (CPW example)", () => {
    // NxP, NxN, RxN, BxR, QxB (x-ray behind the rook), QxQ (x-ray behind the bishop).
    expect(seeOf("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5")).toBe(-220);
  });
  it("loses the queen for a defended pawn", () => {
    expect(seeOf("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1", "d2d5")).toBe(-850);
  });
  it("an equal trade is zero", () => {
    expect(seeOf("4k3/8/2p5/3n4/8/4N3/8/4K3 w - - 0 1", "e3d5")).toBe(0);
  });
  it("x-ray support behind the capturer counts", () => {
    expect(seeOf("4k3/3r4/8/3r4/8/8/3R4/3RK3 w - - 0 1", "d2d5")).toBe(500);
  });
  it("the king may not recapture a defended piece", () => {
    expect(seeOf("8/8/4k3/3p4/8/8/B7/3RK3 w - - 0 1", "d1d5")).toBe(100);
  });
  it("en passant captures a pawn", () => {
    expect(seeOf("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6")).toBe(100);
    // The captured pawn leaves d5: the rook behind it on the d-file now backs up the capture.
    expect(seeOf("4kb2/8/8/3pP3/8/8/8/3RK3 w - d6 0 1", "e5d6")).toBe(100);
  });
  it("a quiet move to an attacked square loses the piece", () => {
    expect(seeOf("4k3/8/2p5/8/8/8/8/1N2K3 w - - 0 1", "b1d2")).toBe(0);
    expect(seeOf("4k3/8/2p5/8/2N5/8/8/4K3 w - - 0 1", "c4b6")).toBe(0);
    expect(seeOf("4k3/8/2p5/8/2N5/8/8/4K3 w - - 0 1", "c4d6")).toBe(0);
    expect(seeOf("4k3/2p5/8/8/2N5/8/8/4K3 w - - 0 1", "c4d6")).toBe(-320);
  });
  it("seeGe compares with a threshold", () => {
    parseFen("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1");
    const m = parseUciMove("e1e5");
    expect(seeGe(m, 100)).toBe(true);
    expect(seeGe(m, 101)).toBe(false);
  });
  it("seeGe equals see(m) >= threshold for every move along random playouts", () => {
    expect(seeGeMismatches(12)).toBe(0);
  });
});
