// Search: mates found with the right mate score, stalemate and draw rules, determinism.

import { parseFen } from "../../assembly/fen";
import { doMove } from "../../assembly/position";
import { parseUciMove, moveToUci } from "../../assembly/notation";
import { think, bestMove, bestScore } from "../../assembly/think";
import { nodes } from "../../assembly/control";
import { resetLimits, setDepthLimit, setMateLimit, setNodeLimit } from "../../assembly/limits";
import { clearTable, resizeTable } from "../../assembly/tt";
import { clearHistory } from "../../assembly/history";
import { mateIn, VALUE_MATE, VALUE_DRAW } from "../../assembly/score";
import { MOVE_NONE } from "../../assembly/types";

resizeTable(16);

function searchDepth(fen: string, depth: i32): string {
  parseFen(fen);
  clearTable();
  clearHistory();
  resetLimits();
  setDepthLimit(depth);
  think();
  return moveToUci(bestMove);
}

function play(uci: string): void {
  doMove(parseUciMove(uci));
}

function playAll(moves: string): void {
  const list = moves.split(" ");
  for (let i = 0; i < list.length; i++) play(list[i]);
}

describe("mates", () => {
  it("mate in 1", () => {
    expect(searchDepth("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 4)).toBe("a1a8");
    expect(bestScore).toBe(mateIn(1));
  });
  it("mate in 2 (WAC.001)", () => {
    expect(searchDepth("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", 10)).toBe("g3g6");
    expect(bestScore).toBe(mateIn(3));
  });
  it("mate in 3 (distance confirmed by Stockfish)", () => {
    searchDepth("5k2/8/8/8/8/8/8/R3K2R w - - 0 1", 8);
    expect(bestScore).toBe(mateIn(5));
  });
  it("being mated scores negative mate", () => {
    searchDepth("6k1/5ppp/8/8/8/8/r7/1r4K1 w - - 0 1", 6);
    expect(bestScore).toBeLessThanOrEqual(-(VALUE_MATE - 4));
  });
  it("go mate stops once the mate is proven", () => {
    parseFen("5k2/8/8/8/8/8/8/R3K2R w - - 0 1");
    clearTable();
    resetLimits();
    setMateLimit(3);
    think();
    expect(bestScore).toBe(mateIn(5));
  });
});

describe("draws", () => {
  it("stalemate: no move and score 0", () => {
    searchDepth("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 5);
    expect(bestMove).toBe(MOVE_NONE);
    expect(bestScore).toBe(0);
  });
  it("avoids stalemating when winning", () => {
    const m = searchDepth("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", 6);
    expect(m).not.toBe("f1f7");
    expect(bestScore).toBeGreaterThan(10000);
  });
  it("takes a perpetual check when every other move loses", () => {
    // White (queen against two rooks, Black threatening Rb1 mate) draws by Qh5+ Kg8 Qe8+ Kh7
    // Qh5+ ...: the king has no other square and nothing can interpose. Stockfish 15.1 agrees
    // (0.00 at depth 22). Without repetition detection the score is far below zero.
    const m = searchDepth("4Q3/6pk/5p2/8/8/8/rr4PP/7K w - - 0 1", 8);
    expect(m).toBe("e8h5");
    expect(bestScore).toBe(VALUE_DRAW);
  });
  it("scores a threefold repetition through the game history as a draw", () => {
    // Knight and rook and queen down, White can only draw by Nc3, which repeats the position
    // after White's move for the third time (twice in the game history). Black is winning,
    // so no repetition arises inside the search tree.
    parseFen("4k2q/7r/8/8/8/2N5/8/4K3 b - - 0 1");
    playAll("e8d8 c3b1 d8e8 b1c3 e8d8 c3b1 d8e8");
    clearTable();
    clearHistory();
    resetLimits();
    setDepthLimit(6);
    think();
    expect(moveToUci(bestMove)).toBe("b1c3");
    expect(bestScore).toBe(VALUE_DRAW);
  });
  it("a position seen once before the root is not yet a draw", () => {
    // The same line one cycle shorter: Nc3 would repeat only twice, so White is lost.
    parseFen("4k2q/7r/8/8/8/2N5/8/4K3 b - - 0 1");
    playAll("e8d8 c3b1 d8e8");
    clearTable();
    clearHistory();
    resetLimits();
    setDepthLimit(6);
    think();
    expect(bestScore).toBeLessThan(-1000);
  });
  it("scores a position at the 50-move limit as a draw", () => {
    searchDepth("4k3/8/8/8/8/8/8/R3K3 w - - 100 120", 4);
    // rule50 = 100 at the root: every line is a draw.
    expect(bestScore).toBe(0);
  });
});

describe("determinism", () => {
  it("the same search from a fresh table visits the same nodes", () => {
    searchDepth("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 7);
    const first = nodes;
    const firstMove = bestMove;
    searchDepth("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 7);
    expect(nodes).toBe(first);
    expect(bestMove).toBe(firstMove);
  });
  it("stops at a node limit", () => {
    parseFen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    resetLimits();
    setNodeLimit(5000);
    think();
    expect(nodes).toBe(5000);
    expect(bestMove).not.toBe(MOVE_NONE);
  });
});
