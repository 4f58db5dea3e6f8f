// Writes a file of balanced endgame positions of 6 to 8 pieces for engine-against-engine tests
// of the tablebases (the strength test: the 3-5-piece set against none, from positions a
// few captures away from it): random material for each side (the kings, up to --pieces pieces
// and up to --pawns pawns, by default two and three, the two sides within --imbalance pawns of
// each other by the usual values), placed at random (pawns on ranks 2-7), kept when the
// position is legal, without castling rights, a short search of ours scores it from
// --min-score to --margin centipawns either way, and no earlier one is the same.
//
//   npx tsx tools/make-endgame-openings.ts --count 500 --nodes 20000 --margin 100 --seed 1 > bench/data/endgames-6to8.epd
//   npx tsx tools/make-endgame-openings.ts --count 500 --nodes 20000 --min-score 100 --margin 300 --imbalance 3 --seed 2 > bench/data/endgames-6to8-unclear.epd
//   npx tsx tools/make-endgame-openings.ts --count 200 --nodes 20000 --min-score 100 --margin 300 --imbalance 3 --pieces 3 --pawns 0 --seed 3 > bench/data/endgames-6to8-pawnless.epd
//
// The first set is balanced: most of its games are drawn or decided from the start. The
// second has one side better by one to three pawns, with up to three pawns' worth more
// material: positions where the result turns on technique, converting or holding. The third
// is the second without pawns (up to three pieces a side): every table its games can reach is
// one of the 60 pawnless tables of 5 pieces or a smaller one, so a match from it plays with the
// whole 3-5 set given only those, which take about 40 minutes to generate here where the whole
// set takes hours.

import { parseArgs } from "node:util";
import { Core } from "../bindings/core.js";
import { makeRandom, randomPosition } from "./syzygy-oracle.js";

const { values } = parseArgs({
  options: {
    count: { type: "string", default: "500" },
    nodes: { type: "string", default: "20000" },
    margin: { type: "string", default: "100" },
    "min-score": { type: "string", default: "0" },
    imbalance: { type: "string", default: "1" },
    seed: { type: "string", default: "1" },
    min: { type: "string", default: "6" },
    max: { type: "string", default: "8" },
    pieces: { type: "string", default: "2" },
    pawns: { type: "string", default: "3" },
  },
});
const VALUE: Record<string, number> = { Q: 9, R: 5, B: 3, N: 3, P: 1 };
const random = makeRandom(Number(values.seed) >>> 0);
const pick = (pool: string, n: number) => Array.from({ length: n }, () => pool[random(pool.length)]).join("");
const worth = (side: string) => [...side].reduce((a, p) => a + VALUE[p], 0);
/** A side's pieces in the generator's order (Q R B N P), without its king. */
const sorted = (side: string) => [...side].sort((a, b) => "QRBNP".indexOf(a) - "QRBNP".indexOf(b)).join("");

const maxPieces = Number(values.pieces);
const maxPawns = Number(values.pawns);
/** Random material of min to max pieces, kings included, the sides within --imbalance pawns. */
function material(): string {
  for (;;) {
    const sides = [0, 1].map(() => sorted(pick("QRBN", random(maxPieces + 1)) + "P".repeat(random(maxPawns + 1))));
    const pieces = 2 + sides[0].length + sides[1].length;
    if (pieces < Number(values.min) || pieces > Number(values.max)) continue;
    if (Math.abs(worth(sides[0]) - worth(sides[1])) > Number(values.imbalance)) continue;
    return `K${sides[0]}vK${sides[1]}`;
  }
}

const core = await Core.create({ build: "classical", hashMb: 8 });
const seen = new Set<string>();
const count = Number(values.count);
let tries = 0;
while (seen.size < count) {
  tries++;
  const fen = randomPosition(core, random, material(), random(2) === 0, false);
  if (!fen || core.status() !== "ongoing" || core.inCheck()) continue;
  const position = fen.split(" ").slice(0, 4).join(" ");
  if (seen.has(position)) continue;
  core.newGame();
  core.search({ nodes: Number(values.nodes) });
  const score = Math.abs(core.exports.resultScore());
  if (score > Number(values.margin) || score < Number(values["min-score"])) continue;
  seen.add(position);
  const pieces = position.split(" ")[0].replace(/[^a-z]/gi, "").length;
  process.stdout.write(`${position} hmvc 0; fmvn 1; id "endgame${pieces}-${seen.size}";\n`);
}
core.dispose();
console.error(`${count} endgame positions from ${tries} random ones`);
