// Tactical test suite runner: searches each EPD position for a fixed time and counts the
// positions whose best move is one of the `bm` moves.
//   npm run bench:tactics [-- --file bench/data/wac.epd] [--ms 1000 | --nodes N] [--first N] [--features MASK]
//                         [--build nnue|classical] [--net FILE] [--mode alphabeta|mcts] [--param NAME=VALUE ...]
// Default: the 300 Win At Chess positions at 1 second each, with the host's default build.
// --nodes gives a fixed node budget per position instead, which makes the run independent of
// machine load. --net loads a network file into the network build. --mode mcts runs the Monte
// Carlo search (its nodes are visits); --param sets a search parameter (repeatable).

import { parseArgs } from "node:util";
import { readFileSync } from "node:fs";
import { Core } from "../bindings/core.js";
import type { EngineBuild } from "../bindings/wasm.js";
import type { SearchMode } from "../bindings/validate.js";

const { values } = parseArgs({
  options: {
    file: { type: "string", default: new URL("./data/wac.epd", import.meta.url).pathname },
    ms: { type: "string", default: "1000" },
    nodes: { type: "string" },
    first: { type: "string" },
    features: { type: "string" },
    hash: { type: "string", default: "64" },
    quiet: { type: "boolean", default: false },
    build: { type: "string" },
    net: { type: "string" },
    mode: { type: "string", default: "alphabeta" },
    param: { type: "string", multiple: true, default: [] },
  },
});

interface EpdCase {
  fen: string;
  bm: string[];
  id: string;
}

function readEpd(path: string): EpdCase[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("#"))
    .map((line) => {
      const fields = line.trim().split(/\s+/);
      const fen = fields.slice(0, 4).join(" ") + " 0 1";
      const ops = fields.slice(4).join(" ");
      const bm = /bm ([^;]+);/.exec(ops)?.[1].trim().split(/\s+/) ?? [];
      const id = /id "([^"]+)"/.exec(ops)?.[1] ?? fen;
      return { fen, bm, id };
    });
}

const strip = (san: string) => san.replace(/[+#!?]/g, "");
const cases = readEpd(values.file!).slice(0, values.first ? Number(values.first) : undefined);
const ms = Number(values.ms);
const core = await Core.create({ hashMb: Number(values.hash), build: values.build as EngineBuild | undefined });
if (values.net) core.loadNetwork(readFileSync(values.net));
const w = core.exports;
const info = core.info();
console.log(`${info.build} build, ${info.network ? `network ${info.network.name}` : "classical evaluation"}, ${values.mode}`);
if (values.features) w.setSearchFeatures(Number(values.features));
core.setSearchMode(values.mode as SearchMode);
for (const p of values.param!) {
  const [name, value] = p.split("=");
  core.setSearchParam(name, Number(value));
}

let solved = 0;
let totalNodes = 0;
const failed: string[] = [];
const t0 = performance.now();
for (const c of cases) {
  if (w.setFen(c.fen) !== 0) throw new Error(`${c.id}: bad FEN: ${w.fenError()}`);
  w.newGame();
  w.resetLimits();
  if (values.nodes) w.setNodeLimit(BigInt(values.nodes));
  else w.setMoveTimeLimit(ms);
  w.go();
  const move = w.resultBestMove();
  const san = strip(w.uciToSan(move));
  const ok = c.bm.map(strip).includes(san);
  totalNodes += Number(w.infoNodes());
  if (ok) solved++;
  else failed.push(`${c.id} (played ${san}, wanted ${c.bm.join(" ")})`);
  if (!values.quiet) console.log(`${c.id.padEnd(9)} ${ok ? "ok  " : "FAIL"} ${san.padEnd(7)} bm ${c.bm.join(" ")}`);
}
const seconds = (performance.now() - t0) / 1000;
const budget = values.nodes ? `${values.nodes} nodes` : `${ms} ms`;
console.log(`\nsolved ${solved} / ${cases.length} at ${budget} per position (${seconds.toFixed(0)} s, ${(totalNodes / seconds / 1e6).toFixed(2)} M nodes/s)`);
if (values.quiet && failed.length) console.log("failed: " + failed.join(", "));
