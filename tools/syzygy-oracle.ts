// Writes tests/data/syzygy-oracle.jsonl: seeded random legal positions for every Syzygy
// table found, each with Fathom's answer (data/syzygy/bin/syzygy-oracle, built by
// tools/syzygy-tables.sh from tools/syzygy-oracle.c, which documents the fields).
//
//   npx tsx tools/syzygy-oracle.ts [--tables app/public/syzygy/3-4] [--tables data/syzygy/5]
//     [--per-table 30] [--seed 1] [--oracle data/syzygy/bin/syzygy-oracle]
//     [--out tests/data/syzygy-oracle.jsonl] [--only KRPvKR,KBNvK]
//
// --only: positions of the named tables alone (every table of the directories may still be
// probed after a capture); without it, of every table found.
// The first line of the output names the command, the seed and the tables; every other line
// is {"table", "fen", "wdl", "dtz", "moves": [{"uci", "wdl", "dtz"}], "mate"?}. Per table:
// half the positions with White to move, half Black; the material on either colour; about a
// third chosen so that the side to move has a capture (into a smaller table); for tables with
// pawns on both sides a few positions right after a double pawn push that can be taken en
// passant. The same arguments give the same file: positions come from a seeded PRNG
// (splitmix32), legality from the engine's own rules (Core.setPosition rejects a side not to
// move in check, pawns on the back ranks, ...).
import { spawnSync } from "node:child_process";
import { readdirSync, writeFileSync, statSync } from "node:fs";
import { relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Core } from "../bindings/core.js";
import type { EngineExports } from "../bindings/wasm.js";

const ROOT = resolve(import.meta.dirname, "..");

interface Options {
  tables: string[];
  perTable: number;
  seed: number;
  oracle: string;
  out: string;
  only: string[];
}

