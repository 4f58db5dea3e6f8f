// Endgame play: the engine, playing both sides, mates a lone king from a far position well
// within the 50-move rule; the evaluation report of such a position.
import { describe, it, expect } from "vitest";
import { Core } from "../../bindings/core.js";

async function playOut(fen: string, nodesPerMove: number): Promise<{ status: string; moves: number }> {
  const c = await Core.create();
  c.setPosition(fen);
  let plies = 0;
  while (c.status() === "ongoing" && plies < 200) {
    c.playMove(c.search({ nodes: nodesPerMove }).bestmove);
    plies++;
  }
  return { status: c.status(), moves: Math.ceil(plies / 2) };
}

describe("mating a lone king", () => {
  it("KR v K from the centre", async () => {
    const r = await playOut("8/8/8/3k4/8/8/8/R6K w - - 0 1", 5000);
    expect(r.status).toBe("checkmate");
    expect(r.moves).toBeLessThanOrEqual(30);
  });
  it("KQ v K from the centre", async () => {
    const r = await playOut("8/8/8/3k4/8/8/8/Q6K w - - 0 1", 5000);
    expect(r.status).toBe("checkmate");
    expect(r.moves).toBeLessThanOrEqual(20);
  });
});

describe("the evaluation report of a mop-up", () => {
  it.each(["classical", "nnue"] as const)("gives the position's phase in the %s build, not the last evaluation's", async (build) => {
    const c = await Core.create({ build });
    c.setPosition("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    expect(c.evaluate().phase).toBe(24);
    c.setPosition("8/8/8/4k3/8/8/8/4K2Q w - - 0 1");
    // A queen is 4 of the 24 phase units.
    expect(c.evaluate()).toMatchObject({ phase: 4, scale: 64 });
  });
});
