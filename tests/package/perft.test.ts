// Perft of the suites in match/data (counts from Stockfish) through the bindings, once per
// slider backend's wasm build: perft.epd at every depth whose count stays under the node cap,
// chess960-perft.epd (tricky Chess960 set-ups) up to 5 million nodes; deeper runs belong to
// bench:perft, bench:sliders and bench:960. Then hashed perft (the suite through a table, its
// progress, other keys, the search's table given back) and the split into unique positions.
import { describe, it, expect, beforeAll } from "vitest";
import { Core, START_FEN } from "../../bindings/core.js";
import { uniquePositions } from "../../bindings/perft-split.js";
import { CHESS960_PERFT_SUITE, PERFT_SUITE, readPerftSuite } from "../../match/perft.js";
import { SLIDER_BACKENDS } from "../../match/slider-backends.js";

const NODE_CAP = 20_000_000;
const KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

describe.each(SLIDER_BACKENDS)("perft suite, $name sliders", (backend) => {
  let core: Core;
  beforeAll(async () => {
    core = await Core.create({ wasmUrl: backend.wasm });
  });

  it("runs the build of this backend", () => {
    expect(core.exports.sliderBackend()).toBe(backend.id);
  });

  for (const { fen, counts, what } of readPerftSuite(PERFT_SUITE)) {
    it(`${what}: ${fen}`, () => {
      core.setPosition(fen);
      let checked = 0;
      counts.forEach((expected, i) => {
        if (expected > NODE_CAP && checked > 0) return;
        expect(core.perft(i + 1), `depth ${i + 1}`).toBe(expected);
        checked++;
      });
      expect(checked).toBeGreaterThan(0);
    });
  }

  it("divide sums to perft and lists every legal move once", () => {
    core.setPosition("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    const entries = core.divide(3);
    expect(entries.reduce((s, e) => s + e.nodes, 0n)).toBe(97862n);
    expect(entries.map((e) => e.move).sort()).toEqual(core.legalMoves().sort());
  });

  it("keeps every invariant along a long game of set-ups, moves and bad FENs", () => {
    core.setPosition("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    for (let ply = 0; ply < 200; ply++) {
      const moves = core.legalMoves();
      if (moves.length === 0) break;
      core.playMove(moves[(ply * 7919) % moves.length]);
      if (ply % 50 === 49) expect(() => core.setPosition("8/8/8 w - - 0 1")).toThrow(/invalid FEN/);
      expect(core.exports.validatePosition(), core.fen()).toBe("");
    }
  });
});

describe.each(SLIDER_BACKENDS)("Chess960 perft suite, $name sliders", (backend) => {
  let core: Core;
  beforeAll(async () => {
    core = await Core.create({ wasmUrl: backend.wasm });
    core.setChess960(true);
  });

  for (const { fen, counts, what } of readPerftSuite(CHESS960_PERFT_SUITE)) {
    it(`${what}: ${fen}`, () => {
      core.setPosition(fen);
      counts.forEach((expected, i) => {
        if (expected <= 5_000_000 || i === 0) expect(core.perft(i + 1), `depth ${i + 1}`).toBe(expected);
      });
      expect(core.exports.validatePosition()).toBe("");
    });
  }
});

describe("hashed perft", () => {
  let core: Core;
  beforeAll(async () => {
    core = await Core.create({ hashMb: 16 });
  });

  it("counts the suite as Stockfish does, through a 4 MB table", () => {
    for (const { fen, counts } of readPerftSuite(PERFT_SUITE)) {
      core.setPosition(fen);
      const depth = counts.filter((c) => c <= 5_000_000).length;
      expect(core.perft(depth, { hashMb: 4 }), `${fen} depth ${depth}`).toBe(counts[depth - 1]);
    }
  });

  it("divides through the table, Chess960 too", () => {
    core.setPosition("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    expect(core.divide(4, { hashMb: 1 })).toEqual(core.divide(4));
    const c960 = readPerftSuite(CHESS960_PERFT_SUITE)[0];
    core.setChess960(true);
    core.setPosition(c960.fen);
    expect(core.perft(4, { hashMb: 2 })).toBe(c960.counts[3]);
    core.setChess960(false);
  });

  it("reports its progress unit by unit (the positions two plies down) and counts the same", () => {
    core.setPosition("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    const seen: [number, number][] = [];
    expect(core.perft(4, { hashMb: 2, onProgress: (finished, units) => seen.push([finished, units]) })).toBe(4085603n);
    expect(seen.length).toBe(2039); // perft(2): one unit per position two plies down
    expect(seen.every(([f, n], i) => f === i + 1 && n === 2039)).toBe(true);
    expect(core.divide(3, { onProgress: () => undefined })).toEqual(core.divide(3));
    expect(() => core.perft(4, { onProgress: 1 as never })).toThrow(/onProgress must be a function/);
  });

  it("counts the same with other Zobrist keys (setKeySeed), and seed 0 gives the built-in keys back", () => {
    core.setPosition("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", ["e1g1"]);
    const builtIn = core.key();
    core.setKeySeed(12345);
    expect(core.key()).not.toBe(builtIn);
    expect(core.fen()).toBe("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 b kq - 1 1");
    expect(core.perft(4, { hashMb: 2 })).toBe(core.perft(4));
    core.setKeySeed(0);
    expect(core.key()).toBe(builtIn);
    expect(() => core.setKeySeed(-1)).toThrow(/setKeySeed: seed must be an integer from 0 to 4294967295/);
  });

  it("gives the search its table back, cleared, at its own size", () => {
    core.setPosition("startpos");
    core.search({ depth: 8 });
    expect(core.exports.infoHashfull()).toBeGreaterThan(0);
    expect(core.perft(4, { hashMb: 64 })).toBe(197281n);
    expect(core.hashMb()).toBe(16);
    expect(core.exports.infoHashfull()).toBe(0);
  });

  it("refuses a bad table size or option, and keeps working", () => {
    expect(() => core.perft(3, { hashMb: 0 })).toThrow(/^hashMb must be an integer from 1 to 2048 \(megabytes\), got 0$/);
    expect(() => core.perft(3, { hashMb: 1.5 })).toThrow(/hashMb must be an integer/);
    expect(() => core.divide(3, { hashMB: 4 } as never)).toThrow(/unknown perft option "hashMB"/);
    expect(() => core.perft(3, "4" as never)).toThrow(/perft option/);
    expect(core.perft(3)).toBe(8902n);
  });
});

describe("the positions a perft passes through (uniquePositions)", () => {
  let core: Core;
  beforeAll(async () => {
    core = await Core.create();
  });

  it("finds the start position's 72,078 positions four plies down (the Grand Chess Tree's tasks), reached by perft(4) paths", () => {
    core.setPosition("startpos");
    const four = uniquePositions(core, 4);
    expect(four.length).toBe(72078);
    expect(four.reduce((s, p) => s + p.count, 0n)).toBe(197281n);
    expect(core.fen()).toBe(START_FEN);
  });

  it("splits a perft exactly: the sum of count × perft(depth - ply) over the positions is perft(depth)", () => {
    core.setPosition(KIWIPETE);
    const three = uniquePositions(core, 3);
    expect(three.length).toBeLessThan(97862); // transpositions merged
    let total = 0n;
    for (const { moves, count } of three) total += count * core.afterMoves(moves, () => core.perft(2));
    expect(total).toBe(193690690n);
    expect(() => uniquePositions(core, 6)).toThrow(/ply must be an integer from 0 to 5, got 6/);
  });

  it("counts below each position's first path (perftBelow), on one thread and on two, over one table that retainTable keeps until a search", async () => {
    core.setPosition(KIWIPETE);
    const three = uniquePositions(core, 3);
    const paths = three.map((p) => p.moves);
    const weighted = (counts: bigint[]) => counts.reduce((a, c, i) => a + c * three[i].count, 0n);
    const plain = core.perftBelow(paths, 2);
    expect(weighted(plain)).toBe(193690690n);
    expect(core.perftBelow(paths, 2, { hashMb: 4, retainTable: true })).toEqual(plain);
    expect(core.hashMb()).toBe(16); // the search's size, while the perft table holds the memory
    expect(core.perftBelow(paths, 2, { hashMb: 4, retainTable: true })).toEqual(plain);
    expect(core.perft(3, { hashMb: 4 })).toBe(97862n); // not retained: the search's table is back
    core.perftBelow(paths.slice(0, 5), 2, { hashMb: 4, retainTable: true });
    expect(core.search({ depth: 6 }).bestmove).toMatch(/^[a-h][1-8][a-h][1-8]/);
    expect(core.hashMb()).toBe(16);
    expect(core.fen()).toBe(KIWIPETE);
    expect(() => core.perftBelow([["a2a3"], ["a2a5"]], 1)).toThrow(/illegal move "a2a5"/);
    expect(() => core.perftBelow([["x"]], 1)).toThrow(/paths\[0\] must be an array of UCI moves/);
    expect(() => core.perftBelow(paths, 1, { retainTable: 1 as never })).toThrow(/retainTable must be a boolean/);

    const threaded = await Core.create();
    try {
      await threaded.setThreads(2);
      threaded.setPosition(KIWIPETE);
      expect(threaded.perftBelow(paths, 2, { hashMb: 4, retainTable: true })).toEqual(plain);
      expect(threaded.perftBelow(paths, 2, { hashMb: 4, retainTable: true })).toEqual(plain);
    } finally {
      threaded.dispose();
    }
  });
});
