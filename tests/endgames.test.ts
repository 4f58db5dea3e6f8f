// Endgame play: the engine, playing both sides, mates a lone king from a far position well
// within the 50-move rule.
import { describe, it, expect } from "vitest";
import { Core } from "../bindings/core.js";

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
