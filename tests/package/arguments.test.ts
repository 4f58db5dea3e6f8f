// Bad arguments get a TypeError or RangeError that names the argument and its allowed range,
// in the Engine, the Core, the helpers and UCI alike; the engine keeps working afterwards.
// The cases start with the list a newcomer reported in issue 11.
import { describe, it, expect, afterAll } from "vitest";
import { Engine, Core, createUciChannel, perft, legalMoves, toSan, START_FEN } from "../../build/index.js";

const engines: Engine[] = [];
afterAll(async () => {
  await Promise.all(engines.map((e) => e.dispose()));
});

describe("Engine arguments", () => {
  it("the newcomer's list: no limit, nodes 1e20, depth -1 and NaN, hashMb 100000, setHash(NaN)", async () => {
    const e = await Engine.create();
    engines.push(e);
    await expect((e.search as (l?: unknown) => Promise<unknown>)()).rejects.toThrow(
      new TypeError("a search needs a limit (depth, nodes, mate, movetime, wtime, btime) or infinite: true"),
    );
    await expect(e.search({})).rejects.toThrow(TypeError);
    await expect(e.search({ nodes: 1e20 })).rejects.toThrow(new RangeError("nodes must be an integer from 1 to 9007199254740991, got 100000000000000000000"));
    await expect(e.search({ depth: -1 })).rejects.toThrow(new RangeError("depth must be an integer from 1 to 127, got -1"));
    await expect(e.search({ depth: NaN })).rejects.toThrow(new RangeError("depth must be an integer from 1 to 127, got NaN"));
    await expect(Engine.create({ hashMb: 100000 })).rejects.toThrow(new RangeError("hashMb must be an integer from 1 to 2048 (megabytes), got 100000"));
    await expect(e.setHash(NaN)).rejects.toThrow(new RangeError("setHash: mb must be an integer from 1 to 2048 (megabytes), got NaN"));
    expect(e.searching).toBe(false);
  });

  it("every limit and option is checked", async () => {
    const e = await Engine.create();
    engines.push(e);
    const cases: [() => Promise<unknown>, ErrorConstructor, RegExp][] = [
      [() => e.search({ depth: 0 }), RangeError, /^depth must be an integer from 1 to 127, got 0$/],
      [() => e.search({ depth: 2.5 }), RangeError, /^depth must be an integer from 1 to 127, got 2.5$/],
      [() => e.search({ depth: 128 }), RangeError, /from 1 to 127/],
      [() => e.search({ depth: "5" as unknown as number }), TypeError, /^depth must be an integer from 1 to 127, got "5"$/],
      [() => e.search({ nodes: 0 }), RangeError, /^nodes must be an integer from 1 to/],
      [() => e.search({ mate: 64 }), RangeError, /^mate must be an integer from 1 to 63, got 64$/],
      [() => e.search({ movetime: 0 }), RangeError, /^movetime must be a number from 1 to 2147483647 \(milliseconds\), got 0$/],
      [() => e.search({ movetime: Infinity }), RangeError, /^movetime must be a number/],
      [() => e.search({ wtime: -5, btime: 1000 }), RangeError, /^wtime must be a number from 0 to 2147483647 \(milliseconds\), got -5$/],
      [() => e.search({ wtime: 1000, winc: -1 }), RangeError, /^winc must be a number from 0/],
      [() => e.search({ wtime: 1000, movestogo: 1.5 }), RangeError, /^movestogo must be an integer from 0/],
      [() => e.search({ infinite: 1 as unknown as boolean }), TypeError, /^infinite must be true or false, got 1$/],
      [() => e.search({ ponder: true }), TypeError, /needs a limit/],
      [() => e.search({ movetme: 100 } as object), TypeError, /^unknown search limit "movetme" \(known: depth, nodes/],
      [() => e.search({ depth: 3, searchmoves: "e2e4" as unknown as string[] }), TypeError, /^searchmoves must be an array of UCI moves/],
      [() => e.search({ depth: 3, searchmoves: ["e2e5"] }), Error, /^searchmoves: "e2e5" is not a legal move/],
      [() => e.search({ depth: 3 }, { onInfo: "log" as unknown as () => void }), TypeError, /^onInfo must be a function$/],
      [() => e.search(null as unknown as object), TypeError, /^search limit must be an object, got null$/],
      [() => e.setHash(100000), RangeError, /^setHash: mb must be an integer from 1 to 2048/],
      [() => e.setHash(0.5), RangeError, /^setHash: mb/],
      [() => e.setMultiPv(0), RangeError, /^setMultiPv: n must be an integer from 1 to 256, got 0$/],
      [() => e.setMultiPv(257), RangeError, /^setMultiPv: n/],
      [() => e.setSearchMode("puct" as never), TypeError, /^setSearchMode: mode must be "alphabeta" or "mcts", got "puct"$/],
      [() => e.setMoveOverhead(-1), RangeError, /^setMoveOverhead: ms must be an integer from 0 to 5000 \(milliseconds\), got -1$/],
      [() => e.setSearchFeatures(65536), RangeError, /^setSearchFeatures: mask must be an integer from 0 to 65535, got 65536$/],
      [() => e.perft(21), RangeError, /^depth must be an integer from 0 to 20, got 21$/],
      [() => e.divide(0), RangeError, /^depth must be an integer from 1 to 20, got 0$/],
      [() => e.bench(-1), RangeError, /^depth must be an integer from 0 to 64/],
      [() => e.setPosition(42 as unknown as string), TypeError, /^FEN must be a string, got number$/],
      [() => e.setPosition(START_FEN, "e2e4" as unknown as string[]), TypeError, /^moves must be an array/],
      [() => e.toSan(42 as unknown as string), TypeError, /^a UCI move must be a string, got number$/],
      [() => Engine.create({ wasmUrl: "build/wasmchess.wasm" as unknown as URL }), TypeError, /^wasmUrl must be a URL$/],
      [() => Engine.create({ hashmb: 8 } as object), TypeError, /^unknown Engine option "hashmb" \(known: hashMb, workerUrl, sharedMemory, build, wasmUrl, chess960, ownBook, bookSeed, skillLevel, elo, threads, syzygyPath, searchMode\)$/],
      [() => Engine.create({ sharedMemory: "no" as unknown as boolean }), TypeError, /^sharedMemory must be true or false/],
    ];
    for (const [call, kind, message] of cases) {
      const error = await call().then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error, String(message)).toBeInstanceOf(kind);
      expect((error as Error).message).toMatch(message);
    }
    // Nothing above changed the engine: its options and position are those it started with.
    expect(await e.fen()).toBe(START_FEN);
    const r = await e.search({ depth: 3 });
    expect(r.depth).toBe(3);
    expect(await e.setHash(2)).toBe(2);
  });
});

