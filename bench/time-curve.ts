// The time each engine spent per move over a game, read from match PGNs written with
// `bench/match.ts --pgn FILE --pgn-comments` (each move's comment ends with its time, "0.377s").
// Prints, per player and per band of moves, the mean time per move and the mean clock left
// (replayed from the TimeControl tag), so the time managers can be compared.
//
//   npx tsx bench/time-curve.ts FILE.pgn [FILE.pgn ...] [--band 10]

import { parseArgs } from "node:util";
import { createReadStream } from "node:fs";
import { readPgn } from "../bindings/pgn-read.js";

const { values, positionals } = parseArgs({ options: { band: { type: "string", default: "10" } }, allowPositionals: true });
if (positionals.length === 0) throw new Error("usage: time-curve FILE.pgn [FILE.pgn ...] [--band 10]");
const BAND = Number(values.band);

/** Sums per player and band: moves, seconds used, seconds left on the clock after the move. */
const sums = new Map<string, { moves: number; used: number; left: number }[]>();

function add(player: string, band: number, used: number, left: number): void {
  const bands = sums.get(player) ?? [];
  sums.set(player, bands);
  while (bands.length <= band) bands.push({ moves: 0, used: 0, left: 0 });
  bands[band].moves++;
  bands[band].used += used;
  bands[band].left += left;
}

let games = 0;
for (const file of positionals) {
  for await (const game of readPgn(createReadStream(file, "utf8"))) {
    const tc = /^(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)$/.exec(game.headers.get("TimeControl") ?? "");
    if (!tc) continue;
    const [base, inc] = [Number(tc[1]), Number(tc[2])];
    const clock = [base, base];
    const firstMover = game.startFen.split(" ")[1] === "w" ? 0 : 1;
    const players = [game.headers.get("White") ?? "?", game.headers.get("Black") ?? "?"];
    // The match starts from an opening line; count moves from the game's own first move.
    game.moves().forEach((move, ply) => {
      const side = (firstMover + ply) % 2;
      const used = Number(/([\d.]+)s\s*$/.exec(move.comment ?? "")?.[1] ?? NaN);
      if (Number.isNaN(used)) return;
      clock[side] = clock[side] - used + inc;
      add(players[side], Math.floor(ply / 2 / BAND), used, clock[side]);
    });
    games++;
  }
}

console.log(`${games} games; mean seconds per move and mean clock left, by the game's own move number`);
for (const [player, bands] of sums) {
  console.log(`\n${player}`);
  console.log("  moves      per move   clock left   moves seen");
  bands.forEach((b, i) => {
    if (b.moves === 0) return;
    const range = `${i * BAND + 1}-${(i + 1) * BAND}`.padEnd(9);
    console.log(`  ${range}  ${(b.used / b.moves).toFixed(3).padStart(7)} s  ${(b.left / b.moves).toFixed(2).padStart(8)} s   ${String(b.moves).padStart(8)}`);
  });
}