function parseArgs(argv: string[]): Options {
  const o: Options = { tables: [], perTable: 30, seed: 1, oracle: "data/syzygy/bin/syzygy-oracle", out: "tests/data/syzygy-oracle.jsonl", only: [] };
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${argv[i]} needs a value`);
    switch (argv[i++]) {
      case "--tables": o.tables.push(value); break;
      case "--per-table": o.perTable = Number(value); break;
      case "--seed": o.seed = Number(value) >>> 0; break;
      case "--oracle": o.oracle = value; break;
      case "--out": o.out = value; break;
      case "--only": o.only = value.split(",").filter(Boolean); break;
      default: throw new Error(`unknown option ${argv[i - 1]}`);
    }
  }
  if (o.tables.length === 0) o.tables.push("app/public/syzygy/3-4");
  const found = new Set(o.tables.flatMap((d) => tablesIn(resolve(ROOT, d))));
  const missing = o.only.filter((t) => !found.has(t));
  if (missing.length) throw new Error(`--only: no table ${missing.join(", ")} in ${o.tables.join(", ")}`);
  if (!Number.isInteger(o.perTable) || o.perTable < 2) throw new Error("--per-table must be an integer >= 2");
  return o;
}

/** splitmix32: a small seeded PRNG, returns an integer in [0, n). */
export function makeRandom(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n: number) => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    z = (z ^ (z >>> 16)) >>> 0;
    return Math.floor((z / 2 ** 32) * n);
  };
}

const SQUARES = Array.from({ length: 64 }, (_, i) => "abcdefgh"[i & 7] + (1 + (i >> 3)));

/** FEN of a placement (square index 0 = a1 -> piece letter), side to move, no castling. */
function placementFen(board: Map<number, string>, white: boolean): string {
  const ranks: string[] = [];
  for (let r = 7; r >= 0; r--) {
    let row = "";
    let empty = 0;
    for (let f = 0; f < 8; f++) {
      const p = board.get(r * 8 + f);
      if (!p) { empty++; continue; }
      if (empty) row += empty;
      row += p;
      empty = 0;
    }
    ranks.push(empty ? row + empty : row);
  }
  return `${ranks.join("/")} ${white ? "w" : "b"} - - 0 1`;
}

/** "KRPvKR" -> the white and black piece letters, colours swapped when `swap`. */
function material(table: string, swap: boolean): { white: string; black: string } {
  const [a, b] = table.split("v");
  const [w, bl] = swap ? [b, a] : [a, b];
  return { white: w.toUpperCase(), black: bl.toLowerCase() };
}

/** Puts the pieces on random empty squares of the board (pawns on ranks 2-7). */
function place(random: (n: number) => number, pieces: string, board: Map<number, string>): boolean {
  for (const p of pieces) {
    const pawn = p === "P" || p === "p";
    for (let tries = 0; ; tries++) {
      if (tries > 200) return false;
      const sq = pawn ? 8 + random(48) : random(64);
      if (board.has(sq)) continue;
      board.set(sq, p);
      break;
    }
  }
  return true;
}

/** Sets the FEN if the engine finds it legal; returns the legal moves, or null. */
function tryPosition(core: Core, fen: string, moves: string[] = []): string[] | null {
  try {
    core.setPosition(fen, moves);
    return core.legalMoves();
  } catch {
    return null;
  }
}

/** Whether one of the moves takes a piece (the board is the placement before them). */
function hasCapture(moves: string[], board: Map<number, string>, fen: string): boolean {
  const ep = fen.split(" ")[3];
  return moves.some((m) => board.has(SQUARES.indexOf(m.slice(2, 4))) || m.slice(2, 4) === ep);
}

/** A random legal position of the table's material with the given side to move. */
export function randomPosition(core: Core, random: (n: number) => number, table: string, white: boolean, wantCapture: boolean): string | null {
  for (let tries = 0; tries < 5000; tries++) {
    const { white: w, black: b } = material(table, random(2) === 1);
    const board = new Map<number, string>();
    if (!place(random, w + b, board)) continue;
    const fen = placementFen(board, white);
    const moves = tryPosition(core, fen);
    if (!moves) continue;
    if (wantCapture && !hasCapture(moves, board, fen)) continue;
    return core.fen();
  }
  return null;
}

/** A position just after a double pawn push that the other side can take en passant. */
function enPassantPosition(core: Core, random: (n: number) => number, table: string): string | null {
  for (let tries = 0; tries < 5000; tries++) {
    const swap = random(2) === 1;
    const { white: w, black: b } = material(table, swap);
    const pusherWhite = random(2) === 1;
    const board = new Map<number, string>();
    const file = random(8);
    const side = file === 0 ? 1 : file === 7 ? -1 : random(2) ? 1 : -1;
    // the pusher's pawn on its second rank, the taker's beside the square it lands on
    const from = pusherWhite ? 8 + file : 48 + file;
    const to = pusherWhite ? 24 + file : 32 + file;
    board.set(from, pusherWhite ? "P" : "p");
    board.set(to + side, pusherWhite ? "p" : "P");
    if (!place(random, w.replace("P", "") + b.replace("p", ""), board)) continue;
    if (board.has(from + (pusherWhite ? 8 : -8)) || board.has(to)) continue;
    const push = SQUARES[from] + SQUARES[to];
    if (!tryPosition(core, placementFen(board, pusherWhite), [push])) continue;
    const fen = core.fen();
    if (fen.split(" ")[3] !== "-") return fen;
  }
  return null;
}

export function tablesIn(dir: string): string[] {
  return readdirSync(dir).filter((f) => f.endsWith(".rtbw")).map((f) => f.slice(0, -5)).sort();
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const core = await Core.create({ hashMb: 1 });
  const random = makeRandom(o.seed);
  const byFen = new Map<string, string>();
  const tables: string[] = [];
  for (const dir of o.tables) {
    for (const table of tablesIn(resolve(ROOT, dir))) {
      if (o.only.length && !o.only.includes(table)) continue;
      tables.push(table);
      const before = byFen.size;
      const both = /P.*v.*P/.test(table);
      const epCount = both ? Math.max(2, Math.floor(o.perTable / 5)) : 0;
      for (let i = 0; i < epCount; i++) {
        const fen = enPassantPosition(core, random, table);
        if (fen && !byFen.has(fen)) byFen.set(fen, table);
      }
      for (let i = 0; byFen.size - before < o.perTable && i < o.perTable * 4; i++) {
        const fen = randomPosition(core, random, table, i % 2 === 0, i % 3 === 0 && table.length > 4);
        if (fen && !byFen.has(fen)) byFen.set(fen, table);
      }
    }
  }
  core.dispose();
  const fens = [...byFen.keys()];
  const oraclePath = resolve(ROOT, o.oracle);
  const path = o.tables.map((d) => resolve(ROOT, d)).join(":");
  const run = spawnSync(oraclePath, [path], { input: fens.join("\n") + "\n", encoding: "utf8", maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(`${o.oracle} failed: ${run.stderr}`);
  const answers = run.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
  if (answers.length !== fens.length) throw new Error(`${answers.length} answers for ${fens.length} positions`);
  const lines: string[] = [];
  const command = ["npx tsx tools/syzygy-oracle.ts", ...o.tables.flatMap((t) => ["--tables", t]), "--per-table", o.perTable, "--seed", o.seed,
    ...(o.only.length ? ["--only", o.only.join(",")] : [])].join(" ");
  lines.push(JSON.stringify({ generator: "tools/syzygy-oracle.ts", command, seed: o.seed, perTable: o.perTable, oracle: "Fathom (tools/syzygy-oracle.c)", tables }));
  for (const a of answers) {
    if ("error" in a) throw new Error(`oracle error for ${String(a.fen)}: ${String(a.error)}`);
    lines.push(JSON.stringify({ table: byFen.get(a.fen as string), ...a }));
  }
  const out = resolve(ROOT, o.out);
  writeFileSync(out, lines.join("\n") + "\n");
  const ep = fens.filter((f) => f.split(" ")[3] !== "-").length;
  console.log(`${relative(ROOT, out)}: ${fens.length} positions of ${tables.length} tables (${ep} with en passant), ${statSync(out).size} bytes`);
}

/** The engine's answer for a position in the oracle's shape: WDL, DTZ (0 with no legal move,
 *  then `mate` says which), and every legal move's WDL (from the position's side, with its
 *  halfmove clock) and DTZ, sorted by UCI. */
export function engineAnswer(w: EngineExports, fen: string): { fen: string; wdl: number; dtz: number; moves: { uci: string; wdl: number; dtz: number }[]; mate?: string } {
  if (w.setFen(fen) !== 0) throw new Error(`${fen}: ${w.fenError()}`);
  const halfmoves = Number(fen.split(" ")[4] ?? "0");
  const n = w.tbProbeRoot();
  const moves: { uci: string; wdl: number; dtz: number }[] = [];
  for (let i = 0; i < n; i++) moves.push({ uci: w.moveText(w.tbRootMove(i)), wdl: w.tbRootWdl(i, halfmoves), dtz: w.tbRootDtz(i) });
  moves.sort((a, b) => (a.uci < b.uci ? -1 : a.uci > b.uci ? 1 : 0));
  const wdl = w.tbProbeWdl();
  if (n === 0) return { fen, wdl, dtz: 0, moves, mate: w.sideInCheck() ? "checkmate" : "stalemate" };
  return { fen, wdl, dtz: w.tbProbeDtz(), moves };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
