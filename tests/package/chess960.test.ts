// Chess960: the start positions by number; castling in UCI and SAN through Core, Engine, Game,
// PGN and UCI. Its perft suite (tricky set-ups, counts from Stockfish) is in perft.test.ts, the
// live comparison with Stockfish in stockfish.test.ts.
import { describe, it, expect, beforeAll } from "vitest";
import { Core } from "../../bindings/core.js";
import { Engine } from "../../bindings/engine.js";
import { Game } from "../../bindings/game.js";
import { parsePgn } from "../../bindings/pgn-read.js";
import { chess960StartFen, chess960BackRank } from "../../bindings/chess960.js";
import { perft, legalMoves, toSan, fromSan, createUciChannel } from "../../bindings/index.js";

describe("Chess960 start positions by number", () => {
  it("follow Scharnagl's numbering", () => {
    expect(chess960BackRank(0)).toBe("BBQNNRKR");
    expect(chess960BackRank(1)).toBe("BQNBNRKR");
    expect(chess960BackRank(2)).toBe("BQNNRBKR");
    expect(chess960BackRank(3)).toBe("BQNNRKRB");
    expect(chess960BackRank(4)).toBe("QBBNNRKR");
    expect(chess960BackRank(518)).toBe("RNBQKBNR");
    expect(chess960BackRank(959)).toBe("RKRNNQBB");
    expect(chess960StartFen(518)).toBe("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  });

  it("are 960 different positions, each with bishops on both colours and the king between the rooks", () => {
    const all = new Set<string>();
    for (let n = 0; n < 960; n++) {
      const r = chess960BackRank(n);
      all.add(r);
      expect([...r].sort().join(""), r).toBe("BBKNNQRR");
      expect((r.indexOf("B") + r.lastIndexOf("B")) % 2, r).toBe(1);
      expect(r.indexOf("R") < r.indexOf("K") && r.indexOf("K") < r.lastIndexOf("R"), r).toBe(true);
    }
    expect(all.size).toBe(960);
  });

  it("refuse numbers outside 0..959", () => {
    expect(() => chess960StartFen(960)).toThrow(RangeError);
    expect(() => chess960StartFen(-1)).toThrow(/from 0 to 959/);
    expect(() => chess960StartFen(1.5)).toThrow(RangeError);
  });
});

describe("castling notation", () => {
  let core: Core;
  beforeAll(async () => {
    core = await Core.create();
  });

  it("UCI: the king's move in standard mode, king-takes-rook in Chess960 mode; SAN O-O either way", () => {
    const fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    core.setPosition(fen);
    expect(core.legalMoves().filter((m) => m.startsWith("e1") && !core.toSan(m).startsWith("K"))).toEqual(["e1g1", "e1c1"]);
    expect(core.fromSan("O-O")).toBe("e1g1");
    expect(core.playMove("e1h1")).toBe(false);
    core.setChess960(true);
    core.setPosition(fen);
    expect(core.fromSan("O-O")).toBe("e1h1");
    expect(core.fromSan("O-O-O")).toBe("e1a1");
    expect(core.toSan("e1h1")).toBe("O-O");
    expect(core.playMove("e1g1")).toBe(false);
    expect(core.playMove("e1h1")).toBe(true);
    expect(core.fen()).toBe("r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    core.setChess960(false);
  });

  it("keeps castling and the king's own step to the same square apart", () => {
    core.setChess960(true);
    core.setPosition("4k3/8/8/8/8/8/8/5K1R w K - 0 1");
    expect(core.toSan("f1g1")).toBe("Kg1");
    expect(core.toSan("f1h1")).toBe("O-O");
    core.playMove("f1h1");
    expect(core.fen()).toBe("4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    // The king that does not move, and the swap of king and rook.
    core.setPosition("4k3/8/8/8/8/8/8/6KR w K - 0 1");
    expect(core.fromSan("O-O")).toBe("g1h1");
    core.playMove("g1h1");
    expect(core.fen()).toBe("4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    core.setPosition("4k3/8/8/8/8/8/8/2RK4 w Q - 0 1");
    expect(core.playSanOrUci("O-O-O")).toEqual({ uci: "d1c1", san: "O-O-O" });
    expect(core.fen()).toBe("4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
    core.setChess960(false);
  });

  it("a Chess960 FEN needs Chess960 mode; a failed set-up keeps the position and its mode", () => {
    core.setChess960(false);
    core.setPosition("startpos");
    expect(() => core.setPosition(chess960StartFen(0))).toThrow(/Chess960 castling needs Chess960 mode/);
    core.setChess960Position(0, ["g2g3"]);
    expect(core.isChess960()).toBe(true);
    expect(core.positionIsChess960()).toBe(true);
    expect(core.fen()).toBe("bbqnnrkr/pppppppp/8/8/8/6P1/PPPPPP1P/BBQNNRKR b KQkq - 0 1");
    expect(() => core.setPosition("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1", ["b1b3"])).toThrow(/illegal move/);
    expect(core.fen()).toBe("bbqnnrkr/pppppppp/8/8/8/6P1/PPPPPP1P/BBQNNRKR b KQkq - 0 1");
    expect(() => core.setChess960Position(960)).toThrow(RangeError);
    core.setChess960(false);
  });
});

describe("Chess960 through the Engine, the helpers, Game, PGN and UCI", () => {
  it("Engine: setChess960 and setChess960Position; the search plays king-takes-rook", async () => {
    const engine = await Engine.create({ chess960: true, build: "classical" });
    try {
      await engine.setPosition("4k3/8/8/8/8/8/8/qR1K4 w Q - 0 1");
      // Castling long would uncover the queen behind the b1 rook: not legal.
      expect(await engine.legalMoves()).not.toContain("d1b1");
      await engine.setChess960Position(959, ["g2g3"]);
      expect(await engine.fen()).toBe("rkrnnqbb/pppppppp/8/8/8/6P1/PPPPPP1P/RKRNNQBB b KQkq - 0 1");
      await engine.setPosition("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1");
      expect(await engine.legalMoves()).toEqual(expect.arrayContaining(["b1a1", "b1h1"]));
      expect(await engine.toSan("b1h1")).toBe("O-O");
      expect(await engine.perft(3)).toBe(await perft(await engine.fen(), 3, { chess960: true }));
      const result = await engine.search({ depth: 4, searchmoves: ["b1h1"] });
      expect(result.bestmove).toBe("b1h1");
      await engine.setChess960(false);
      await expect(engine.setPosition(chess960StartFen(0))).rejects.toThrow(/Chess960 castling needs Chess960 mode/);
    } finally {
      await engine.dispose();
    }
  });

  it("helpers take { chess960 }", async () => {
    const fen = "4k3/8/8/8/8/8/8/5KR1 w K - 0 1";
    expect(await legalMoves(fen, { chess960: true })).toContain("f1g1");
    expect(await toSan(fen, "f1g1", { chess960: true })).toBe("O-O");
    expect(await fromSan(fen, "O-O", { chess960: true })).toBe("f1g1");
    await expect(legalMoves(fen)).rejects.toThrow(/Chess960/);
    await expect(legalMoves(fen, { chess960: "yes" } as never)).rejects.toThrow(TypeError);
  });

  it("Game and PGN: Variant Chess960 with SetUp and FEN, castling in SAN, read back the same", async () => {
    const game = await Game.create("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1", { chess960: true });
    for (const m of ["O-O", "O-O-O"]) game.play(m);
    expect(game.moves().map((m) => m.uci)).toEqual(["b1h1", "b8a8"]);
    expect(game.fen()).toBe("2kr3r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w - - 2 2");
    const pgn = game.toPgn();
    expect(pgn).toContain('[Variant "Chess960"]\n[SetUp "1"]\n[FEN "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1"]');
    expect(pgn).toContain("1. O-O O-O-O *");
    const [back] = await parsePgn(pgn);
    expect(back.error).toBeUndefined();
    expect(back.chess960).toBe(true);
    expect(back.fen()).toBe(game.fen());
    expect(back.toPgn()).toBe(pgn);
    // Shredder-FEN in the FEN tag; the variant named as older software names it.
    const [shredder] = await parsePgn('[Variant "Fischerandom"]\n[SetUp "1"]\n[FEN "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1"]\n\n1. O-O-O O-O-O *\n');
    expect(shredder.error).toBeUndefined();
    expect(shredder.moves().map((m) => m.uci)).toEqual(["b1a1", "b8a8"]);
    const [standard] = await parsePgn('[SetUp "1"]\n[FEN "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1"]\n\n1. O-O-O *\n');
    expect(standard.error?.message).toMatch(/Chess960 castling needs Chess960 mode/);
  });

  it("UCI: UCI_Chess960 declared, king-takes-rook in both directions, go perft as Stockfish prints it", async () => {
    const channel = await createUciChannel({ build: "classical" });
    const seen: string[] = [];
    let waiter: { until: (l: string) => boolean; resolve: () => void } | undefined;
    channel.onLine((l) => {
      seen.push(l);
      if (waiter?.until(l)) waiter.resolve();
    });
    const uci = {
      send: (line: string) => channel.send(line),
      /** Sends lines and resolves with everything printed until a line matches `until`. */
      command: (line: string, until: (l: string) => boolean): Promise<string[]> => {
        const from = seen.length;
        const done = new Promise<void>((resolve) => (waiter = { until, resolve }));
        channel.send(line);
        return done.then(() => seen.slice(from));
      },
      close: () => channel.close(),
    };
    try {
      const lines = await uci.command("uci", (l) => l === "uciok");
      expect(lines).toContain("option name UCI_Chess960 type check default false");
      uci.send("setoption name UCI_Chess960 value true");
      uci.send("position fen 4k3/8/8/8/8/8/8/5K1R w K - 0 1 moves f1h1");
      const d = await uci.command("d", (l) => l.startsWith("Checkers"));
      expect(d).toContain("Fen: 4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
      uci.send("position fen rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1");
      const perftLines = await uci.command("go perft 1", (l) => l.startsWith("Nodes searched"));
      expect(perftLines).toContain("b1a1: 1");
      expect(perftLines).toContain("b1h1: 1");
      uci.send("setoption name UCI_Chess960 value maybe");
      expect(await uci.command("isready", (l) => l === "readyok")).toContain("info string error: option UCI_Chess960 needs true or false, not 'maybe'");
      uci.send("setoption name UCI_Chess960 value false");
      const rejected = await uci.command("position fen rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1\nisready", (l) => l === "readyok");
      expect(rejected.join("\n")).toMatch(/Chess960 castling needs Chess960 mode/);
    } finally {
      await uci.close();
    }
  });
});
