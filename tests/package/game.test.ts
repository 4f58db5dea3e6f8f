// The Game model: moves in SAN and UCI checked by the engine, undo, positions, the status by
// the rules, legal moves in both notations, and games sharing the in-thread rules instance
// with each other and with an Engine.
import { describe, it, expect } from "vitest";
import { Game, Engine, START_FEN } from "../../build/index.js";

describe("Game", () => {
  it("needs the engine loaded: new Game() says so before, works after Game.create()", async () => {
    expect(() => new Game()).toThrow(/not loaded yet \(await loadRules\(\), Game.create\(\) or Engine.create\(\) first\)/);
    const g = await Game.create();
    expect(new Game().fen()).toBe(START_FEN);
    expect(g.startFen).toBe(START_FEN);
    await expect(Game.create("8/8/8/8/8/8/8/8 w - - 0 1")).rejects.toThrow(/invalid FEN: white has 0 kings/);
  });

  it("plays SAN and UCI, writes SAN with check and mate signs, and takes moves back", async () => {
    const g = await Game.create();
    const played = ["f3", "e7e5", "g4", "Qh4"].map((m) => g.play(m));
    expect(played.map((m) => m.san)).toEqual(["f3", "e5", "g4", "Qh4#"]);
    expect(g.moves().map((m) => m.uci)).toEqual(["f2f3", "e7e5", "g2g4", "d8h4"]);
    expect(g.status()).toBe("checkmate");
    expect(g.legalMoves()).toEqual([]);
    expect(g.length).toBe(4);
    expect(g.undo()?.san).toBe("Qh4#");
    expect(g.status()).toBe("ongoing");
    expect(g.turn()).toBe("b");
    expect(g.fen()).toBe("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
    expect(g.fenAt(0)).toBe(START_FEN);
    expect(g.fenAt(1)).toBe("rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1");
    expect(() => g.fenAt(4)).toThrow(RangeError);
    expect(g.play("Qh4+").san).toBe("Qh4#"); // a wrong sign is tolerated; the engine writes the right one
    g.undo();
    expect(g.play("Ke7").san).toBe("Ke7"); // after undo the board is the game's again
    expect(g.fen()).toBe("rnbq1bnr/ppppkppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR w KQ - 1 3");
  });

  it("refuses illegal, ambiguous and malformed moves and stays unchanged", async () => {
    const g = await Game.create("k7/8/8/8/8/2Q1Q3/8/2Q1K3 w - - 0 1");
    for (const [move, message] of [
      ["Qd2", /ambiguous move "Qd2" in k7\/8\/8\/8\/8\/2Q1Q3\/8\/2Q1K3 w - - 0 1: 3 legal moves match/],
      ["e1e3", /illegal move "e1e3" in k7/],
      ["Nz9", /no legal move matches "Nz9"/],
      ["", /no legal move matches ""/],
      ["O-O", /no legal move matches "O-O"/],
    ] as const) {
      expect(() => g.play(move), move).toThrow(message);
    }
    expect(() => g.play(42 as unknown as string)).toThrow(TypeError);
    expect(g.length).toBe(0);
    expect(g.play("Qc3d2").san).toBe("Qc3d2");
  });

  it("reads the SAN people write: zeros in castling, no capture sign, e.p., promotions", async () => {
    const castle = await Game.create("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    expect(castle.play("0-0-0").uci).toBe("e1c1");
    expect(castle.play("O-O").uci).toBe("e8g8");
    const ep = await Game.create("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    expect(ep.play("exd6 e.p.").san).toBe("exd6");
    const pawn = await Game.create("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    expect(pawn.play("ed5").san).toBe("exd5");
    const promo = await Game.create("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    expect(promo.play("axb8N").san).toBe("axb8=N");
    promo.undo();
    expect(promo.play("a8q").san).toBe("a8=Q");
    promo.undo();
    expect(promo.play("a7a8Q").uci).toBe("a7a8q");
  });

  it("knows the rules' endings: stalemate, threefold, fifty moves, insufficient material", async () => {
    const stalemate = await Game.create("k7/8/8/2Q5/8/8/8/7K w - - 0 1");
    stalemate.play("Kg1");
    expect(stalemate.status()).toBe("ongoing");
    stalemate.undo();
    stalemate.play("Qb6");
    expect(stalemate.status()).toBe("stalemate");

    const threefold = await Game.create();
    for (const m of ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]) threefold.play(m);
    expect(threefold.status()).toBe("ongoing");
    threefold.play("Ng8");
    expect(threefold.status()).toBe("threefold");

    const fifty = await Game.create("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    expect(fifty.status()).toBe("ongoing");
    fifty.play("Ra2");
    expect(fifty.status()).toBe("fifty-moves");

    const material = await Game.create("4k3/8/8/8/8/8/3r4/4KB2 w - - 0 1");
    expect(material.status()).toBe("ongoing");
    material.play("Kxd2");
    expect(material.status()).toBe("insufficient-material");
  });

  it("legal moves come in both notations", async () => {
    const g = await Game.create("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    const legal = g.legalMoves();
    expect(legal.length).toBe(48);
    expect(legal).toContainEqual({ uci: "e1g1", san: "O-O" });
    expect(legal).toContainEqual({ uci: "e5f7", san: "Nxf7" });
    for (const { uci, san } of legal) {
      const copy = await Game.create(g.fen());
      expect(copy.play(san).uci).toBe(uci);
    }
  });

  it("games and engines share the in-thread board without disturbing each other", async () => {
    const a = await Game.create();
    const b = await Game.create("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    const engine = await Engine.create();
    try {
      a.play("e4");
      b.play("O-O");
      await engine.setPosition(START_FEN, ["d2d4"]);
      a.play("c5");
      expect(await engine.toSan("d7d5")).toBe("d5");
      b.play("Kd7");
      expect(a.fen()).toBe("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
      expect(b.fen()).toBe("8/3k4/8/8/8/8/8/5RK1 w - - 2 2");
      expect(await engine.fen()).toBe("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1");
      expect(a.legalMoves().length).toBe(30);
    } finally {
      await engine.dispose();
    }
  });
});
