// Opening positions for matches: a built-in set of common, balanced ECO lines and a reader
// for EPD/FEN files; every opening is checked with our own move generator when loaded.

import { readFileSync } from "node:fs";
import { Core, START_FEN } from "../bindings/core.js";

/** A start position for a game pair: a FEN plus UCI moves played from it. */
export interface Opening {
  name: string;
  eco?: string;
  fen: string;
  moves: string[];
}

/** [ECO, name, moves in SAN from the start position]. SAN keeps the table readable; the
 *  moves become UCI through Core.fromSan, which also checks their legality. */
const BUILTIN: readonly (readonly [string, string, string])[] = [
  ["B90", "Sicilian, Najdorf", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6"],
  ["B70", "Sicilian, Dragon", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 g6"],
  ["B56", "Sicilian, Classical", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 Nc6"],
  ["B33", "Sicilian, Sveshnikov", "e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 Nf6 Nc3 e5"],
  ["B34", "Sicilian, Accelerated Dragon", "e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 g6"],
  ["B41", "Sicilian, Kan", "e4 c5 Nf3 e6 d4 cxd4 Nxd4 a6"],
  ["B44", "Sicilian, Taimanov", "e4 c5 Nf3 e6 d4 cxd4 Nxd4 Nc6"],
  ["B31", "Sicilian, Rossolimo", "e4 c5 Nf3 Nc6 Bb5 g6 O-O Bg7"],
  ["B22", "Sicilian, Alapin", "e4 c5 c3 Nf6 e5 Nd5"],
  ["B24", "Sicilian, Closed", "e4 c5 Nc3 Nc6 g3 g6 Bg2 Bg7"],
  ["B12", "Caro-Kann, Advance", "e4 c6 d4 d5 e5 Bf5"],
  ["B18", "Caro-Kann, Classical", "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Bf5"],
  ["B13", "Caro-Kann, Exchange", "e4 c6 d4 d5 exd5 cxd5 Bd3 Nc6"],
  ["B14", "Caro-Kann, Panov", "e4 c6 d4 d5 exd5 cxd5 c4 Nf6 Nc3 e6"],
  ["C11", "French, Classical", "e4 e6 d4 d5 Nc3 Nf6"],
  ["C17", "French, Winawer", "e4 e6 d4 d5 Nc3 Bb4 e5 c5"],
  ["C02", "French, Advance", "e4 e6 d4 d5 e5 c5 c3 Nc6"],
  ["C07", "French, Tarrasch", "e4 e6 d4 d5 Nd2 c5"],
  ["C01", "French, Exchange", "e4 e6 d4 d5 exd5 exd5 Nf3 Nf6"],
  ["C67", "Ruy Lopez, Berlin", "e4 e5 Nf3 Nc6 Bb5 Nf6 O-O Nxe4"],
  ["C84", "Ruy Lopez, Closed", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7"],
  ["C68", "Ruy Lopez, Exchange", "e4 e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6"],
  ["C53", "Italian, Giuoco Pianissimo", "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6 d3 d6"],
  ["C55", "Two Knights, 4.d3", "e4 e5 Nf3 Nc6 Bc4 Nf6 d3 Be7"],
  ["C45", "Scotch", "e4 e5 Nf3 Nc6 d4 exd4 Nxd4 Nf6"],
  ["C42", "Petrov", "e4 e5 Nf3 Nf6 Nxe5 d6 Nf3 Nxe4"],
  ["C47", "Four Knights, Scotch", "e4 e5 Nf3 Nc6 Nc3 Nf6 d4 exd4"],
  ["C41", "Philidor", "e4 e5 Nf3 d6 d4 Nf6 Nc3 Nbd7"],
  ["C26", "Vienna", "e4 e5 Nc3 Nf6 g3 d5"],
  ["B01", "Scandinavian", "e4 d5 exd5 Qxd5 Nc3 Qa5 d4 Nf6"],
  ["B07", "Pirc", "e4 d6 d4 Nf6 Nc3 g6 Be3 Bg7"],
  ["B06", "Modern", "e4 g6 d4 Bg7 Nc3 d6"],
  ["B05", "Alekhine, Modern", "e4 Nf6 e5 Nd5 d4 d6 Nf3 Bg4"],
  ["D37", "Queen's Gambit Declined", "d4 d5 c4 e6 Nc3 Nf6 Nf3 Be7"],
  ["D35", "QGD, Exchange", "d4 d5 c4 e6 Nc3 Nf6 cxd5 exd5"],
  ["D38", "QGD, Ragozin", "d4 d5 c4 e6 Nc3 Nf6 Nf3 Bb4"],
  ["D32", "QGD, Tarrasch", "d4 d5 c4 e6 Nc3 c5"],
  ["D41", "QGD, Semi-Tarrasch", "d4 d5 c4 e6 Nc3 Nf6 Nf3 c5 cxd5 Nxd5"],
  ["D27", "Queen's Gambit Accepted", "d4 d5 c4 dxc4 Nf3 Nf6 e3 e6 Bxc4 c5"],
  ["D15", "Slav", "d4 d5 c4 c6 Nf3 Nf6 Nc3 dxc4"],
  ["D10", "Slav, Exchange", "d4 d5 c4 c6 cxd5 cxd5 Nc3 Nf6"],
  ["D43", "Semi-Slav", "d4 d5 c4 c6 Nf3 Nf6 Nc3 e6"],
  ["D02", "London System", "d4 d5 Nf3 Nf6 Bf4 e6 e3 c5"],
  ["E32", "Nimzo-Indian, Classical", "d4 Nf6 c4 e6 Nc3 Bb4 Qc2 O-O"],
  ["E46", "Nimzo-Indian, Rubinstein", "d4 Nf6 c4 e6 Nc3 Bb4 e3 O-O"],
  ["E15", "Queen's Indian", "d4 Nf6 c4 e6 Nf3 b6 g3 Ba6"],
  ["E11", "Bogo-Indian", "d4 Nf6 c4 e6 Nf3 Bb4+ Bd2 Qe7"],
  ["E04", "Catalan, Open", "d4 Nf6 c4 e6 g3 d5 Bg2 dxc4"],
  ["E90", "King's Indian, Classical", "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 Nf3 O-O"],
  ["E81", "King's Indian, Samisch", "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 f3 O-O"],
  ["D85", "Grunfeld, Exchange", "d4 Nf6 c4 g6 Nc3 d5 cxd5 Nxd5 e4 Nxc3"],
  ["A60", "Modern Benoni", "d4 Nf6 c4 c5 d5 e6 Nc3 exd5 cxd5 d6"],
  ["A86", "Dutch, Leningrad", "d4 f5 c4 Nf6 g3 g6 Bg2 Bg7"],
  ["A45", "Trompowsky", "d4 Nf6 Bg5 Ne4 Bf4 c5"],
  ["A36", "English, Symmetrical", "c4 c5 Nc3 Nc6 g3 g6 Bg2 Bg7"],
  ["A29", "English, Four Knights", "c4 e5 Nc3 Nf6 Nf3 Nc6 g3 d5"],
  ["A17", "English, Nimzo-English", "c4 Nf6 Nc3 e6 Nf3 Bb4"],
  ["A13", "Reti", "Nf3 d5 c4 e6 g3 Nf6 Bg2 Be7"],
  ["A07", "King's Indian Attack", "Nf3 d5 g3 Nf6 Bg2 c6 O-O Bg4"],
];

/** The built-in openings, resolved to UCI and checked with core (whose position changes).
 *  Throws if any line is illegal (a typo in the table). */
export function builtinOpenings(core: Core): Opening[] {
  return BUILTIN.map(([eco, name, san]) => {
    core.setPosition(START_FEN);
    const moves: string[] = [];
    for (const s of san.split(" ")) {
      const uci = core.fromSan(s);
      if (!core.playMove(uci)) throw new Error(`built-in opening ${eco} ${name}: ${s} is illegal`);
      moves.push(uci);
    }
    if (core.status() !== "ongoing") throw new Error(`built-in opening ${eco} ${name} ends the game`);
    return { name, eco, fen: START_FEN, moves };
  });
}

/** Reads the position part of one FEN or EPD line: the four position fields, then either
 *  the two FEN clock fields or EPD opcodes (`hmvc` and `fmvn` supply the clocks, `id` a
 *  name; other opcodes are ignored). Returns undefined for blank and `#` comment lines. */
export function parsePositionLine(line: string): { fen: string; name?: string } | undefined {
  const text = line.trim();
  if (text === "" || text.startsWith("#")) return undefined;
  const m = /^(\S+\s+\S+\s+\S+\s+\S+)(.*)$/.exec(text);
  if (!m) throw new Error(`expected a FEN or EPD position, got ${JSON.stringify(text)}`);
  const position = m[1].split(/\s+/).join(" ");
  const rest = m[2];
  const clocks = /^\s+(\d+)\s+(\d+)(\s|$)/.exec(rest);
  if (clocks) return { fen: `${position} ${clocks[1]} ${clocks[2]}` };
  // EPD operations: "opcode operand...;" with operands possibly in double quotes.
  const ops = new Map<string, string>();
  for (const m of rest.matchAll(/([A-Za-z][A-Za-z0-9_]*)\s*((?:"[^"]*"|[^;"])*);/g)) {
    ops.set(m[1], m[2].trim().replace(/^"(.*)"$/, "$1"));
  }
  const hmvc = ops.get("hmvc");
  const fmvn = ops.get("fmvn");
  const halfmove = hmvc !== undefined && /^\d+$/.test(hmvc) ? hmvc : "0";
  const fullmove = fmvn !== undefined && /^\d+$/.test(fmvn) ? fmvn : "1";
  return { fen: `${position} ${halfmove} ${fullmove}`, name: ops.get("id") };
}

/** Parses an openings file of FEN or EPD lines and checks every position with core (its
 *  position changes). Errors name the source and line. */
export function parseOpenings(text: string, core: Core, source = "openings"): Opening[] {
  const out: Opening[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const where = `${source}:${i + 1}`;
    let parsed: ReturnType<typeof parsePositionLine>;
    try {
      parsed = parsePositionLine(line);
      if (!parsed) return;
      core.setPosition(parsed.fen);
    } catch (err) {
      throw new Error(`${where}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const status = core.status();
    if (status !== "ongoing") throw new Error(`${where}: the position is already decided (${status})`);
    out.push({ name: parsed.name ?? where, fen: core.fen(), moves: [] });
  });
  if (out.length === 0) throw new Error(`${source}: no positions found`);
  return out;
}

/** A copy of the list in a pseudo-random order fixed by seed (mulberry32 + Fisher-Yates). */
export function shuffled<T>(list: readonly T[], seed: number): T[] {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = list.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A match's openings: the FEN or EPD lines of `file`, or the built-in lines without one, all
 *  checked with core (its position changes); in a pseudo-random order fixed by `seed` when
 *  one is given, else in order. */
export function loadOpenings(core: Core, file?: string, seed?: number): Opening[] {
  const openings = file ? parseOpenings(readFileSync(file, "utf8"), core, file) : builtinOpenings(core);
  return seed === undefined ? openings : shuffled(openings, seed);
}
