// The match library's perft checks (match/perft.ts): suite files as tools/perft-suite.ts writes
// them, and the comparison with a reference engine that narrows a differing count down to the
// first move where the two part (here against a stand-in reference that misses one move).
import { describe, it, expect, beforeAll } from "vitest";
import { Core, START_FEN } from "../../bindings/core.js";
import { CHESS960_PERFT_SUITE, PERFT_SUITE, PerftReference, comparePerft, narrowPerftDifference, parsePerftSuite, readPerftSuite } from "../../match/perft.js";

/** A reference that counts with its own core but does not see the last move of `path`
 *  after the moves before it: every count on the way there is one short. */
function missingMove(core: Core, path: readonly string[]): PerftReference {
  const divide = async (position: string, depth: number): Promise<Map<string, bigint>> => {
    const m = /^fen (.+?)(?: moves (.+))?$/.exec(position);
    if (!m) throw new Error(`unexpected position ${position}`);
    const moves = m[2] ? m[2].split(" ") : [];
    core.setPosition(m[1], moves);
    const counts = new Map(core.divide(depth).map((e) => [e.move, e.nodes]));
    const onPath = moves.every((mv, i) => path[i] === mv) && moves.length < path.length && path.length - moves.length === depth;
    if (onPath) {
      const next = path[moves.length];
      if (depth === 1) counts.delete(next);
      else counts.set(next, counts.get(next)! - 1n);
    }
    return counts;
  };
  return {
    divide,
    perft: async (position, depth) => {
      const counts = await divide(position, depth);
      return [[...counts.values()].reduce((a, b) => a + b, 0n), 0];
    },
  };
}

describe("perft suites", () => {
  it("parse counts by depth and what each position tests", () => {
    const text = "# a comment\n\n8/8/8/8/8/8/8/K1k5 w - - 0 1 ;D1 3 ;D2 9 ; bare kings\n";
    expect(parsePerftSuite(text)).toEqual([{ fen: "8/8/8/8/8/8/8/K1k5 w - - 0 1", counts: [3n, 9n], what: "bare kings" }]);
  });

  it("hold the committed suites, standard and Chess960", () => {
    const standard = readPerftSuite(PERFT_SUITE);
    expect(standard[0]).toEqual({ fen: START_FEN, counts: [20n, 400n, 8902n, 197281n, 4865609n, 119060324n], what: "start position" });
    expect(standard.length).toBeGreaterThan(20);
    expect(readPerftSuite(CHESS960_PERFT_SUITE).length).toBeGreaterThan(10);
  });
});

describe("perft against a reference engine", () => {
  let ours: Core;
  let theirs: Core;
  beforeAll(async () => {
    ours = await Core.create();
    theirs = await Core.create();
  });

  it("finds no difference when the counts agree", async () => {
    const r = await comparePerft(ours, missingMove(theirs, []), START_FEN, 3);
    expect(r).toMatchObject({ fen: START_FEN, depth: 3, ours: 8902n, theirs: 8902n });
    expect(r.difference).toBeUndefined();
  });

  it("narrows a differing count down to the move the reference misses", async () => {
    const reference = missingMove(theirs, ["e2e4", "e7e5", "d1h5"]);
    const r = await comparePerft(ours, reference, START_FEN, 3, "Stockfish");
    expect([r.ours, r.theirs]).toEqual([8902n, 8901n]);
    expect(r.difference).toBe("after e2e4 e7e5: move d1h5 ours 1, Stockfish missing");
    expect(await narrowPerftDifference(ours, missingMove(theirs, ["g1f3", "b8c6"]), START_FEN, 2)).toBe(
      "after g1f3: move b8c6 ours 1, reference missing",
    );
  });
});
