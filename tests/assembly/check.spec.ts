// givesCheck (check.ts) against making the move and asking inCheck(), for every legal move
// along random playouts, in standard chess and Chess960, and in set-ups built for the rare
// cases: discovered checks, en passant that opens a line, promotions, castling rooks.

import { Move, CASTLING, EN_PASSANT, PROMOTION, moveFlag } from "../../assembly/types";
import { doMove, undoMove, inCheck, setChess960 } from "../../assembly/position";
import { makeFen } from "../../assembly/fen";
import { moveToUci } from "../../assembly/notation";
import { givesCheck } from "../../assembly/check";
import { Xorshift, visitPlayoutMoves } from "./random";
import { FENS, FENS_960 } from "./positions";

// Set-ups for the rare cases, beside the movegen spec's positions.
const SPECIAL_FENS: string[] = [
  // En passant that uncovers a rook and a bishop on the king; a king walking into a rook's file.
  "8/8/8/1k1pP2R/8/8/8/4K3 w - d6 0 1",
  "8/8/1k6/3pP3/8/8/6B1/4K3 w - d6 0 1",
  // Promotions with and without capture, checking as a knight or a queen; castling with check.
  "3r1k2/4P3/8/8/8/8/8/4K3 w - - 0 1",
  "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
  "r3k3/8/8/8/8/8/8/3K4 b q - 0 1",
  // Discovered checks by every slider, the moving man a knight, a pawn, a king.
  "4k3/8/8/4N3/8/8/8/4R1K1 w - - 0 1",
  "7k/8/8/4P3/3B4/8/8/K7 w - - 0 1",
  "k7/8/2K5/8/8/8/8/Q7 w - - 0 1",
];

// Chess960 castling where the king stays, or lands on its rook's square.
const SPECIAL_FENS_960: string[] = ["3k4/8/8/8/8/8/8/R4K1R w HA - 0 1", "2k5/8/8/8/8/8/8/1RK4R w HB - 0 1"];

const random = new Xorshift(0x9e3779b97f4a7c15);

// Checks found, by kind of move, so a test sees that the rare kinds were met.
let checks = 0;
let specialChecks = 0;

// Moves where givesCheck and make-and-ask differ.
let failures = 0;

function compareMove(m: Move): void {
  const told = givesCheck(m);
  doMove(m);
  const made = inCheck();
  undoMove(m);
  if (made) {
    checks++;
    if (moveFlag(m) == CASTLING || moveFlag(m) == EN_PASSANT || moveFlag(m) == PROMOTION) specialChecks++;
  }
  if (told != made) {
    failures++;
    if (failures < 5) log<string>(makeFen() + " " + moveToUci(m) + (made ? " checks" : " does not check"));
  }
}

/** Compares givesCheck with make-and-ask for every legal move of the positions along random
 *  playouts from fens; returns the number of moves where they differ. */
function mismatches(fens: string[], games: i32): i32 {
  failures = 0;
  visitPlayoutMoves(fens, games, 80, random, compareMove);
  return failures;
}

describe("givesCheck", () => {
  it("equals making the move and asking inCheck, along random playouts", () => {
    checks = 0;
    specialChecks = 0;
    expect(mismatches(FENS, 16) + mismatches(SPECIAL_FENS, 8)).toBe(0);
    expect(checks).toBeGreaterThan(2000);
    expect(specialChecks).toBeGreaterThan(20);
  });

  it("equals making the move and asking inCheck in Chess960, castling included", () => {
    setChess960(true);
    const failures = mismatches(FENS_960, 16) + mismatches(SPECIAL_FENS_960, 8);
    setChess960(false);
    expect(failures).toBe(0);
  });
});
