// UCI search behaviour through the real CLI: stop latency, ponder and ponderhit, infinite,
// mate scores, exactly one bestmove per go, robustness, and recovery from a wasm trap.
import { describe, it, expect, beforeEach, afterEach } from "vitest";
import { UciProcess } from "../../match/uci-process.js";
import { startCli, exitCode, sleep } from "../helpers/cli.js";
import { Core } from "../../bindings/core.js";

describe("UCI search", () => {
  let engine: UciProcess;
  let out: string[];
  beforeEach(async () => {
    ({ engine, out } = startCli());
    await engine.init();
  });
  afterEach(() => engine.kill());

  const bestmoves = () => out.filter((l) => l.startsWith("bestmove"));

  it("lists its options and answers go depth with info lines and one bestmove", async () => {
    expect(out).toContain("option name Hash type spin default 16 min 1 max 2048");
    expect(out).toContain("option name MultiPV type spin default 1 min 1 max 256");
    expect(out).toContain("option name Clear Hash type button");
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go depth 6");
    const bm = await engine.waitFor((l) => l.startsWith("bestmove"));
    expect(bm).toMatch(/^bestmove [a-h][1-8][a-h][1-8][nbrq]?( ponder [a-h][1-8][a-h][1-8][nbrq]?)?$/);
    const infos = out.filter((l) => l.startsWith("info depth"));
    expect(infos.some((l) => /^info depth 6 seldepth \d+ multipv 1 score cp -?\d+ nodes \d+ nps \d+ hashfull \d+ tbhits \d+ time \d+ pv /.test(l))).toBe(true);
    // A final info line right before bestmove.
    expect(out[out.indexOf(bm) - 1]).toMatch(/^info depth \d+/);
  });

  it("stops an infinite search within 50 ms and never ends one on its own", async () => {
    engine.send("position startpos");
    engine.send("go infinite");
    await sleep(700);
    expect(bestmoves()).toEqual([]);
    const t0 = performance.now();
    engine.send("stop");
    await engine.waitFor((l) => l.startsWith("bestmove"));
    const latency = performance.now() - t0;
    expect(latency).toBeLessThan(50);
    // Even when the search itself is over (a mate is found at once), bestmove waits for stop.
    engine.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    engine.send("go infinite");
    await sleep(400);
    expect(bestmoves().length).toBe(1);
    engine.send("stop");
    await engine.waitFor((l) => l === "bestmove a1a8");
  });

  it("Threads 2: searches, counts the nodes of both threads, stops within 50 ms, and go perft splits the root", async () => {
    expect(out).toContain("option name Threads type spin default 1 min 1 max 256");
    engine.send("setoption name Threads value 2");
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go depth 12");
    await engine.waitFor((l) => l.startsWith("bestmove"), 30_000);
    engine.send("go infinite");
    await sleep(700);
    const t0 = performance.now();
    engine.send("stop");
    await engine.waitFor((l) => bestmoves().length === 2 && l.startsWith("bestmove"));
    expect(performance.now() - t0).toBeLessThan(50);
    engine.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    engine.send("go perft 4");
    await engine.waitFor((l) => l === "Nodes searched: 4085603", 30_000);
    // Setting Threads during a search stops it first, as every option does.
    engine.send("go infinite");
    await sleep(300);
    engine.send("setoption name Threads value 1");
    await engine.waitFor((l) => bestmoves().length === 3 && l.startsWith("bestmove"));
    engine.send("go depth 5");
    await engine.waitFor((l) => bestmoves().length === 4 && l.startsWith("bestmove"));
  });

  it("ponder: no bestmove until ponderhit, then a timed search", async () => {
    engine.send("position startpos moves e2e4");
    engine.send("go ponder wtime 2000 btime 2000 winc 0 binc 0");
    await sleep(600);
    expect(bestmoves()).toEqual([]);
    const t0 = performance.now();
    engine.send("ponderhit");
    await engine.waitFor((l) => l.startsWith("bestmove"), 3000);
    expect(performance.now() - t0).toBeLessThan(1500);
  });

  it("stop during ponder still gives exactly one bestmove", async () => {
    engine.send("position startpos");
    engine.send("go ponder depth 3");
    await sleep(300);
    expect(bestmoves()).toEqual([]);
    engine.send("stop");
    await engine.waitFor((l) => l.startsWith("bestmove"));
    await engine.isReady();
    expect(bestmoves().length).toBe(1);
  });

  it("reports mate scores in moves, negative when mated", async () => {
    engine.send("position fen 2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1");
    engine.send("go depth 12");
    await engine.waitFor((l) => l.startsWith("bestmove"));
    expect(out.some((l) => / score mate 2 /.test(l))).toBe(true);
    engine.send("position fen 6k1/8/8/8/8/1r6/r7/7K w - - 0 1");
    engine.send("go depth 6");
    await engine.waitFor((l) => l.startsWith("bestmove") && out.filter((x) => x.startsWith("bestmove")).length === 2);
    expect(out.some((l) => / score mate -1 /.test(l))).toBe(true);
  });

  it("answers bestmove 0000 without a legal move", async () => {
    engine.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    engine.send("go depth 5");
    expect(await engine.waitFor((l) => l.startsWith("bestmove"))).toBe("bestmove 0000");
  });

  it("a second go while searching ends the first: one bestmove for each go", async () => {
    engine.send("position startpos");
    engine.send("go infinite");
    await sleep(200);
    engine.send("go depth 4");
    await engine.waitFor(() => bestmoves().length === 2, 5000);
    await engine.isReady();
    expect(bestmoves().length).toBe(2);
  });

  it("ucinewgame mid-search still gives the bestmove", async () => {
    engine.send("position startpos");
    engine.send("go infinite");
    await sleep(200);
    engine.send("ucinewgame");
    engine.send("isready");
    await engine.waitFor((l) => l === "readyok");
    expect(bestmoves().length).toBe(1);
  });

  it("answers isready during a search", async () => {
    engine.send("position startpos");
    engine.send("go infinite");
    await sleep(200);
    const t0 = performance.now();
    engine.send("isready");
    await engine.waitFor((l) => l === "readyok");
    expect(performance.now() - t0).toBeLessThan(50);
    expect(bestmoves()).toEqual([]);
    engine.send("stop");
    await engine.waitFor((l) => l.startsWith("bestmove"));
  });

  it.each([1, 2])("quit mid-search on %i thread(s) prints the bestmove and exits with status 0 within a second (no thread left running)", async (threads) => {
    engine.send(`setoption name Threads value ${threads}`);
    engine.send("position startpos");
    engine.send("go infinite");
    await sleep(300 + 200 * (threads - 1));
    const exited = exitCode(engine);
    const t0 = performance.now();
    engine.send("quit");
    expect(await exited).toBe(0);
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(bestmoves().length).toBe(1);
  });

  it("quit right behind go (before the search starts) still prints that go's bestmove", async () => {
    const exited = exitCode(engine);
    engine.send("position startpos");
    engine.send("go depth 40");
    engine.send("quit");
    expect(await exited).toBe(0);
    expect(bestmoves().length).toBe(1);
  });

  it("respects movetime, nodes, searchmoves and MultiPV", async () => {
    engine.send("position startpos");
    const t0 = performance.now();
    engine.send("go movetime 300");
    await engine.waitFor((l) => l.startsWith("bestmove"));
    const took = performance.now() - t0;
    expect(took).toBeGreaterThan(250);
    expect(took).toBeLessThan(600);
    engine.send("go nodes 20000");
    await engine.waitFor(() => bestmoves().length === 2);
    expect(out.filter((l) => l.startsWith("info depth")).at(-1)).toMatch(/ nodes 20000 /);
    engine.send("go depth 5 searchmoves a2a3 h2h3");
    const bm = await engine.waitFor(() => bestmoves().length === 3).then(() => bestmoves()[2]);
    expect(["a2a3", "h2h3"]).toContain(bm.split(" ")[1]);
    engine.send("setoption name multipv value 3");
    engine.send("go depth 5");
    await engine.waitFor(() => bestmoves().length === 4);
    expect(out.some((l) => /^info depth 5 .*multipv 3 /.test(l))).toBe(true);
  });

  it("a stop or ponderhit read before its go has started still ends that go", async () => {
    // One write: the go is still in the command queue when the stop is read.
    engine.send("position startpos\ngo infinite\nstop");
    await engine.waitFor(() => bestmoves().length === 1, 2000);
    // A second go and a stop together while a search runs: each go gets its bestmove.
    engine.send("go infinite");
    await sleep(200);
    engine.send("go infinite\nstop");
    await engine.waitFor(() => bestmoves().length === 3, 2000);
    // A ponderhit right behind a ponder go (a long game history to set up first).
    engine.send("position startpos moves " + "g1f3 g8f6 f3g1 f6g8 ".repeat(50) + "e2e4");
    engine.send("go ponder wtime 300 btime 300\nponderhit");
    await engine.waitFor(() => bestmoves().length === 4, 2000);
    // ponderhit does not end a search that is not pondering.
    engine.send("go infinite");
    await sleep(100);
    engine.send("ponderhit");
    await sleep(300);
    expect(bestmoves().length).toBe(4);
    engine.send("stop");
    await engine.waitFor(() => bestmoves().length === 5, 2000);
  });

  it("MultiPV lines come in score order and bestmove is the first line's move", async () => {
    engine.send("setoption name MultiPV value 3");
    engine.send("position startpos");
    engine.send("go depth 8");
    const bm = await engine.waitFor((l) => l.startsWith("bestmove"));
    for (let depth = 1; depth <= 8; depth++) {
      const lines = out.filter((l) => l.startsWith(`info depth ${depth} `) && / multipv \d /.test(l) && !/bound /.test(l));
      const scores = lines.map((l) => Number(/ score cp (-?\d+)/.exec(l)![1]));
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      if (depth === 8) expect(bm.split(" ")[1]).toBe(/ pv (\S+)/.exec(lines[0])![1]);
    }
  });

  it("clock and node limits: only the opponent's clock, huge numbers, a node limit below depth 1", async () => {
    engine.send("position startpos");
    // No clock for the side to move while the other one has one: no time left, move at once
    // (after depth 1, which is always completed; a search on any budget goes deeper).
    const seen = out.length;
    engine.send("go btime 1000");
    await engine.waitFor(() => bestmoves().length === 1, 1000);
    const depths = out.slice(seen).filter((l) => l.startsWith("info depth")).map((l) => Number(l.split(" ")[2]));
    expect(depths.length).toBeGreaterThan(0);
    expect(Math.max(...depths)).toBe(1);
    // Numbers beyond 32 bits saturate instead of wrapping to a short search.
    engine.send("go movetime 4294967396");
    await sleep(400);
    expect(bestmoves().length).toBe(1);
    engine.send("stop");
    await engine.waitFor(() => bestmoves().length === 2);
    // Depth 1 is always completed, so the move played was searched.
    engine.send("go nodes 1");
    await engine.waitFor(() => bestmoves().length === 3);
    expect(out.filter((l) => l.startsWith("info depth")).at(-1)).toMatch(/^info depth 1 /);
  });

  it("Clear Hash during a search stops it first, so isready is answered", async () => {
    engine.send("position startpos");
    engine.send("go infinite");
    await sleep(200);
    engine.send("setoption name Clear Hash");
    engine.send("isready");
    await engine.waitFor((l) => l === "readyok", 1000);
    expect(bestmoves().length).toBe(1);
  });

  it("clamps option values and says so; rejects non-numbers; names are case-insensitive", async () => {
    engine.send("setoption name HASH value 0");
    engine.send("setoption name Threads value 0");
    engine.send("setoption name Move Overhead value lots");
    engine.send("setoption name No Such Option value 1");
    engine.send("setoption name clear hash");
    await engine.isReady();
    expect(out).toContain("info string Hash clamped to 1 (range 1..2048)");
    expect(out).toContain("info string Threads clamped to 1 (range 1..256)");
    expect(out.some((l) => l.startsWith("info string error: option Move Overhead needs a number"))).toBe(true);
    expect(out.some((l) => l.startsWith("info string error: unknown option 'No Such Option'"))).toBe(true);
    engine.send("setoption name Hash value 16");
    engine.send("go depth 3");
    await engine.waitFor((l) => l.startsWith("bestmove"));
  });

  it("survives garbage, CRLF, extra spaces, long lines and wrong order", async () => {
    engine.send("go depth 2 wtime abc");
    engine.send("position");
    engine.send("position fen");
    engine.send("setoption");
    engine.send("  position   startpos   moves   e2e4  \r");
    engine.send("x".repeat(10_000));
    engine.send("position startpos moves " + "g1f3 g8f6 f3g1 f6g8 ".repeat(300));
    engine.send("\u0000\u0001 binary junk \u00ff");
    engine.send("isready");
    await engine.waitFor((l) => l === "readyok");
    expect(bestmoves().length).toBe(1);
    const errors = out.filter((l) => l.startsWith("info string error:"));
    expect(errors.length).toBeGreaterThanOrEqual(5);
    // Error lines are single printable lines of bounded length, whatever the input was.
    engine.send("go " + "x ".repeat(100_000) + "depth 1");
    await engine.waitFor(() => bestmoves().length === 2);
    for (const l of out.filter((l) => l.startsWith("info string"))) {
      expect(l.length).toBeLessThan(600);
      expect(l).not.toMatch(/[\x00-\x1f]/);
    }
    engine.send("d");
    await engine.waitFor((l) => l.startsWith("Fen:"));
    expect(out).toContain("Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1200 601");
  });

  it("recovers from a wasm trap: reports it, keeps the position and keeps playing", async () => {
    engine.send("position startpos moves e2e4");
    engine.send("debug crash");
    engine.send("isready");
    await engine.waitFor((l) => l === "readyok");
    expect(out.some((l) => /^info string error: engine crashed: /.test(l))).toBe(true);
    engine.send("d");
    await engine.waitFor((l) => l.startsWith("Fen:"));
    expect(out).toContain("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    engine.send("go depth 4");
    await engine.waitFor((l) => l.startsWith("bestmove"));
  });

  it("eval names the embedded network and bench prints its signature", async () => {
    const embedded = (await Core.create()).info().network?.name; // nnue-engine.test.ts names it
    engine.send("position startpos");
    engine.send("eval");
    // The hand-crafted evaluation's term breakdown is tested in nnue-engine.test.ts.
    expect(await engine.waitFor((l) => l.startsWith("NNUE evaluation"))).toMatch(/^NNUE evaluation \(wcnn-[0-9a-f]{8}\.nnue\): -?\d+ cp \(side to move\)$/);
    expect(out.find((l) => l.startsWith("NNUE evaluation"))).toContain(`(${embedded})`);
    engine.send("bench 5");
    const line = await engine.waitFor((l) => l.startsWith("Nodes searched"));
    // The same count as the core's bench at that depth (the exact default signature is
    // asserted in bench-signature.test.ts).
    expect(Number(line.split(":")[1])).toBe((await Core.create()).bench(5).nodes);
    engine.send("d");
    await engine.waitFor((l) => l.startsWith("Fen:"));
    expect(out.filter((l) => l.startsWith("Fen:")).at(-1)).toBe("Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  });
});
