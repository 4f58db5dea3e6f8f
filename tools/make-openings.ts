// Writes a file of balanced opening positions for engine-against-engine tests: from the start
// position, a few random legal plies, kept when a short search of ours scores them within a
// margin and no earlier line reached the same position.
//
//   npx tsx tools/make-openings.ts --count 3000 --plies 6 --nodes 20000 --margin 60 --seed 1 > bench/data/openings-random6.epd

import { parseArgs } from "node:util";
import { Core, START_FEN } from "../bindings/core.js";
import { Rng } from "../learn/rng.js";

const { values } = parseArgs({
  options: {
    count: { type: "string", default: "3000" },
    plies: { type: "string", default: "6" },
    nodes: { type: "string", default: "20000" },
    margin: { type: "string", default: "60" },
    seed: { type: "string", default: "1" },
  },
});

const core = await Core.create({ hashMb: 8 });
const rng = new Rng(Number(values.seed), 0x0be);
const seen = new Set<string>();
const count = Number(values.count);
const plies = Number(values.plies);
let tries = 0;
while (seen.size < count) {
  tries++;
  core.setPosition(START_FEN);
  core.newGame();
  let ok = true;
  for (let i = 0; i < plies && ok; i++) {
    const moves = core.legalMoves();
    ok = moves.length > 0 && core.playMove(moves[rng.below(moves.length)]);
  }
  if (!ok || core.status() !== "ongoing") continue;
  const fen = core.fen();
  const position = fen.split(" ").slice(0, 4).join(" ");
  if (seen.has(position)) continue;
  core.search({ nodes: Number(values.nodes) });
  if (Math.abs(core.exports.resultScore()) > Number(values.margin)) continue;
  seen.add(position);
  process.stdout.write(`${position} hmvc ${fen.split(" ")[4]}; fmvn ${fen.split(" ")[5]}; id "random${plies}-${seen.size}";\n`);
}
console.error(`${count} openings from ${tries} random lines`);
