// Perft as a check of move generation: suite files of positions with known counts (EPD with
// `;D1 n ;D2 n ...`, as tools/perft-suite.ts writes them from Stockfish), and a live comparison
// with a reference UCI engine that narrows a differing count down, with divide, to the first
// move where the two disagree.

import { readFileSync } from "node:fs";
import type { Core } from "../bindings/core.js";
import type { UciProcess } from "./uci-process.js";

/** The suites beside this file, written by tools/perft-suite.ts (standard and Chess960). */
export const PERFT_SUITE = new URL("./data/perft.epd", import.meta.url);
export const CHESS960_PERFT_SUITE = new URL("./data/chess960-perft.epd", import.meta.url);

export interface PerftCase {
  fen: string;
  /** counts[d - 1] is perft(d). */
  counts: bigint[];
  /** What the position tests (the line's last field). */
  what: string;
}

/** Parses a perft suite: "FEN ;D1 n ;D2 n ... ; what", blank and `#` lines ignored. */
export function parsePerftSuite(text: string): PerftCase[] {
  return text
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("#"))
    .map((line) => {
      const parts = line.split(";").map((p) => p.trim());
      const counts = parts.filter((p) => /^D\d+ /.test(p)).map((p) => BigInt(p.split(" ")[1]));
      return { fen: parts[0], counts, what: parts[parts.length - 1] };
    });
}

/** Reads a perft suite file (PERFT_SUITE, CHESS960_PERFT_SUITE or another). */
export function readPerftSuite(file: string | URL): PerftCase[] {
  return parsePerftSuite(readFileSync(file, "utf8"));
}

/** What a comparison asks of the reference: a UciProcess, or a stand-in in tests. */
export type PerftReference = Pick<UciProcess, "perft" | "divide">;

/** The UCI `position` argument for a FEN and moves played from it. */
function uciPosition(fen: string, moves: readonly string[]): string {
  return `fen ${fen}${moves.length ? ` moves ${moves.join(" ")}` : ""}`;
}

/** Where our divide and the reference's first disagree: follows the differing move down to
 *  depth 1 and describes it ("after e2e4 b8c6: move d1h5 ours 31, Stockfish 30"). `core`
 *  must be in the mode of the position (Chess960 or not), and so must the reference. */
export async function narrowPerftDifference(core: Core, reference: PerftReference, fen: string, depth: number, name = "reference"): Promise<string> {
  const moves: string[] = [];
  for (let left = depth; left >= 1; left--) {
    core.setPosition(fen, moves);
    const ours = new Map(core.divide(left).map((e) => [e.move, e.nodes]));
    const theirs = await reference.divide(uciPosition(fen, moves), left);
    const keys = new Set([...ours.keys(), ...theirs.keys()]);
    const bad = [...keys].find((k) => ours.get(k) !== theirs.get(k));
    if (bad === undefined) return `divide agrees after ${moves.join(" ") || "(root)"}`;
    if (!ours.has(bad) || !theirs.has(bad) || left === 1) {
      return `after ${moves.join(" ") || "(root)"}: move ${bad} ours ${ours.get(bad) ?? "missing"}, ${name} ${theirs.get(bad) ?? "missing"}`;
    }
    moves.push(bad);
  }
  return "no difference found";
}

/** One position's perft by us and by the reference, with both times in ms. */
export interface PerftComparison {
  fen: string;
  depth: number;
  ours: bigint;
  theirs: bigint;
  oursMs: number;
  theirsMs: number;
  /** Where the counts part, when they differ (narrowPerftDifference). */
  difference?: string;
}

/** Perft of fen at depth by core and by the reference engine; a difference is narrowed down. */
export async function comparePerft(core: Core, reference: PerftReference, fen: string, depth: number, name = "reference"): Promise<PerftComparison> {
  core.setPosition(fen);
  const t0 = performance.now();
  const ours = core.perft(depth);
  const oursMs = performance.now() - t0;
  const [theirs, theirsMs] = await reference.perft(uciPosition(fen, []), depth);
  const result: PerftComparison = { fen, depth, ours, theirs, oursMs, theirsMs };
  if (ours !== theirs) result.difference = await narrowPerftDifference(core, reference, fen, depth, name);
  return result;
}
