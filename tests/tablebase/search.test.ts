// Syzygy tables in the search and the API: the root moves filtered by the tables (a won
// position is never played to a draw, a drawn one never to a loss, even at depth 1, where
// the search alone gets some of them wrong), interior probes after captures (a tablebase win
// found below the root, scored below a mate), the tables on helper threads, engine.probe()
// against Fathom's values, and the UCI options and their errors.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Core } from "../../bindings/core.js";
import { Engine } from "../../bindings/engine.js";
import type { TablebaseCategory } from "../../bindings/tablebase-probe.js";
import { tbWinCp } from "../../bindings/search-records.js";
import { startCli } from "../helpers/cli.js";
import type { UciProcess } from "../../match/uci-process.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const TABLES = join(ROOT, "app/public/syzygy/3-4");

interface OracleLine {
  table: string;
  fen: string;
  wdl: number;
  dtz: number;
  moves: { uci: string; wdl: number; dtz: number }[];
  error?: string;
}
const oracle = readFileSync(join(ROOT, "tests/data/syzygy-oracle.jsonl"), "utf8").split("\n").filter((l) => l.trim() !== "").slice(1)
  .map((l) => JSON.parse(l) as OracleLine).filter((l) => l.error === undefined && l.moves.length > 0);
/** Positions where some move spoils the result: the root filter has work to do. */
const discriminating = oracle.filter((l) => l.moves.some((m) => m.wdl < l.wdl)).slice(0, 150);

/** A win for the side to move after the capture Qxd2+ (KQvKP), five pieces before it. */
const CAPTURE_TO_WIN = "8/8/8/8/3k4/6p1/3r4/3QK3 w - - 0 1";

describe("Syzygy tables in the search", () => {
  let core: Core;
  beforeAll(async () => {
    core = await Core.create({ build: "classical", hashMb: 4 });
  });
  afterAll(() => core.dispose());

  /** The moves a depth-1 search plays in the discriminating positions that spoil the result. */
  function spoiled(): string[] {
    const bad: string[] = [];
    for (const line of discriminating) {
      core.setPosition(line.fen);
      core.newGame();
      const { bestmove } = core.search({ depth: 1 });
      const move = line.moves.find((m) => m.uci === bestmove);
      if (move === undefined || move.wdl < line.wdl) bad.push(`${line.fen}: ${bestmove} (${move?.wdl}, the position ${line.wdl})`);
    }
    return bad;
  }

  it("keeps every won position won and every drawn one drawn at depth 1 (the root filter)", () => {
    expect(discriminating.length).toBeGreaterThan(100);
    core.setSyzygyPath("");
    // Without the tables, a depth-1 search spoils some of these results: the test can fail.
    expect(spoiled().length).toBeGreaterThan(0);
    const load = core.setSyzygyPath(TABLES);
    expect(load).toEqual({ files: 70, maxPieces: 4, errors: [] });
    expect(spoiled()).toEqual([]);
  });

  it("ranks the root by WDL where the DTZ tables are missing, and still keeps every result", () => {
    const wdlOnly = mkdtempSync(join(tmpdir(), "wasmchess-wdl-"));
    try {
      for (const f of readdirSync(TABLES).filter((n) => n.endsWith(".rtbw"))) symlinkSync(join(TABLES, f), join(wdlOnly, f));
      expect(core.setSyzygyPath(wdlOnly)).toEqual({ files: 35, maxPieces: 4, errors: [] });
      expect(spoiled()).toEqual([]);
    } finally {
      rmSync(wdlOnly, { recursive: true, force: true });
    }
  });

  it("finds a tablebase win below the root after a capture, scored below every mate", () => {
    core.setSyzygyPath("");
    core.setPosition(CAPTURE_TO_WIN);
    core.newGame();
    const without = core.search({ depth: 6 });
    // The search alone may see the mop-up win after Qxg3 (KQvK, scored from 10000 up), never
    // a tablebase score (20000 less the plies to the position the tables decide, at most the
    // engine's maximum ply).
    const tbBandCp = tbWinCp(core.exports, core.exports.VALUE_TB_WIN_IN_MAX_PLY.value);
    expect("cp" in without.score && without.score.cp < tbBandCp).toBe(true);
    core.setSyzygyPath(TABLES);
    core.newGame();
    let tbhits = 0;
    const withTables = core.search({ depth: 6 }, { onInfo: (i) => (tbhits = i.tbhits) });
    expect(withTables.bestmove).toBe("d1d2");
    // 20000 less the plies to the position the tables decided: a win, not a mate.
    expect(withTables.score).toEqual({ cp: 19999 });
    expect(tbhits).toBeGreaterThan(0);
  });

  it("reports the root's tablebase result and probes nothing below it (DTZ ranks the moves)", () => {
    core.setSyzygyPath(TABLES);
    core.setPosition("8/8/4k3/8/8/8/3KP3/8 b - - 0 1"); // KPvK, Black to move holds the draw
    let last = { tbhits: -1 };
    const drawn = core.search({ depth: 10 }, { onInfo: (i) => (last = i) });
    expect(drawn.score).toEqual({ cp: 0 });
    expect(last.tbhits).toBe(new Set(core.legalMoves()).size); // the root's moves, once each
    core.setPosition("8/8/8/4k3/8/8/3KP3/8 w - - 0 1"); // White to move wins
    expect(core.search({ depth: 10 }).score).toEqual({ cp: 20000 });
  });

  it("scores a probed draw as a draw and a mate in the tables as a mate", () => {
    core.setSyzygyPath(TABLES);
    core.setPosition("8/8/8/8/8/8/1k6/3KQ3 w - - 0 1"); // KQvK: mate in 3 (DTZ 5)
    expect(core.search({ depth: 12 }).score).toEqual({ mate: 3 });
    core.setSyzygyOptions({ probeLimit: 0 }); // off: the search alone
    core.setPosition(CAPTURE_TO_WIN);
    core.newGame();
    expect(core.search({ depth: 6 }).score).not.toEqual({ cp: 19999 });
    core.setSyzygyOptions({ probeLimit: 7 });
  });

  it("gives the tables to helper threads, whose probes count in tbhits", async () => {
    const threaded = await Core.create({ build: "classical", hashMb: 4 });
    try {
      threaded.setSyzygyPath(TABLES);
      await threaded.setThreads(2);
      threaded.setPosition(CAPTURE_TO_WIN);
      let tbhits = 0;
      const result = threaded.search({ depth: 9 }, { onInfo: (i) => (tbhits = i.tbhits) });
      expect(result.score).toEqual({ cp: 19999 });
      expect(tbhits).toBeGreaterThan(0);
    } finally {
      threaded.dispose();
    }
  });
});

