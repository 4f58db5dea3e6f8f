// Reads tests/data/perft.epd (or another suite in tests/data, such as chess960-perft.epd):
// positions with perft counts computed by native Stockfish.
import { readFileSync } from "node:fs";

export interface PerftCase {
  fen: string;
  counts: number[]; // counts[d - 1] is perft(d)
  what: string;
}

export function readPerftSuite(file = "perft.epd"): PerftCase[] {
  const text = readFileSync(new URL(`./data/${file}`, import.meta.url), "utf8");
  return text
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("#"))
    .map((line) => {
      const parts = line.split(";").map((p) => p.trim());
      const counts = parts.filter((p) => /^D\d+ /.test(p)).map((p) => Number(p.split(" ")[1]));
      return { fen: parts[0], counts, what: parts[parts.length - 1] };
    });
}
