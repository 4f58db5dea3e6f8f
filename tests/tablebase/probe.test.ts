// The Syzygy prober (assembly/syzygy.ts, syzygy-probe.ts) against Fathom: every position of
// tests/data/syzygy-oracle.jsonl (written by tools/syzygy-oracle.ts with Fathom's prober over
// the tables tools/syzygy-tables.sh generates) must get Fathom's WDL, DTZ and per-move WDL
// and DTZ. Bad files (truncated, corrupt, unreadable) must give an error that names the file,
// never a trap, and probing goes on with the other tables.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInstance, buildUrl } from "../../bindings/wasm.js";
import type { EngineExports } from "../../bindings/wasm.js";
import { SyzygyFiles } from "../../bindings/syzygy.js";
import { engineAnswer } from "../../tools/syzygy-oracle.js";
import { Core } from "../../bindings/core.js";

const ROOT = new URL("../../", import.meta.url).pathname;
/** The 3- and 4-piece tables the package keeps for the app (tools/syzygy-tables.sh makes them). */
const TABLES = join(ROOT, "app/public/syzygy/3-4");
const ORACLE = join(ROOT, "tests/data/syzygy-oracle.jsonl");

interface OracleMove {
  uci: string;
  wdl: number;
  dtz: number;
}
interface OracleLine {
  table: string;
  fen: string;
  wdl: number;
  dtz: number;
  moves: OracleMove[];
  mate?: string;
  error?: string;
}

/** A classical engine instance whose hostTbRead serves the files of syzygyPath. */
async function engineWithTables(syzygyPath: string): Promise<{ w: EngineExports; files: SyzygyFiles; errors: string[] }> {
  const files = new SyzygyFiles();
  const w = await createInstance({ hostTbRead: files.read }, buildUrl("classical"));
  const { errors } = files.load(w, syzygyPath);
  return { w, files, errors };
}

/** What the engine answers for a position, in the oracle's shape. */
function probe(w: EngineExports, fen: string): Omit<OracleLine, "table" | "error"> {
  expect(w.setFen(fen), `${fen}: ${w.fenError()}`).toBe(0);
  return engineAnswer(w, fen);
}

describe("Syzygy probing against Fathom", () => {
  const lines = existsSync(ORACLE) ? readFileSync(ORACLE, "utf8").split("\n").filter((l) => l.trim() !== "") : [];
  const header = lines.length > 0 ? (JSON.parse(lines[0]) as { command: string; tables: string[] }) : { command: "", tables: [] };
  const positions = lines.slice(1).map((l) => JSON.parse(l) as OracleLine);
  let engine: Awaited<ReturnType<typeof engineWithTables>>;

  beforeAll(async () => {
    // The committed set: the oracle's --tables named a regeneration of it (byte-identical).
    engine = await engineWithTables(TABLES);
  });
  afterAll(() => engine?.files.close());

  it("registers every table of the oracle", () => {
    expect(engine.errors).toEqual([]);
    expect(engine.w.tbMaxPieces()).toBe(Math.max(...header.tables.map((t) => t.length - 1)));
  });

  it(`gives Fathom's WDL, DTZ and per-move values for the oracle's positions`, () => {
    const differ: string[] = [];
    const perTable = new Map<string, number>();
    for (const line of positions) {
      if (line.error !== undefined) continue;
      const { table, ...expected } = line;
      const got = probe(engine.w, line.fen);
      if (JSON.stringify(got) !== JSON.stringify(expected)) {
        differ.push(`${line.fen}\n  fathom ${JSON.stringify(expected)}\n  engine ${JSON.stringify(got)}`);
      } else {
        perTable.set(table, (perTable.get(table) ?? 0) + 1);
      }
    }
    expect(differ.slice(0, 5)).toEqual([]);
    expect(positions.filter((p) => p.error === undefined).length).toBeGreaterThan(0);
    // Every table of the oracle agrees on at least one position.
    expect([...perTable.keys()].sort()).toEqual([...new Set(positions.map((p) => p.table))].sort());
  });

  it("ranks first a move that keeps the position's result (root_probe_dtz's ranks)", () => {
    const { w } = engine;
    let ranked = 0;
    for (const line of positions) {
      if (line.error !== undefined || line.moves.length === 0) continue;
      w.setFen(line.fen);
      const n = w.tbProbeRoot();
      let best = 0;
      for (let i = 1; i < n; i++) if (w.tbRootRank(i, 0, false) > w.tbRootRank(best, 0, false)) best = i;
      const move = line.moves.find((m) => m.uci === w.moveText(w.tbRootMove(best)));
      expect(move?.wdl, line.fen).toBe(line.wdl);
      ranked++;
    }
    expect(ranked).toBeGreaterThan(0);
  });

  it("fails cleanly where no table answers: more pieces than the tables, castling rights", () => {
    const { w } = engine;
    const failed = w.TB_PROBE_FAILED.value;
    for (const fen of [
      "8/8/8/8/8/2k5/4PP2/KQ1R4 w - - 0 1", // more pieces than any table
      "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", // castling rights
    ]) {
      expect(w.setFen(fen)).toBe(0);
      expect(w.tbProbeWdl(), fen).toBe(failed);
      expect(w.tbProbeDtz(), fen).toBe(failed);
      expect(w.tbProbeRoot(), fen).toBe(-1);
    }
  });
});