describe("Core and helper arguments", () => {
  it("Core checks limits and options as the Engine does", async () => {
    const core = await Core.create({ hashMb: 1 });
    expect(() => core.search({})).toThrow(TypeError);
    expect(() => core.search({ nodes: 1e20 })).toThrow(RangeError);
    expect(() => core.setHash(NaN)).toThrow(new RangeError("setHash: mb must be an integer from 1 to 2048 (megabytes), got NaN"));
    expect(() => core.setMultiPv(1000)).toThrow(RangeError);
    await expect(Core.create({ hashMb: -4 })).rejects.toThrow(RangeError);
    expect(core.search({ nodes: 500 }).bestmove).toMatch(/^[a-h][1-8][a-h][1-8]$/);
  });

  it("the helpers name the bad argument", async () => {
    await expect(perft(START_FEN, -1)).rejects.toThrow(new RangeError("depth must be an integer from 0 to 20, got -1"));
    await expect(perft(START_FEN, 1.5)).rejects.toThrow(RangeError);
    await expect(legalMoves(42 as unknown as string)).rejects.toThrow(new TypeError("FEN must be a string, got number"));
    await expect(toSan(START_FEN, undefined as unknown as string)).rejects.toThrow(TypeError);
    expect(await perft(START_FEN, 2)).toBe(400n);
  });
});

describe("UCI arguments", () => {
  it("clamps out-of-range go values and says so; refuses a go whose limit is not a number", async () => {
    const uci = await createUciChannel();
    const lines: string[] = [];
    uci.onLine((l) => lines.push(l));
    const bestmoves = () => lines.filter((l) => l.startsWith("bestmove"));
    const waitBestmoves = async (n: number) => {
      for (let i = 0; i < 500 && bestmoves().length < n; i++) await new Promise((r) => setTimeout(r, 10));
      expect(bestmoves().length).toBe(n);
    };
    uci.send("position startpos");
    uci.send("go depth -1");
    await waitBestmoves(1);
    expect(lines).toContain("info string depth clamped to 1 (range 1..127)");
    uci.send("go depth NaN");
    await waitBestmoves(2);
    expect(lines).toContain("info string error: go: 'depth' needs a number, not 'NaN' (range 1..127)");
    uci.send("go nodes 1e20 depth 2");
    await waitBestmoves(3);
    expect(lines).toContain("info string nodes clamped to 9007199254740991 (range 1..9007199254740991)");
    uci.send("go depth 2.6 movetime -3");
    await waitBestmoves(4);
    expect(lines).toContain("info string depth rounded to 3 (range 1..127)");
    expect(lines).toContain("info string movetime clamped to 1 (range 1..2147483647)");
    for (const b of bestmoves()) expect(b).toMatch(/^bestmove [a-h][1-8][a-h][1-8]/);
    await uci.close();
  });
});
