// Lazy SMP: threads share one transposition table (the shared module), helpers stop when the
// main thread does, perft and searches on several threads count and play as one thread does,
// 4 and 8 threads (more than this machine's cores) work, a helper that traps comes back, and
// more threads than a host allows are refused with a reason.
import { describe, it, expect, afterAll } from "vitest";
import { Core, Engine } from "../../bindings/index.js";
import { createInstance, createSharedMemory, createTableInstance, buildUrl } from "../../bindings/wasm.js";
import { checkThreads } from "../../bindings/engine-options.js";

const KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const MIDDLEGAME = "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16";

describe("threads share one table", () => {
  it("the main thread finds what a helper stored, and searches less for it", async () => {
    const memory = createSharedMemory();
    const mainTable = await createTableInstance(memory);
    (mainTable.resizeTable as (mb: number) => number)(16);
    const main = await createInstance({}, buildUrl("classical"), mainTable);
    const helper = await createInstance({}, buildUrl("classical"), await createTableInstance(memory));
    main.setThread(0, true);
    helper.setThread(1, true);

    // A cold search for reference, then the table emptied again.
    main.setFen(MIDDLEGAME);
    main.resetLimits();
    main.setDepthLimit(9);
    main.go();
    const cold = main.infoNodes();
    (mainTable.clearTable as () => void)();
    main.newGame(); // its histories and its own (unused) table
    expect(main.infoHashfull()).toBe(0);

    // The helper searches alone (to its depth limit; the main thread's end asked the threads
    // to stop, which a new round clears); its stores are the main thread's hits.
    (mainTable.clearStop as () => void)();
    helper.setFen(MIDDLEGAME);
    helper.resetLimits();
    helper.setDepthLimit(9);
    helper.goHelper();
    expect(main.infoHashfull()).toBeGreaterThan(0);
    main.newGame(); // histories again; the shared table keeps the helper's entries
    main.go();
    // With histories cleared, a main thread that did not see the helper's entries would repeat
    // the cold search node for node. How much a warm table saves depends on the evaluation: a
    // second search on the main thread's own table took 18% to 132% of the cold nodes over
    // four positions at depths 8-10 (71% for this one at depth 9).
    expect(main.infoNodes()).toBeLessThan(cold);
  });
});

describe("searches and perft on several threads", () => {
  const cores: Core[] = [];
  afterAll(() => cores.forEach((c) => c.dispose()));

  async function core(threads: number): Promise<Core> {
    const c = await Core.create({ build: "classical" });
    await c.setThreads(threads);
    cores.push(c);
    return c;
  }

  it("perft and divide count on 2 threads what they count on one", async () => {
    const one = await Core.create({ build: "classical" });
    const two = await core(2);
    expect(two.threadCount()).toBe(2);
    for (const c of [one, two]) c.setPosition(KIWIPETE, ["e1g1"]);
    expect(two.perft(4)).toBe(one.perft(4));
    expect(two.divide(4)).toEqual(one.divide(4));
    // Hashed: both threads count through the shared module's table.
    expect(two.perft(5, { hashMb: 4 })).toBe(one.perft(5));
    two.setKeySeed(99); // every thread draws the same new keys: the shared table still works for all
    expect(two.perft(5, { hashMb: 4 })).toBe(one.perft(5));
    two.setKeySeed(0);
    expect(two.divide(4, { hashMb: 1 })).toEqual(one.divide(4));
    expect(two.hashMb()).toBe(16);
    // The units two plies down, taken in turn by both threads; the progress counts them all.
    const seen: number[] = [];
    expect(two.perft(5, { onProgress: (finished, units) => seen.push(units - finished) })).toBe(one.perft(5));
    expect(seen[seen.length - 1]).toBe(0);
    expect(seen.every((left, i) => i === 0 || left <= seen[i - 1])).toBe(true);
  });

  it("helpers stop with the main thread: a stopped infinite search returns at once", async () => {
    const c = await core(2);
    c.setPosition(MIDDLEGAME);
    const start = performance.now();
    let stopAt = 0;
    const result = c.search({ infinite: true }, {
      poll: () => {
        if (performance.now() - start < 300) return 0;
        stopAt ||= performance.now();
        return 1;
      },
    });
    const latency = performance.now() - stopAt;
    expect(result.bestmove).toMatch(/^[a-h][1-8][a-h][1-8]/);
    // search() returns only once the helper has ended too; a helper that ran on would keep it
    // waiting for the 5 s timeout.
    expect(latency).toBeLessThan(200);
    // And the next search starts clean.
    expect(c.search({ depth: 6 }).depth).toBe(6);
  });

  it("4 and 8 threads (more than the cores) search and count correctly", async () => {
    for (const n of [4, 8]) {
      const c = await core(n);
      c.setPosition(KIWIPETE);
      expect(c.perft(4)).toBe(4085603n);
      const r = c.search({ depth: 9 });
      expect(c.legalMoves()).toContain(r.bestmove);
      c.setPosition("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
      expect(c.search({ depth: 6 }).bestmove).toBe("d1d8");
      c.dispose();
    }
  });

  it("the bench is one thread's search, whatever the threads", async () => {
    const c = await core(2);
    const one = await Core.create({ build: "classical" });
    expect(c.bench(6).nodes).toBe(one.bench(6).nodes);
  });

  it("a helper that traps comes back with its options, and the search goes on", async () => {
    const c = await core(2);
    c.setSearchParam("LMR Base", 90);
    const error = await c.crashThreadForTesting(1);
    expect(String(error)).toMatch(/search thread 1 crashed and was restarted/);
    c.setPosition(MIDDLEGAME);
    const r = c.search({ depth: 10 });
    expect(r.depth).toBe(10);
    c.setPosition(KIWIPETE);
    expect(c.perft(4)).toBe(4085603n);
  });
});

describe("the Engine and UCI with threads", () => {
  it("Engine.create({ threads }) searches on them, setThreads checks its argument", async () => {
    const engine = await Engine.create({ threads: 2, build: "classical" });
    try {
      expect(engine.threads).toBe(2);
      await engine.setPosition(MIDDLEGAME);
      const r = await engine.search({ depth: 10 });
      expect(r.depth).toBe(10);
      await expect(engine.setThreads(0)).rejects.toThrow(RangeError);
      await expect(engine.setThreads(257)).rejects.toThrow(/from 1 to 256/);
      await engine.setThreads(1);
      expect(engine.threads).toBe(1);
      expect((await engine.search({ depth: 8 })).depth).toBe(8);
    } finally {
      await engine.dispose();
    }
  });

  it("more than one thread without shared memory is refused, naming cross-origin isolation", () => {
    const g = globalThis as { crossOriginIsolated?: boolean };
    g.crossOriginIsolated = false; // as in a browser page without COOP/COEP
    try {
      expect(() => checkThreads("threads", 2)).toThrow(/cross-origin-isolated/);
      expect(checkThreads("threads", 1)).toBe(1);
    } finally {
      delete g.crossOriginIsolated;
    }
  });
});
