// The self-play data pipeline: the 32-byte record round-trips exactly, bad files get errors
// that name the file and record, and datagen is reproducible from its seed.
import { describe, it, expect, beforeAll } from "vitest";
import { mkdtempSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync, spawnSync } from "node:child_process";
import { Core } from "../../bindings/core.js";
import { RecordCodec, readRecords, recordResult, recordScore, RECORD_BYTES } from "../../learn/records.js";
import { playSelfPlayGame, DEFAULT_SETTINGS } from "../../learn/selfplay.js";

// Every piece type, castling rights of each kind, en passant for both sides, both sides to move.
const FENS = [
  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
  "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
  "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 12 40",
  "r3k2r/8/8/8/8/8/8/R3K2R w Qk - 3 7",
  "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
  "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 3",
  "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 99 211",
  "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
];

let core: Core;
let codec: RecordCodec;
beforeAll(async () => {
  core = await Core.create({ hashMb: 1 });
  codec = new RecordCodec(core);
});

describe("position records", () => {
  it("round-trip the position, score and result exactly", () => {
    FENS.forEach((fen, i) => {
      core.setPosition(fen);
      const score = [-32000, -1, 0, 1, 537, 31999, -1500, 10][i];
      const result = i % 3;
      const rec = codec.pack(score, result);
      expect(rec.length).toBe(RECORD_BYTES);
      core.setPosition("8/8/8/8/8/8/8/K1k5 w - - 0 1");
      codec.unpack(rec, 0, "test");
      expect(core.fen()).toBe(fen);
      expect(recordScore(rec, 0)).toBe(score);
      expect(recordResult(rec, 0)).toBe(result);
      expect(codec.toText(rec, 0, "t")).toBe(`${fen} | ${score} | ${["0.0", "0.5", "1.0"][result]}`);
    });
  });

  it("follow the marlinformat layout byte by byte", () => {
    core.setPosition("r3k3/8/8/8/8/8/8/4K2R w Kq - 5 17");
    const rec = codec.pack(-300, 0);
    const view = new DataView(rec.buffer, rec.byteOffset);
    expect(view.getBigUint64(0, true)).toBe((1n << 4n) | (1n << 7n) | (1n << 56n) | (1n << 60n));
    // e1 white king (5), h1 white castling rook (6), a8 black castling rook (8|6), e8 black king (8|5).
    expect([rec[8], rec[9]]).toEqual([0x65, 0xde]);
    expect(rec[24]).toBe(64); // white to move, no en passant
    expect(rec[25]).toBe(5);
    expect(view.getUint16(26, true)).toBe(17);
    expect(view.getInt16(28, true)).toBe(-300);
    expect(rec[30]).toBe(0);
  });

  it("reject corrupted records with the file and record named, keeping the position", () => {
    core.setPosition(FENS[1]);
    const good = codec.pack(0, 1);
    const cases: [(r: Uint8Array) => void, RegExp][] = [
      [(r) => (r[8] = (r[8] & 0xf0) | 7), /piece code 7/],
      [(r) => (r[30] = 3), /result 3/],
      [(r) => (r[24] = 40), /en-passant square 40/],
      [(r) => new DataView(r.buffer).setBigUint64(0, 0n, true), /kings/],
    ];
    for (const [corrupt, message] of cases) {
      const bad = good.slice();
      corrupt(bad);
      expect(() => codec.unpack(bad, 0, "f.bin: record 7")).toThrow(message);
      expect(() => codec.unpack(bad, 0, "f.bin: record 7")).toThrow(/^f\.bin: record 7: /);
      expect(core.fen()).toBe(FENS[1]);
    }
  });

  it("parse text lines and name the line of a bad one", () => {
    const rec = codec.fromText(`${FENS[4]} | -25 | [0.5]`, "x.epd:1");
    expect(recordScore(rec, 0)).toBe(-25);
    expect(recordResult(rec, 0)).toBe(1);
    expect(() => codec.fromText(`${FENS[4]} | 12`, "x.epd:3")).toThrow(/^x\.epd:3: expected/);
    expect(() => codec.fromText(`${FENS[4]} | 1.5 | 1-0`, "x.epd:4")).toThrow(/x\.epd:4: score/);
    expect(() => codec.fromText(`8/8/8 w - - | 0 | 1-0`, "x.epd:5")).toThrow(/x\.epd:5: invalid FEN/);
  });

  it("name a truncated file and its incomplete record", () => {
    const dir = mkdtempSync(join(tmpdir(), "records-"));
    const file = join(dir, "cut.bin");
    writeFileSync(file, new Uint8Array(RECORD_BYTES * 3 + 5));
    expect(() => [...readRecords([file])]).toThrow(/cut\.bin: 101 bytes is not a multiple of 32: record 3 is truncated/);
  });
});

