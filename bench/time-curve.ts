// The time each engine spent per move over a game, read from match PGNs written with
// `bench/match.ts --pgn FILE --pgn-comments` (each move's comment ends with its time, "0.377s").
// Prints, per player and per band of moves, the mean time per move and the mean clock left
// (replayed from the TimeControl tag), so the time managers can be compared.
//
//   npx tsx bench/time-curve.ts FILE.pgn [FILE.pgn ...] [--band 10]

import { parseArgs } from "node:util";
import { readCommentedGames } from "../match/commented.js";

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
for await (const game of readCommentedGames(positionals)) {
  if (!game.timeControl) continue;
  const { base, inc } = game.timeControl;
  const clock = [base, base];
  for (const move of game.moves) {
    if (move.seconds === undefined) continue;
    clock[move.side] += inc - move.seconds;
    add(game.players[move.side], Math.floor((move.moveNumber - 1) / BAND), move.seconds, clock[move.side]);
  }
  games++;
}

console.log(`${games} games; mean seconds per move and mean clock left, by the mover's own move number`);
for (const [player, bands] of sums) {
  console.log(`\n${player}`);
  console.log("  moves      per move   clock left   moves seen");
  bands.forEach((b, i) => {
    if (b.moves === 0) return;
    const range = `${i * BAND + 1}-${(i + 1) * BAND}`.padEnd(9);
    console.log(`  ${range}  ${(b.used / b.moves).toFixed(3).padStart(7)} s  ${(b.left / b.moves).toFixed(2).padStart(8)} s   ${String(b.moves).padStart(8)}`);
  });
}
