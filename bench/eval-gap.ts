// Did the engine see its losses coming? For every game that PLAYER lost in match PGNs written
// with `bench/match.ts --pgn-comments` (each move's comment starts with its score, "+0.35/12"),
// the opponent's first score of +1.5 or more and PLAYER's own last score before it. Losses in
// which PLAYER still scored itself above -1.0 at that point are misjudged positions (the
// evaluation), not only shorter calculation.
//
//   npx tsx bench/eval-gap.ts --player NAME FILE.pgn [FILE.pgn ...] [--threshold 150] [--list]

import { parseArgs } from "node:util";
import { lossGap, loserIndex, readCommentedGames } from "../match/commented.js";

const { values, positionals } = parseArgs({
  options: { player: { type: "string" }, threshold: { type: "string", default: "150" }, list: { type: "boolean", default: false } },
  allowPositionals: true,
});
if (!values.player || positionals.length === 0) throw new Error("usage: eval-gap --player NAME FILE.pgn [FILE.pgn ...]");
const THRESHOLD = Number(values.threshold);
const BELIEVED = -100;

let lost = 0;
let believed = 0;
const gaps: number[] = [];
for await (const game of readCommentedGames(positionals)) {
  const us = loserIndex(game, values.player);
  if (us === undefined) continue;
  lost++;
  const gap = lossGap(game, us, THRESHOLD);
  if (!gap) continue;
  if (gap.ours > BELIEVED) believed++;
  gaps.push(gap.ours);
  if (values.list) {
    console.log(`round ${game.round}: opponent ${game.moves[gap.ply].cp} cp at ply ${gap.ply + 1}, ${values.player} ${gap.ours} cp`);
  }
}
gaps.sort((a, b) => a - b);
const median = gaps.length ? gaps[Math.floor(gaps.length / 2)] : NaN;
console.log(`${values.player} lost ${lost} games; in ${gaps.length} the opponent's score reached +${THRESHOLD}`);
console.log(`at that moment ${values.player}'s own last score was above ${BELIEVED} in ${believed} of them (median ${median} cp)`);
