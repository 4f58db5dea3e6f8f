// givesCheck (check.ts) against making the move and asking inCheck(), for every legal move
// along random playouts, in standard chess and Chess960, and in set-ups built for the rare
// cases: discovered checks, en passant that opens a line, promotions, castling rooks.

import { Move, CASTLING, EN_PASSANT, PROMOTION, moveFlag } from "../../assembly/types";
import { doMove, undoMove, inCheck, setChess960 } from "../../assembly/position";
import { parseFen, makeFen, START_FEN } from "../../assembly/fen";
import { generateMoves, moveList, moveAt, GEN_ALL } from "../../assembly/movegen";
import { moveToUci } from "../../assembly/notation";
import { givesCheck } from "../../assembly/check";

const FENS: string[] = [
  START_FEN,
  "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
  "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
  "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
  "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
  "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
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

const FENS_960: string[] = [
  "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
  "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1",
  "1rk3r1/8/8/8/8/8/8/1RK3R1 b BGbg - 0 1",
  "2r1kr2/8/8/8/8/8/8/2R1KR2 w KQkq - 0 1",
  "5rkr/8/8/8/8/8/8/5RKR w KQkq - 0 1",
  "3k4/8/8/8/8/8/8/R4K1R w HA - 0 1",
];

let seed: u64 = 0x9e3779b97f4a7c15;
function rnd(n: i32): i32 {
  seed ^= seed << 13;
  seed ^= seed >> 7;
  seed ^= seed << 17;
  return <i32>(seed % <u64>n);
}

// Checks found, by kind of move, so a test sees that the rare kinds were met.
let checks = 0;
let specialChecks = 0;

/** Compares givesCheck with make-and-ask for every legal move of the positions along random
 *  playouts from fens; returns the number of moves where they differ. */
function mismatches(fens: string[], games: i32): i32 {
  let failures = 0;
  for (let f = 0; f < fens.length; f++) {
    for (let game = 0; game < games; game++) {
      parseFen(fens[f]);
      for (let ply = 0; ply < 80; ply++) {
        const list = moveList(0);
        const n = generateMoves(GEN_ALL, list);
        if (n == 0) break;
        for (let i = 0; i < n; i++) {
          const m: Move = moveAt(list, i);
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
        doMove(moveAt(list, rnd(n)));
      }
    }
  }
  return failures;
}

describe("givesCheck", () => {
  it("equals making the move and asking inCheck, along random playouts", () => {
    checks = 0;
    specialChecks = 0;
    expect(mismatches(FENS, 16)).toBe(0);
    expect(checks).toBeGreaterThan(2000);
    expect(specialChecks).toBeGreaterThan(20);
  });

  it("equals making the move and asking inCheck in Chess960, castling included", () => {
    setChess960(true);
    const failures = mismatches(FENS_960, 16);
    setChess960(false);
    expect(failures).toBe(0);
  });
});