describe("self-play games", () => {
  const settings = { ...DEFAULT_SETTINGS, nodes: 400, openingNodes: 400, seed: 7 };

  it("are the same for the same seed and index, different for another index", () => {
    const a = playSelfPlayGame(core, 3, settings);
    const b = playSelfPlayGame(core, 3, settings);
    const c = playSelfPlayGame(core, 4, settings);
    expect(a.positions).toBeGreaterThan(5);
    expect(Buffer.from(a.records).equals(Buffer.from(b.records))).toBe(true);
    expect(Buffer.from(a.records).equals(Buffer.from(c.records))).toBe(false);
    for (let i = 0; i < a.positions; i++) expect(recordResult(a.records, i)).toBe(a.result);
    // Each move's search and each opening check stops at its node budget (checked every few
    // nodes, so it may run a little past it).
    expect(a.nodes).toBe(b.nodes);
    expect(a.nodes).toBeGreaterThanOrEqual(400 * (a.plies + a.discardedOpenings + 1) * 0.9);
    expect(a.nodes).toBeLessThanOrEqual(400 * (a.plies + a.discardedOpenings + 2) * 1.5);
  });

  it("keep only positions past the minimum ply, not in check, with a quiet best move", () => {
    const g = playSelfPlayGame(core, 5, settings);
    for (let i = 0; i < g.positions; i++) {
      codec.unpack(g.records, i, "game 5");
      const [, side, , , , full] = core.fen().split(" ");
      expect(2 * (Number(full) - 1) + (side === "b" ? 1 : 0)).toBeGreaterThanOrEqual(16);
      expect(core.inCheck()).toBe(false);
    }
  });
});

describe("npm run datagen", () => {
  it("writes the same file twice for one seed, and exports text", () => {
    const dir = mkdtempSync(join(tmpdir(), "datagen-"));
    const run = (out: string) =>
      execFileSync("npx", ["tsx", "learn/datagen.ts", "--out", out, "--positions", "150", "--nodes", "300", "--threads", "1", "--seed", "11"], {
        encoding: "utf8",
      });
    run(join(dir, "a"));
    run(join(dir, "b"));
    const a = readFileSync(join(dir, "a", "positions.bin"));
    const b = readFileSync(join(dir, "b", "positions.bin"));
    expect(a.length).toBeGreaterThanOrEqual(150 * RECORD_BYTES);
    expect(a.equals(b)).toBe(true);
    const text = execFileSync("npx", ["tsx", "learn/datagen.ts", "--export", "epd", "--data", join(dir, "a")], { encoding: "utf8" });
    const lines = text.trim().split("\n");
    expect(lines.length).toBe(a.length / RECORD_BYTES);
    expect(lines[0]).toMatch(/^\S+ [wb] \S+ \S+ \d+ \d+ \| -?\d+ \| (1\.0|0\.5|0\.0)$/);
  });

  it("fails with one line and exit code 2 on a bad file or an unreachable service", () => {
    const dir = mkdtempSync(join(tmpdir(), "datagen-"));
    const bad = join(dir, "bad");
    writeFileSync(join(dir, "positions.bin"), Buffer.alloc(RECORD_BYTES + 3));
    const cases: [string[], RegExp][] = [
      [["--export", "epd", "--data", dir], /^datagen: .*positions\.bin/],
      // Port 9 (discard) on loopback: nothing listens there, so the first request is refused.
      [["--service", "http://127.0.0.1:9", "--token", "t", "--out", bad, "--positions", "10"], /^datagen: .*fetch failed \(.+\)$/],
    ];
    for (const [args, message] of cases) {
      const r = spawnSync("npx", ["tsx", "learn/datagen.ts", ...args], { encoding: "utf8" });
      expect(r.status, r.stderr).toBe(2);
      const lines = r.stderr.trim().split("\n");
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(message);
    }
  });
});
