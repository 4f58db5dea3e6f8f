// The Monte Carlo search mode (assembly/mcts.ts): mates the tree must find and report as
// mates (a quiet-looking mate beside a free queen, a mate in two that needs the proofs to
// climb), scores with the right sign (a backup of the wrong sign at any ply turns them), the
// tree's budget (a small Hash ends the search cleanly, never past it), visits as nodes, the
// tree kept between moves, alpha-beta unchanged beside it, and the mode over UCI and the API.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Core } from "../../bindings/core.js";
import { Engine } from "../../bindings/engine.js";
import type { SearchInfo } from "../../bindings/search-types.js";
import { startCli } from "../helpers/cli.js";
import type { UciProcess } from "../../match/uci-process.js";

/** Mates in one whose mating move has a low prior: a free queen (or more) to take instead. */
const MATES_IN_ONE = [
  { fen: "6k1/5ppp/8/q7/8/8/3B1PPP/4R1K1 w - - 0 1", mate: "e1e8" },
  { fen: "4r1k1/5ppp/8/8/8/1Q6/q4PPP/6K1 b - - 0 1", mate: "e8e1" },
  { fen: "6rk/6pp/7N/8/8/q7/8/R5K1 w - - 0 1", mate: "h6f7" },
];
/** A mate in two: the rook sacrifice is taken (the only reply), then the other rook mates. */
const MATE_IN_TWO = { fen: "r5k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1", first: "d2d8" };
/** Positions a queen up for one side, with the side to move's expected sign. */
const QUEEN_UP = [
  { fen: "4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 1", sign: 1 },
  { fen: "4k3/pppp4/8/8/8/8/PPPP4/3QK3 b - - 0 1", sign: -1 },
  { fen: "3qk3/pppp4/8/8/8/8/PPPP4/4K3 b - - 0 1", sign: 1 },
];