describe("Syzygy files that are bad", () => {
  let dir: string;
  const KQVK = "8/8/8/8/8/8/1k6/3KQ3 w - - 0 1"; // White wins: WDL 2, DTZ 5
  const KRVK = "8/8/8/4k3/8/8/8/R3K3 b - - 0 1";

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "wasmchess-syzygy-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A directory with KQvK and KRvK, KQvK's file of the given suffix changed by `spoil`. */
  function tablesWith(name: string, suffix: string, spoil: (path: string) => void): string {
    const sub = mkdtempSync(join(dir, `${name}-`));
    for (const t of ["KQvK", "KRvK"]) for (const s of [".rtbw", ".rtbz"]) copyFileSync(join(TABLES, t + s), join(sub, t + s));
    spoil(join(sub, "KQvK" + suffix));
    return sub;
  }

  it("serves the good tables first (the reference for what follows)", async () => {
    const { w, files } = await engineWithTables(tablesWith("good", ".rtbw", () => undefined));
    w.setFen(KQVK);
    expect([w.tbProbeWdl(), w.tbProbeDtz()]).toEqual([2, 5]);
    files.close();
  });

  it("reads the new files after SyzygyPath changes, none of the old ones' bytes", async () => {
    // KRvK alone, then KQvK alone: the same file numbers name other files, so what the
    // prober kept of the first set (its cache, the block it read last) must all be dropped.
    const only = (t: string) => {
      const sub = mkdtempSync(join(dir, `${t}-`));
      for (const s of [".rtbw", ".rtbz"]) copyFileSync(join(TABLES, t + s), join(sub, t + s));
      return sub;
    };
    const engine = await engineWithTables(only("KRvK"));
    try {
      const { w } = engine;
      expect(engine.errors).toEqual([]);
      // WDL probes alone, so that the last file read before the change (KRvK.rtbw) has the
      // number of the first read after it (KQvK.rtbw).
      w.setFen(KRVK);
      expect(w.tbProbeWdl()).toBe(-2);
      expect(engine.files.load(w, only("KQvK")).errors).toEqual([]);
      w.setFen(KQVK);
      expect(w.tbProbeWdl()).toBe(2);
      expect(probe(w, KQVK)).toMatchObject({ wdl: 2, dtz: 5 });
      expect(w.tbError()).toBe("");
    } finally {
      engine.files.close();
    }
  });

  it("refuses a file whose size is not that of a table (16 mod 64) when it is registered", async () => {
    const { w, errors, files } = await engineWithTables(tablesWith("short", ".rtbw", (p) => truncateSync(p, 1000)));
    expect(errors).toEqual(["KQvK.rtbw: incomplete file (its size is not 16 mod 64)"]);
    w.setFen(KQVK);
    expect(w.tbProbeWdl()).toBe(w.TB_PROBE_FAILED.value);
    w.setFen(KRVK);
    expect(w.tbProbeWdl()).toBe(-2);
    files.close();
  });

  it("gives an error naming a truncated file when it is first probed, and goes on without it", async () => {
    // 16 mod 64 bytes, as a whole table has, but fewer than its header says.
    const { w, errors, files } = await engineWithTables(tablesWith("truncated", ".rtbz", (p) => truncateSync(p, 80)));
    expect(errors).toEqual([]);
    w.setFen(KQVK);
    expect(w.tbProbeWdl()).toBe(2);
    expect(w.tbProbeDtz()).toBe(w.TB_PROBE_FAILED.value);
    expect(w.tbError()).toMatch(/^KQvK\.rtbz: (truncated|corrupt)/);
    w.setFen(KRVK);
    expect(w.tbProbeWdl()).toBe(-2);
    expect(w.tbProbeDtz()).toBeLessThan(0);
    files.close();
  });

  it("refuses a file with a bad magic number, naming it", async () => {
    const { w, files } = await engineWithTables(
      tablesWith("magic", ".rtbw", (p) => {
        const b = readFileSync(p);
        b[0] ^= 0xff;
        writeFileSync(p, b);
      }),
    );
    w.setFen(KQVK);
    expect(w.tbProbeWdl()).toBe(w.TB_PROBE_FAILED.value);
    expect(w.tbError()).toBe("KQvK.rtbw: bad magic number (not a Syzygy table, or corrupt)");
    files.close();
  });

  it("reports a table found bad during a search, naming it, and the search plays on", async () => {
    const sub = tablesWith("search", ".rtbw", (p) => {
      const b = readFileSync(p);
      b[0] ^= 0xff;
      writeFileSync(p, b);
    });
    const core = await Core.create({ build: "classical", hashMb: 1 });
    try {
      expect(core.setSyzygyPath(sub).errors).toEqual([]);
      core.setPosition(KQVK);
      const result = core.search({ depth: 6 });
      expect(result.tablebaseError).toBe("KQvK.rtbw: bad magic number (not a Syzygy table, or corrupt)");
      expect(core.legalMoves()).toContain(result.bestmove);
      core.setPosition(KRVK);
      const next = core.search({ depth: 6 });
      expect(next.tablebaseError).toBeUndefined(); // reported once
      expect(next.score).toEqual({ cp: -20000 }); // KRvK still answers
    } finally {
      core.dispose();
    }
  });

  it("never traps on corrupt table bytes, whichever they are", async () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return Math.floor((seed / 2 ** 32) * n);
    };
    const fens = ["8/8/8/8/8/8/1k6/3KQ3 w - - 0 1", "8/8/8/8/8/8/1k6/3KQ3 b - - 0 1", "3k4/8/8/8/2Q5/8/8/6K1 w - - 0 1", "3k4/8/8/8/2Q5/8/8/6K1 b - - 0 1", KRVK];
    for (let round = 0; round < 24; round++) {
      const suffix = round % 2 ? ".rtbz" : ".rtbw";
      const sub = tablesWith(`corrupt${round}`, suffix, (p) => {
        const b = readFileSync(p);
        const start = round < 12 ? 5 + random(64) : random(b.length);
        for (let i = start; i < Math.min(b.length, start + 1 + random(48)); i++) b[i] = random(256);
        writeFileSync(p, b);
      });
      const { w, files } = await engineWithTables(sub);
      for (const fen of fens) {
        w.setFen(fen);
        const wdl = w.tbProbeWdl();
        expect(wdl === w.TB_PROBE_FAILED.value || (wdl >= -2 && wdl <= 2)).toBe(true);
        w.tbProbeDtz();
        w.tbProbeRoot();
      }
      if (w.tbError() !== "") expect(w.tbError()).toMatch(/^KQvK\.rtb[wz]: /);
      w.setFen(KRVK);
      expect(w.tbProbeWdl()).toBe(-2);
      files.close();
    }
  });

  it("fails cleanly when the host cannot read a file (no tables served, the default host)", async () => {
    const w = await createInstance({}, buildUrl("classical"));
    w.setFen(KQVK);
    expect(w.tbProbeWdl()).toBe(w.TB_PROBE_FAILED.value);
    expect(w.tbAddFile("KQvK.rtbw", 1232)).toBe(0);
    expect(w.tbProbeWdl()).toBe(w.TB_PROBE_FAILED.value);
    expect(w.tbError()).toBe("KQvK.rtbw: cannot be read (the host gave fewer bytes than asked)");
  });
});
