// The Engine API in Node: every call runs in the worker; create() and open(); search with info, stop with and
// without shared memory, evaluation, notation, errors and disposal.
import { describe, it, expect, afterEach } from "vitest";
import { Engine, createUciChannel, START_FEN } from "../../build/index.js";
import type { SearchInfo } from "../../build/index.js";

const KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const engines: Engine[] = [];
async function make(options = {}): Promise<Engine> {
  const e = await Engine.create(options);
  engines.push(e);
  return e;
}
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.dispose()));
});

describe("Engine", () => {
  it("positions, moves, perft, divide and notation", async () => {
    const e = await make();
    await e.setPosition(START_FEN, ["e2e4", "e7e5"]);
    expect(await e.fen()).toBe("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    expect((await e.legalMoves()).length).toBe(29);
    await e.setPosition(KIWIPETE);
    expect(await e.perft(3)).toBe(97862n);
    expect((await e.divide(1)).length).toBe(48);
    expect(await e.toSan("e1g1")).toBe("O-O");
    expect(await e.fromSan("Nxf7")).toBe("e5f7");
    expect(await e.status()).toBe("ongoing");
    await e.setPosition("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1");
    await expect(e.fromSan("Rd1")).rejects.toThrow(/^ambiguous move "Rd1" .*: 2 legal moves match/);
    expect(await e.fromSan("Rad1")).toBe("a1d1");
  });

  it("rejects bad input with errors that name the problem and keeps the position", async () => {
    const e = await make();
    await e.setPosition(START_FEN, ["d2d4"]);
    await expect(e.setPosition("8/8/8 w - - 0 1")).rejects.toThrow(/invalid FEN/);
    await expect(e.setPosition(START_FEN, ["e2e4", "e2e4"])).rejects.toThrow(/illegal move "e2e4" at index 1/);
    await expect(e.perft(-3)).rejects.toThrow(/depth must be an integer/);
    await expect(e.toSan("a1a8")).rejects.toThrow(/illegal move/);
    expect(await e.fen()).toBe("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1");
  });

  it("searches with info records and returns a legal best move", async () => {
    const e = await make({ hashMb: 8 });
    await e.setPosition(KIWIPETE);
    const infos: SearchInfo[] = [];
    const r = await e.search({ depth: 7 }, { onInfo: (i) => infos.push(i) });
    expect(await e.legalMoves()).toContain(r.bestmove);
    expect(r.depth).toBe(7);
    expect(r.nodes).toBeGreaterThan(1000);
    expect(infos.map((i) => i.depth)).toContain(7);
    expect(infos.at(-1)!.pv[0]).toBe(r.bestmove);
    expect("cp" in r.score || "mate" in r.score).toBe(true);
  });

  it("finds a mate and reports it in moves", async () => {
    const e = await make();
    await e.setPosition("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1");
    const r = await e.search({ depth: 12 });
    expect(r.bestmove).toBe("g3g6");
    expect(r.score).toEqual({ mate: 2 });
  });

  it("stops an infinite search through shared memory quickly", async () => {
    const e = await make();
    expect(e.hasSharedStop).toBe(true);
    const running = e.search({ infinite: true });
    await new Promise((r) => setTimeout(r, 300));
    const t0 = performance.now();
    e.stop();
    const r = await running;
    expect(performance.now() - t0).toBeLessThan(50);
    expect((await e.legalMoves()).includes(r.bestmove)).toBe(true);
  });

  it("stops without shared memory by restarting the worker, keeping position and options", async () => {
    const e = await make({ sharedMemory: false });
    expect(e.hasSharedStop).toBe(false);
    await e.setPosition(START_FEN, ["e2e4"]);
    await e.setMultiPv(3); // not the default (1): it must reach the fresh worker
    const running = e.search({ infinite: true });
    await new Promise((r) => setTimeout(r, 400));
    e.stop();
    const r = await running;
    expect(r.depth).toBeGreaterThan(3); // the answer of the last complete iteration
    expect((await e.legalMoves()).includes(r.bestmove)).toBe(true);
    expect(await e.fen()).toBe("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    const infos: SearchInfo[] = [];
    const again = await e.search({ depth: 4 }, { onInfo: (i) => infos.push(i) });
    expect((await e.legalMoves()).includes(again.bestmove)).toBe(true);
    // Three lines per depth, as set before the restart.
    expect(infos.filter((i) => i.depth === 4 && !i.bound).map((i) => i.multipv)).toEqual([1, 2, 3]);
  });

  it("refuses a second concurrent search", async () => {
    const e = await make();
    const running = e.search({ infinite: true });
    await expect(e.search({ depth: 2 })).rejects.toThrow(/already running/);
    e.stop();
    await running;
  });

  it("evaluates with a term breakdown (the hand-crafted evaluation)", async () => {
    const e = await make({ build: "classical" });
    await e.setPosition(START_FEN);
    const ev = await e.evaluate();
    expect(ev.terms.map((t) => t.name)).toContain("Mobility");
    expect(Math.abs(ev.score)).toBeLessThan(50);
    expect(ev.phase).toBe(24);
  });

  it("recovers from a wasm trap in the worker", async () => {
    const e = await make();
    await e.setPosition(START_FEN, ["e2e4"]);
    await expect(e.crashForTesting()).rejects.toThrow(/engine crashed/);
    expect(await e.fen()).toBe("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    expect((await e.search({ depth: 3 })).bestmove).toMatch(/^[a-h][1-8]/);
  });

  it("open() answers at once and queues the worker's calls until the worker is up", async () => {
    const e = await Engine.open({ skillLevel: 20 });
    engines.push(e);
    // Answered by the in-thread rules instance, whether or not the worker is up yet.
    expect((await e.info()).build).toMatch(/^(nnue|classical)$/);
    await e.setPosition(KIWIPETE);
    const [nodes, result, strength] = await Promise.all([e.perft(2), e.search({ depth: 3 }), e.strength()]);
    expect(nodes).toBe(2039n);
    expect(await e.legalMoves()).toContain(result.bestmove);
    expect(strength.skillLevel).toBe(20);
  });

  it("a worker that cannot start makes its calls reject, and is not restarted", async () => {
    const e = await Engine.open({ workerUrl: new URL("../../build/no-such-worker.js", import.meta.url) });
    engines.push(e);
    await expect(e.perft(1)).rejects.toThrow(/engine worker failed/);
    await expect(e.search({ depth: 1 })).rejects.toThrow(/engine worker failed/);
    expect(await e.fen()).toBe(START_FEN); // the rules instance still answers
  });

  it("a worker whose engine fails to start says so: its calls reject instead of waiting", async () => {
    const workerUrl = new URL("../fixtures/failing-init-worker.mjs", import.meta.url);
    await expect(Engine.create({ workerUrl })).rejects.toThrow(/no wasm here/);
    const e = await Engine.open({ workerUrl });
    engines.push(e);
    await expect(e.perft(1)).rejects.toThrow(/^engine worker failed: its engine did not start: no wasm here$/);
    await expect(e.search({ depth: 1 })).rejects.toThrow(/no wasm here/);
  }, 5_000);

  it("rejects calls after dispose", async () => {
    const e = await Engine.create();
    await e.dispose();
    await expect(e.fen()).rejects.toThrow(/disposed/);
  });
});

describe("createUciChannel", () => {
  it("speaks UCI with an engine of its own", async () => {
    const ch = await createUciChannel();
    const lines: string[] = [];
    ch.onLine((l) => lines.push(l));
    const done = new Promise<void>((resolve) => ch.onLine((l) => l.startsWith("bestmove") && resolve()));
    ch.send("uci");
    ch.send("position startpos moves e2e4");
    ch.send("go depth 5");
    await done;
    expect(lines).toContain("uciok");
    expect(lines.some((l) => l.startsWith("info depth 5"))).toBe(true);
    await ch.close();
  });
});