/** The category lichess gives a position whose WDL (from its side to move) is wdl, the
 *  halfmove clock 0. */
const CATEGORY: Record<number, TablebaseCategory> = { 2: "win", 1: "cursed-win", 0: "draw", [-1]: "blessed-loss", [-2]: "loss" };

describe("engine.probe", () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await Engine.create({ build: "classical", syzygyPath: TABLES });
  });
  afterAll(() => engine.dispose());

  it("answers as Fathom: the position's category and DTZ, every move's, the best first", async () => {
    const sample = oracle.filter((_, i) => i % 7 === 0);
    expect(sample.length).toBeGreaterThan(100);
    for (const line of sample) {
      const p = await engine.probe(line.fen);
      expect(p.category, line.fen).toBe(CATEGORY[line.wdl]);
      expect(p.dtz, line.fen).toBe(line.dtz);
      expect(p.moves.map((m) => m.uci).sort(), line.fen).toEqual(line.moves.map((m) => m.uci).sort());
      for (const m of p.moves) {
        const o = line.moves.find((x) => x.uci === m.uci)!;
        // A move is described by the position it leads to, from the other side's view.
        expect(m.category, `${line.fen} ${m.uci}`).toBe(m.checkmate ? "loss" : CATEGORY[-o.wdl]);
        expect(m.san).toMatch(/^[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](=[QRBN])?[+#]?$/);
      }
      // The first move keeps the position's result.
      expect(line.moves.find((x) => x.uci === p.moves[0].uci)!.wdl, line.fen).toBe(line.wdl);
    }
  });

  it("probes the engine's own position, and says why it cannot answer", async () => {
    await engine.setPosition("8/8/8/8/8/8/1k6/3KQ3 w - - 0 1");
    const p = await engine.probe();
    expect(p).toMatchObject({ category: "win", dtz: 5, checkmate: false });
    expect(p.moves[0]).toMatchObject({ category: "loss", zeroing: false });
    await expect(engine.probe(CAPTURE_TO_WIN)).rejects.toThrow(/5 pieces, and the tables loaded have at most 4/);
    await expect(engine.probe("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")).rejects.toThrow(/castling rights/);
    await expect(engine.probe("not a fen")).rejects.toThrow(/FEN/);
    expect(await engine.fen()).toBe("8/8/8/8/8/8/1k6/3KQ3 w - - 0 1"); // the engine's position stays
    await engine.setSyzygyPath("");
    await expect(engine.probe()).rejects.toThrow(/no tablebases are loaded/);
    await expect(engine.setSyzygyOptions({ probeLimit: 8 })).rejects.toThrow(RangeError);
    await expect(engine.setSyzygyOptions({ rule50: "yes" } as never)).rejects.toThrow(TypeError);
    await expect(engine.loadTablebases([{ name: "KQvK.rtbw" } as never])).rejects.toThrow(TypeError);
    const bytes = ["KQvK.rtbw", "KQvK.rtbz"].map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(TABLES, name))) }));
    expect(await engine.loadTablebases(bytes)).toEqual({ files: 2, maxPieces: 3, errors: [] });
    expect((await engine.probe()).dtz).toBe(5);
  });
});

describe("UCI Syzygy options", () => {
  let uci: UciProcess;
  let out: string[];
  beforeAll(async () => {
    ({ engine: uci, out } = startCli());
    await uci.init();
  });
  afterAll(() => uci.kill());

  it("lists Stockfish's options, reports the tables found and the files refused", async () => {
    expect(out).toContain("option name SyzygyPath type string default <empty>");
    expect(out).toContain("option name SyzygyProbeDepth type spin default 1 min 1 max 100");
    expect(out).toContain("option name SyzygyProbeLimit type spin default 7 min 0 max 7");
    expect(out).toContain("option name Syzygy50MoveRule type check default true");
    uci.send(`setoption name SyzygyPath value ${TABLES}`);
    await uci.waitFor((l) => l === "info string Found 70 tablebase files (up to 4-man)");
    uci.send("setoption name SyzygyPath value /no/such/directory");
    await uci.waitFor((l) => l.startsWith("info string error: SyzygyPath: /no/such/directory"));
    uci.send("setoption name Syzygy50MoveRule value perhaps");
    await uci.waitFor((l) => l.includes("Syzygy50MoveRule needs true or false"));
    uci.send(`setoption name SyzygyPath value ${TABLES}`);
    uci.send("position fen 8/8/8/4k3/8/8/3KP3/8 w - - 0 1");
    uci.send("go depth 8");
    await uci.waitFor((l) => l.startsWith("bestmove"));
    expect(out.some((l) => /^info depth 8 .*score cp 20000 .*tbhits \d+ /.test(l))).toBe(true);
  });
});
