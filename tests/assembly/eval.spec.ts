// Evaluation: colour symmetry on many positions, trivial draws, and lone-king endgames.

import { parseFen, makeFen, START_FEN } from "../../assembly/fen";
import { evaluate } from "../../assembly/eval";
import { doMove } from "../../assembly/position";
import { generateMoves, moveList, moveAt, GEN_ALL } from "../../assembly/movegen";
import { VALUE_KNOWN_WIN } from "../../assembly/score";
import { Xorshift } from "./random";

function swapCase(s: string): string {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s.charAt(i);
    const u = c.toUpperCase();
    out += c == u ? c.toLowerCase() : u;
  }
  return out;
}

/** The same position with colours exchanged (board mirrored top to bottom). */
function flipFen(fen: string): string {
  const f = fen.split(" ");
  const ranks = f[0].split("/");
  ranks.reverse();
  let castling = "-";
  if (f[2] != "-") {
    castling = "";
    const swapped = swapCase(f[2]);
    const order = "KQkq";
    for (let i = 0; i < 4; i++) if (swapped.includes(order.charAt(i))) castling += order.charAt(i);
  }
  let ep = f[3];
  if (ep != "-") ep = ep.charAt(0) + (ep.charAt(1) == "3" ? "6" : "3");
  return swapCase(ranks.join("/")) + " " + (f[1] == "w" ? "b" : "w") + " " + castling + " " + ep + " " + f[4] + " " + f[5];
}

const STARTS: string[] = [
  START_FEN,
  "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
  "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
  "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
  "2r3k1/pp4pp/1qn1p3/3pP3/3P4/1P3N2/P2Q1PPP/2R3K1 w - - 0 1",
];

const random = new Xorshift(4242);
function rnd(n: i32): i32 {
  return random.next(n);
}

describe("evaluation", () => {
  it("is symmetric: evaluate(pos) == evaluate(colour-flipped pos)", () => {
    let checked = 0;
    let failures = 0;
    for (let s = 0; s < STARTS.length; s++) {
      for (let game = 0; game < 8; game++) {
        parseFen(STARTS[s]);
        for (let ply = 0; ply < 80; ply++) {
          const fen = makeFen();
          const v = evaluate();
          parseFen(flipFen(fen));
          const w = evaluate();
          if (v != w) {
            failures++;
            if (failures < 5) log<string>(fen + ": " + v.toString() + " vs flipped " + w.toString());
          }
          checked++;
          parseFen(fen);
          const n = generateMoves(GEN_ALL, moveList(0));
          if (n == 0) break;
          doMove(moveAt(moveList(0), rnd(n)));
        }
      }
    }
    expect(failures).toBe(0);
    expect(checked).toBeGreaterThan(1000);
  });

  it("scores the trivial draws as 0", () => {
    const draws: string[] = [
      "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
      "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
      "4k3/8/8/8/8/8/8/1N2K3 b - - 0 1",
      "4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1",
      "1n2k1n1/8/8/8/8/8/8/4K3 w - - 0 1",
    ];
    for (let i = 0; i < draws.length; i++) {
      parseFen(draws[i]);
      expect(evaluate()).toBe(0);
    }
  });

  it("knows KQ v K and KR v K are won, and prefers the lone king on the edge", () => {
    parseFen("8/8/8/4k3/8/8/8/3QK3 w - - 0 1");
    const centre = evaluate();
    expect(centre).toBeGreaterThan(VALUE_KNOWN_WIN);
    parseFen("k7/8/8/8/8/8/8/3QK3 w - - 0 1");
    expect(evaluate()).toBeGreaterThan(centre);
    parseFen("8/8/8/4k3/8/8/8/R3K3 b - - 0 1");
    expect(evaluate()).toBeLessThan(-VALUE_KNOWN_WIN);
  });

  it("a side without pawns a minor piece up rarely wins", () => {
    parseFen("4k3/8/8/8/8/8/3b4/R3K3 w - - 0 1");
    const rookVsBishop = evaluate();
    parseFen("4k3/8/8/8/8/8/3p4/R3K3 w - - 0 1");
    expect(rookVsBishop).toBeLessThan(evaluate());
    expect(rookVsBishop).toBeLessThan(100);
  });
});