describe("Monte Carlo tree search", () => {
  let core: Core;
  beforeAll(async () => {
    core = await Core.create({ hashMb: 16 });
    core.setSearchMode("mcts");
  });
  afterAll(() => core.dispose());
  beforeEach(() => core.newGame());

  it("finds a mate in one that a free queen hides, and reports it as a mate", () => {
    for (const { fen, mate } of MATES_IN_ONE) {
      core.setPosition(fen);
      const r = core.search({ nodes: 3000 });
      expect({ fen, move: r.bestmove, score: r.score }).toEqual({ fen, move: mate, score: { mate: 1 } });
    }
  });

  it("proves a mate in two through the only reply, and stops once proven", () => {
    core.setPosition(MATE_IN_TWO.fen);
    const r = core.search({ nodes: 200000 });
    expect(r.bestmove).toBe(MATE_IN_TWO.first);
    expect(r.score).toEqual({ mate: 2 });
    expect(r.pv.slice(0, 3)).toEqual(["d2d8", "a8d8", "d1d8"]);
    expect(r.nodes).toBeLessThan(200000);
  });

  it("scores a queen up as a win for its side and a queen down as a loss, whoever moves", () => {
    for (const { fen, sign } of QUEEN_UP) {
      core.setPosition(fen);
      const r = core.search({ nodes: 2000 });
      expect("cp" in r.score).toBe(true);
      const cp = (r.score as { cp: number }).cp;
      expect({ fen, signed: Math.sign(cp) * sign, large: Math.abs(cp) > 500 }).toEqual({ fen, signed: 1, large: true });
    }
  });

  it("counts visits as nodes: a node limit is the number of visits", () => {
    core.setPosition("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    expect(core.search({ nodes: 777 }).nodes).toBe(777);
  });

  it("keeps its tree for the next move: one visit after two plies reports the line kept", () => {
    core.setPosition("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    const r = core.search({ nodes: 20000 });
    expect(r.pv.length).toBeGreaterThanOrEqual(4);
    core.setPosition("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", r.pv.slice(0, 2));
    const kept = core.search({ nodes: 1 });
    expect(kept.bestmove).toBe(r.pv[2]);
    expect(kept.depth).toBeGreaterThan(1);
    // A new game drops the tree: one visit sees only the root. So does Clear Hash.
    core.newGame();
    expect(core.search({ nodes: 1 }).depth).toBe(1);
    core.search({ nodes: 5000 });
    expect(core.search({ nodes: 1 }).depth).toBeGreaterThan(1);
    core.clearHash();
    expect(core.search({ nodes: 1 }).depth).toBe(1);
  });

  it("stays within the tree's budget (Hash): a full tree ends the search with a legal move", async () => {
    const small = await Core.create({ hashMb: 1 });
    small.setSearchMode("mcts");
    const infos: SearchInfo[] = [];
    const r = small.search({ nodes: 10_000_000 }, { onInfo: (i) => infos.push(i) });
    expect(r.nodes).toBeGreaterThan(1000);
    expect(r.nodes).toBeLessThan(10_000_000);
    expect(Math.max(...infos.map((i) => i.hashfull))).toBeLessThanOrEqual(1000);
    expect(infos.at(-1)!.hashfull).toBeGreaterThan(900);
    expect(small.legalMoves()).toContain(r.bestmove);
    // The next search starts a new tree (the kept one is over half full) and works as well.
    expect(small.legalMoves()).toContain(small.search({ nodes: 500 }).bestmove);
    small.dispose();
  });

  it("reports MultiPV lines by visits, each a different move", () => {
    core.setPosition("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    core.setMultiPv(3);
    const infos: SearchInfo[] = [];
    core.search({ nodes: 5000 }, { onInfo: (i) => infos.push(i) });
    core.setMultiPv(1);
    const last = infos.slice(-3);
    expect(last.map((i) => i.multipv)).toEqual([1, 2, 3]);
    expect(new Set(last.map((i) => i.pv[0])).size).toBe(3);
  });

  it("leaves alpha-beta as it was: the bench after a Monte Carlo search is a fresh engine's", async () => {
    const fresh = await Core.create({ hashMb: 16 });
    const expected = fresh.bench(6).nodes;
    fresh.dispose();
    core.setPosition("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    core.search({ nodes: 3000 });
    core.setSearchMode("alphabeta");
    core.newGame();
    expect(core.bench(6).nodes).toBe(expected);
    core.setSearchMode("mcts");
  });

  it("searches on the main thread alone when the engine has several", async () => {
    const threaded = await Core.create({ hashMb: 8 });
    await threaded.setThreads(2);
    threaded.setSearchMode("mcts");
    for (let i = 0; i < 3; i++) expect(threaded.search({ nodes: 400 }).nodes).toBe(400);
    threaded.setSearchMode("alphabeta");
    expect(threaded.search({ depth: 4 }).depth).toBe(4);
    threaded.setSearchMode("mcts");
    expect(threaded.search({ nodes: 400 }).nodes).toBe(400);
    threaded.dispose();
  });

  it("refuses an unknown mode", () => {
    expect(() => core.setSearchMode("minimax" as never)).toThrow(/"alphabeta" or "mcts"/);
    expect(core.searchMode()).toBe("mcts");
  });
});

describe("Monte Carlo tree search through the Engine and UCI", () => {
  it("Engine.create({ searchMode }) searches by visits and keeps the mode through a trap; a bad mode is a TypeError", async () => {
    const engine = await Engine.create({ searchMode: "mcts" });
    try {
      const r = await engine.search({ nodes: 300 });
      expect(r.nodes).toBe(300);
      // The mode outlives a trap: the restarted worker proves the mate in two, whose line is
      // its depth (alpha-beta would run its iterations to depth 127).
      await expect(engine.crashForTesting()).rejects.toThrow(/engine crashed/);
      await engine.setPosition(MATE_IN_TWO.fen);
      const proven = await engine.search({ nodes: 100000 });
      expect(proven.score).toEqual({ mate: 2 });
      expect(proven.depth).toBe(3);
      await expect(engine.setSearchMode("mc" as never)).rejects.toThrow(TypeError);
      await engine.setSearchMode("alphabeta");
      expect((await engine.search({ depth: 3 })).depth).toBe(3);
    } finally {
      await engine.dispose();
    }
    await expect(Engine.create({ searchMode: "x" as never })).rejects.toThrow(/searchMode/);
  });

  describe("over UCI", () => {
    let engine: UciProcess;
    let out: string[];
    beforeEach(async () => {
      ({ engine, out } = startCli());
      await engine.init();
    });
    afterEach(() => engine.kill());
    const bestmoves = () => out.filter((l) => l.startsWith("bestmove"));

    it("offers Search Mode, refuses a bad value and plays: infinite until stop, ponder until ponderhit", async () => {
      expect(out).toContain("option name Search Mode type combo default alphabeta var alphabeta var mcts");
      engine.send("setoption name Search Mode value montecarlo");
      await engine.waitFor(() => out.some((l) => l.startsWith("info string error") && l.includes("Search Mode")));
      engine.send("setoption name Search Mode value MCTS");
      engine.send("position startpos moves e2e4");
      engine.send("go infinite");
      await engine.waitFor(() => out.some((l) => / nodes \d{4,} /.test(l)));
      expect(bestmoves()).toEqual([]);
      engine.send("stop");
      await engine.waitFor(() => bestmoves().length === 1);
      engine.send("position startpos moves e2e4 e7e5");
      engine.send("go ponder wtime 2000 btime 2000");
      engine.send("ponderhit");
      await engine.waitFor(() => bestmoves().length === 2);
      engine.send("go nodes 400");
      await engine.waitFor(() => bestmoves().length === 3);
      expect(out.filter((l) => l.startsWith("info depth")).at(-1)).toMatch(/ nodes 400 /);
      expect(bestmoves().every((l) => /^bestmove [a-h][1-8][a-h][1-8]/.test(l))).toBe(true);
    });
  });
});
