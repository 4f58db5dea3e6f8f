// The Engine as an analysis board uses it: position queries answered while a search runs,
// analyse() replacing the running search, the order of calls made without awaiting, and worker
// calls that survive a stop without shared memory.
import { describe, it, expect, afterEach } from "vitest";
import { Engine, Core, START_FEN } from "../../build/index.js";
import type { SearchInfo, EngineOptions } from "../../build/index.js";

const KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const engines: Engine[] = [];
async function make(options: EngineOptions = {}): Promise<Engine> {
  const e = await Engine.create(options);
  engines.push(e);
  return e;
}
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.dispose()));
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Fails (instead of hanging until the test's timeout) when p does not settle within ms. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, sleep(ms).then(() => Promise.reject(new Error(`${what} did not settle within ${ms} ms`)))]);
}

/** Resolves once the predicate holds, polling; rejects after ms. */
async function until(predicate: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

let checker: Core | undefined;
async function isLegal(fen: string, moves: string[], move: string): Promise<boolean> {
  checker ??= await Core.create();
  checker.setPosition(fen, moves);
  return checker.legalMoves().includes(move);
}

describe.each([
  ["shared memory", {}],
  ["no shared memory (stop restarts the worker)", { sharedMemory: false }],
] as [string, EngineOptions][])("Engine with %s", (_name, options) => {
  it("answers position queries at once while an infinite search runs", async () => {
    const e = await make(options);
    const running = e.search({ infinite: true });
    await sleep(100);
    // Each of these would wait forever behind the search if it went to the worker.
    await within(e.setPosition(KIWIPETE), 2000, "setPosition");
    expect((await within(e.legalMoves(), 2000, "legalMoves")).length).toBe(48);
    expect(await within(e.toSan("e1g1"), 2000, "toSan")).toBe("O-O");
    expect(await within(e.fromSan("Nxf7"), 2000, "fromSan")).toBe("e5f7");
    expect(await within(e.status(), 2000, "status")).toBe("ongoing");
    expect(await within(e.playMove("e1g1"), 2000, "playMove")).toBe(true);
    expect(await within(e.fen(), 2000, "fen")).toBe("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 b kq - 1 1");
    expect(typeof (await within(e.evaluate(), 2000, "evaluate")).score).toBe("number");
    expect(e.searching).toBe(true);
    e.stop();
    const r = await running;
    // The search kept the position it was started on.
    expect(await isLegal(START_FEN, [], r.bestmove)).toBe(true);
  });

  it("analyse() replaces the running analysis: the old one resolves, its onInfo goes quiet", async () => {
    const e = await make(options);
    const first: SearchInfo[] = [];
    const a = e.analyse("startpos", {}, (i) => first.push(i));
    await until(() => first.length > 0, 5000, "the first analysis' info");
    const second: SearchInfo[] = [];
    const b = e.analyse({ fen: KIWIPETE, moves: ["e1g1"] }, { multiPv: 2 }, (i) => second.push(i));
    const seenBefore = first.length;
    const ra = await within(a, 2000, "the replaced analysis");
    expect(await isLegal(START_FEN, [], ra.bestmove)).toBe(true);
    await until(() => second.some((i) => i.multipv === 2 && i.depth >= 3), 10_000, "two lines of the second analysis");
    expect(first.length).toBe(seenBefore);
    expect(e.searching).toBe(true);
    e.stop();
    const rb = await within(b, 2000, "the stopped analysis");
    expect(await isLegal(KIWIPETE, ["e1g1"], rb.bestmove)).toBe(true);
    for (const i of second) expect(await isLegal(KIWIPETE, ["e1g1"], i.pv[0])).toBe(true);
    expect(await e.fen()).toBe("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 b kq - 1 1");
  });

  it("worker calls made during a search run after it, also across a stop", async () => {
    const e = await make(options);
    const running = e.search({ infinite: true });
    const counted = e.perft(3); // waits in the worker's queue behind the search
    await sleep(200);
    e.stop();
    await running;
    expect(await within(counted, 5000, "perft after stop")).toBe(8902n);
  });
});

describe("Engine analysis rules", () => {
  it("a bad position or option given to analyse() rejects and leaves the analysis running", async () => {
    const e = await make();
    const running = e.analyse(KIWIPETE);
    await expect(e.analyse("8/8/8/8/8/8/8/8 w - - 0 1")).rejects.toThrow(/invalid FEN: white has 0 kings/);
    await expect(e.analyse({ fen: KIWIPETE, moves: ["e1e3"] })).rejects.toThrow(/illegal move "e1e3" at index 0/);
    await expect(e.analyse(KIWIPETE, { multiPv: 0 })).rejects.toThrow(RangeError);
    await expect(e.analyse(KIWIPETE, { depht: 3 } as object)).rejects.toThrow(/unknown analyse option "depht"/);
    await expect(e.analyse(START_FEN, { searchmoves: ["e1g1"] })).rejects.toThrow(/searchmoves: "e1g1" is not a legal move in rnbqkbnr/);
    expect(e.searching).toBe(true);
    expect(await e.fen()).toBe(KIWIPETE);
    e.stop();
    expect(await isLegal(KIWIPETE, [], (await running).bestmove)).toBe(true);
  });

  it("analyse() with a limit ends on its own; its multiPv applies to it only", async () => {
    const e = await make();
    const lines: SearchInfo[] = [];
    const r = await e.analyse(KIWIPETE, { depth: 5, multiPv: 3 }, (i) => lines.push(i));
    expect(r.depth).toBe(5);
    expect(new Set(lines.filter((i) => i.depth === 5).map((i) => i.multipv))).toEqual(new Set([1, 2, 3]));
    const later: SearchInfo[] = [];
    await e.search({ depth: 5 }, { onInfo: (i) => later.push(i) });
    expect(later.every((i) => i.multipv === 1)).toBe(true);
  });

  it("calls made without awaiting act in the order they were made", async () => {
    const e = await make();
    void e.setPosition(KIWIPETE);
    const searched = e.search({ depth: 4 });
    void e.setPosition(START_FEN);
    const atStart = e.perft(2);
    void e.playMove("e2e4");
    const afterE4 = e.perft(1);
    const moves = e.legalMoves();
    expect(await isLegal(KIWIPETE, [], (await searched).bestmove)).toBe(true);
    expect(await atStart).toBe(400n);
    expect(await afterE4).toBe(20n);
    expect((await moves).length).toBe(20);
  });

  it("a wasm trap in the in-thread rules instance: the next call re-creates it, the position stays", async () => {
    const e = await make();
    await e.setPosition(KIWIPETE, ["e1g1"]);
    const { rulesCore } = await import("../../build/rules.js");
    expect(() => rulesCore().crashForTesting()).toThrow(/engine crashed/);
    expect(await e.fen()).toBe("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 b kq - 1 1");
    expect(await e.toSan("e8g8")).toBe("O-O");
  });

  it("the bench keeps the position", async () => {
    const e = await make();
    await e.setPosition(KIWIPETE, ["e1g1"]);
    await e.bench(1);
    expect(await e.perft(1)).toBe(43n);
    const r = await e.search({ depth: 2 });
    expect(await isLegal(KIWIPETE, ["e1g1"], r.bestmove)).toBe(true);
  });
});
