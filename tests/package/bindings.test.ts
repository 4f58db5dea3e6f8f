// The Node bindings: perft, divide, legal moves, SAN both ways, and clear errors on bad input.
import { describe, it, expect } from "vitest";
import { perft, divide, legalMoves, toSan, fromSan, Core, START_FEN } from "../../bindings/index.js";
import { lessWaited } from "../../bindings/protocol.js";

const KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

describe("helper functions", () => {
  it("perft and divide", async () => {
    expect(await perft(START_FEN, 4)).toBe(197281n);
    const d = await divide(KIWIPETE, 2);
    expect(d.length).toBe(48);
    expect(d.reduce((s, e) => s + e.nodes, 0n)).toBe(2039n);
  });

  it("legal moves in UCI notation, castling as the king's move", async () => {
    const moves = await legalMoves(KIWIPETE);
    expect(moves.length).toBe(48);
    expect(moves).toContain("e1g1");
    expect(moves).toContain("e1c1");
    expect(await legalMoves("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")).toEqual([]);
  });

  it("SAN both ways on labelled cases", async () => {
    const cases: [string, string, string][] = [
      [START_FEN, "g1f3", "Nf3"],
      [START_FEN, "e2e4", "e4"],
      [KIWIPETE, "e1g1", "O-O"],
      [KIWIPETE, "e1c1", "O-O-O"],
      [KIWIPETE, "e5f7", "Nxf7"],
      [KIWIPETE, "d5e6", "dxe6"],
      [KIWIPETE, "c3b1", "Nb1"],
      // Disambiguation by file, by rank, and by both.
      ["4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "a1d1", "Rad1"],
      ["4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3", "R1a3"],
      ["k7/8/8/8/8/2Q1Q3/8/2Q1K3 w - - 0 1", "c3d2", "Qc3d2"],
      // Promotions, under-promotion with capture, check and mate marks.
      ["1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", "a8=Q"],
      ["1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8n", "axb8=N"],
      ["4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", "Ra8+"],
      ["6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", "Ra8#"],
      // En passant.
      ["4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", "exd6"],
    ];
    for (const [fen, uci, san] of cases) {
      expect(await toSan(fen, uci), `${uci} in ${fen}`).toBe(san);
      expect(await fromSan(fen, san), `${san} in ${fen}`).toBe(uci);
    }
  });

  it("SAN readers tolerate common variants", async () => {
    expect(await fromSan(KIWIPETE, "0-0")).toBe("e1g1");
    expect(await fromSan(KIWIPETE, "Nxf7!?")).toBe("e5f7");
    expect(await fromSan("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8Q")).toBe("a7a8q");
    expect(await fromSan("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6 e.p.")).toBe("e5d6");
  });

  it("toSan and fromSan are inverse on every legal move of many positions", async () => {
    const core = await Core.create();
    core.setPosition(KIWIPETE);
    let checked = 0;
    for (let ply = 0; ply < 40; ply++) {
      const moves = core.legalMoves();
      if (moves.length === 0) break;
      for (const m of moves) {
        expect(core.fromSan(core.toSan(m))).toBe(m);
        checked++;
      }
      core.playMove(moves[(ply * 7919) % moves.length]);
    }
    expect(checked).toBeGreaterThan(500);
  });
});

describe("bad input throws errors that name the problem", () => {
  it("bad FEN", async () => {
    await expect(perft("8/8/8 w - - 0 1", 1)).rejects.toThrow(/invalid FEN: the board has 3 ranks/);
    await expect(perft("4k3/8/8/8/8/8/8/4K3 w - - 0 1 junk", 1)).rejects.toThrow(/unexpected text/);
    await expect(legalMoves(42 as unknown as string)).rejects.toThrow(/FEN must be a string/);
    await expect(legalMoves("x".repeat(10_000))).rejects.toThrow(/too long/);
  });

  it("bad depth", async () => {
    await expect(perft(START_FEN, -1)).rejects.toThrow(/depth must be an integer/);
    await expect(perft(START_FEN, 2.5)).rejects.toThrow(/depth must be an integer/);
    await expect(divide(START_FEN, 0)).rejects.toThrow(/depth >= 1/);
  });

  it("illegal and malformed moves", async () => {
    await expect(toSan(START_FEN, "e2e5")).rejects.toThrow(/illegal move "e2e5"/);
    await expect(fromSan(START_FEN, "Qh5")).rejects.toThrow(/no legal move matches "Qh5"/);
  });

  it("an ambiguous SAN has its own message, naming how many moves match", async () => {
    const threeQueens = "k7/8/8/8/8/2Q1Q3/8/2Q1K3 w - - 0 1";
    await expect(fromSan(threeQueens, "Qd2")).rejects.toThrow(/^ambiguous move "Qd2" in .*: 3 legal moves match/);
    await expect(fromSan(threeQueens, "Qcd2")).rejects.toThrow(/^ambiguous move "Qcd2" in .*: 2 legal moves match/);
    await expect(fromSan(threeQueens, "Q3d2")).rejects.toThrow(/^ambiguous move "Q3d2" in .*: 2 legal moves match/);
    await expect(fromSan("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "Rd1")).rejects.toThrow(/^ambiguous move "Rd1" .*: 2 legal moves match/);
    // Disambiguated, the same moves are found; unmatched texts keep the other message.
    expect(await fromSan(threeQueens, "Q1d2")).toBe("c1d2");
    expect(await fromSan(threeQueens, "Qc3d2")).toBe("c3d2");
    expect(await fromSan(threeQueens, "Qed2")).toBe("e3d2");
    await expect(fromSan(threeQueens, "Qd8")).rejects.toThrow(/^no legal move matches "Qd8" in .* \(illegal or malformed\)$/);
    await expect(fromSan(threeQueens, "Zz9")).rejects.toThrow(/^no legal move matches "Zz9" in .* \(illegal or malformed\)$/);
  });

  it("setPosition with an illegal move throws and keeps the previous position", async () => {
    const core = await Core.create();
    core.setPosition(START_FEN, ["e2e4"]);
    const before = core.fen();
    expect(() => core.setPosition(START_FEN, ["e2e4", "e7e5", "e4e5"])).toThrow(/illegal move "e4e5" at index 2/);
    expect(core.fen()).toBe(before);
    expect(() => core.setPosition("nonsense")).toThrow(/invalid FEN/);
    expect(core.fen()).toBe(before);
    // The previous position comes back with its move history (here: a threefold repetition).
    core.setPosition(START_FEN, ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"]);
    expect(core.status()).toBe("threefold");
    expect(() => core.setPosition(START_FEN, ["e2e4", "e2e4"])).toThrow(/illegal move "e2e4" at index 1/);
    expect(core.status()).toBe("threefold");
  });

  it("playMoves plays up to the first illegal move and says how many it played", async () => {
    const core = await Core.create();
    expect(core.playMoves(["e2e4", "e7e5", "e4e5", "g1f3"])).toBe(2);
    expect(core.fen()).toBe("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
  });

  it("the engine keeps working after errors", async () => {
    expect(await perft(START_FEN, 3)).toBe(8902n);
  });
});

describe("game status", () => {
  it("recognises mate, stalemate, repetition, the 50-move rule and dead draws", async () => {
    const core = await Core.create();
    core.setPosition("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
    expect(core.status()).toBe("checkmate");
    expect(core.inCheck()).toBe(true);
    core.setPosition("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    expect(core.status()).toBe("stalemate");
    core.setPosition(START_FEN, ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"]);
    expect(core.status()).toBe("ongoing");
    core.playMove("f6g8");
    expect(core.status()).toBe("threefold");
    core.setPosition("4k3/8/8/8/8/8/8/R3K3 w - - 99 80", ["a1a2"]);
    expect(core.status()).toBe("fifty-moves");
    core.setPosition("4k3/8/8/8/8/8/8/2N1K1N1 w - - 0 1");
    expect(core.status()).toBe("insufficient-material");
    core.setPosition("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1");
    expect(core.status()).toBe("ongoing");
  });
});

describe("a search request that waited for the worker", () => {
  it("has the wait taken off the clocks and the move time, never below 1 ms", () => {
    expect(lessWaited({ movetime: 300 }, 40.7)).toEqual({ movetime: 260 });
    expect(lessWaited({ wtime: 1000, btime: 2000, winc: 10 }, 50)).toEqual({ wtime: 950, btime: 1950, winc: 10 });
    expect(lessWaited({ movetime: 30 }, 100)).toEqual({ movetime: 1 });
    // Nothing to take off: no wait, a depth or node limit, a ponder or infinite search.
    expect(lessWaited({ movetime: 300 }, 0)).toEqual({ movetime: 300 });
    expect(lessWaited({ depth: 5 }, 80)).toEqual({ depth: 5 });
    expect(lessWaited({ wtime: 1000, ponder: true }, 80)).toEqual({ wtime: 1000, ponder: true });
    expect(lessWaited({ infinite: true }, 80)).toEqual({ infinite: true });
  });
});
