// Did the engine see its losses coming? For every game that PLAYER lost in match PGNs written
// with `bench/match.ts --pgn-comments` (each move's comment starts with its score, "+0.35/12"),
// the opponent's first score of +1.5 or more and PLAYER's own last score before it. Losses in
// which PLAYER still scored itself above -1.0 at that point are misjudged positions (the
// evaluation), not only shorter calculation.
//
//   npx tsx bench/eval-gap.ts --player NAME FILE.pgn [FILE.pgn ...] [--threshold 150] [--list]

import { parseArgs } from "node:util";
import { createReadStream } from "node:fs";
import { readPgn } from "../bindings/pgn-read.js";

const { values, positionals } = parseArgs({
  options: { player: { type: "string" }, threshold: { type: "string", default: "150" }, list: { type: "boolean", default: false } },
  allowPositionals: true,
});
if (!values.player || positionals.length === 0) throw new Error("usage: eval-gap --player NAME FILE.pgn [FILE.pgn ...]");
const THRESHOLD = Number(values.threshold);
const BELIEVED = -100;

/** Centipawns of a move comment "+0.35/12 0.4s" or "-M5/20 ..." (mates as ±10,000). */
function score(comment: string | undefined): number {
  const m = /^([+-]?)(M?)([\d.]+)\//.exec(comment ?? "");
  if (!m) return NaN;
  const value = m[2] ? 10000 : Math.round(Number(m[3]) * 100);
  return m[1] === "-" ? -value : value;
}

let lost = 0;
let seen = 0;
let believed = 0;
const gaps: number[] = [];
for (const file of positionals) {
  for await (const game of readPgn(createReadStream(file, "utf8"))) {
    const weWhite = game.headers.get("White") === values.player;
    if (!weWhite && game.headers.get("Black") !== values.player) continue;
    if (game.result !== (weWhite ? "0-1" : "1-0")) continue;
    lost++;
    const whiteFirst = game.startFen.split(" ")[1] === "w";
    let ours = NaN;
    for (const [ply, move] of game.moves().entries()) {
      const ourMove = (ply % 2 === 0) === whiteFirst === weWhite;
      const s = score(move.comment);
      if (ourMove) {
        ours = s;
      } else if (s >= THRESHOLD && !Number.isNaN(ours)) {
        seen++;
        if (ours > BELIEVED) believed++;
        gaps.push(ours);
        if (values.list) console.log(`${file} round ${game.headers.get("Round")}: opponent +${s} at ply ${ply + 1}, ${values.player} ${ours}`);
        break;
      }
    }
  }
}
gaps.sort((a, b) => a - b);
const median = gaps.length ? gaps[Math.floor(gaps.length / 2)] : NaN;
console.log(`${values.player} lost ${lost} games; in ${seen} the opponent's score reached +${THRESHOLD}`);
console.log(`at that moment ${values.player}'s own last score was above ${BELIEVED} in ${believed} of them (median ${median} cp)`);
