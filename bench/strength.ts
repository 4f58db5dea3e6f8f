// Strength levels against Stockfish: plays our engine at each Elo limit (UCI_LimitStrength +
// UCI_Elo) or skill level (Skill Level) against Stockfish 15.1 at a UCI_Elo, through the
// match library (match/runner.ts), and prints the table of measured ratings beside their labels.
//
//   npx tsx bench/strength.ts [--elo 1400,1700,2000,2300 | --level 0:1350,10:1800]
//       [--games 40] [--tc 10+0.1] [--sf PATH] [--concurrency N] [--seed N] [--out DIR]
//       [--ours FILE]   (the engine's script: build/cli.js, or a bench/snapshot.ts run.mjs)
//
// --elo E: ours at UCI_Elo E against Stockfish at E (at 1350, its lowest, for E below it);
// --level L:S: ours at Skill Level L against Stockfish at UCI_Elo S (to map levels to Elo).
// A measured rating is Stockfish's UCI_Elo plus the match's Elo difference; a label passes
// when it lies within 150 Elo of the measurement. PGN and logs go to --out (data/strength).

import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Core } from "../bindings/core.js";
import { parseEngineSpec, positiveInt } from "../match/args.js";
import { parseTimeControl } from "../match/clock.js";
import { loadOpenings } from "../match/openings.js";
import { Match } from "../match/runner.js";
import { findExecutable } from "../match/uci-process.js";

const SF_ELO_MIN = 1350;
const SF_ELO_MAX = 2850;
const TOLERANCE = 150;

interface Row {
  label: string;
  ours: string;
  sfElo: number;
  labelElo: number | null;
}

const { values } = parseArgs({
  options: {
    elo: { type: "string" },
    level: { type: "string" },
    games: { type: "string", default: "40" },
    tc: { type: "string", default: "10+0.1" },
    sf: { type: "string", default: "stockfish" },
    concurrency: { type: "string", default: "1" },
    seed: { type: "string", default: "1" },
    out: { type: "string", default: "data/strength" },
    openings: { type: "string", default: "bench/data/openings-random6.epd" },
    ours: { type: "string", default: "build/cli.js" },
  },
});

function rows(): Row[] {
  if (values.level) {
    return values.level.split(",").map((p) => {
      const [l, s] = p.split(":").map(Number);
      if (!Number.isInteger(l) || l < 0 || l > 20 || !Number.isInteger(s)) throw new Error(`--level: bad pair ${p} (LEVEL:SF_ELO)`);
      return { label: `level ${l}`, ours: `option.Skill Level=${l}`, sfElo: clampSf(s), labelElo: null };
    });
  }
  return (values.elo ?? "1400,1700,2000,2300").split(",").map((e) => {
    const elo = Number(e);
    if (!Number.isInteger(elo)) throw new Error(`--elo: bad value ${e}`);
    return { label: `Elo ${elo}`, ours: `option.UCI_LimitStrength=true,option.UCI_Elo=${elo}`, sfElo: clampSf(elo), labelElo: elo };
  });
}

function clampSf(elo: number): number {
  return Math.min(Math.max(elo, SF_ELO_MIN), SF_ELO_MAX);
}

/** An engine of a match spec, its command looked up on the PATH and in /usr/games. */
function engine(spec: string) {
  const config = parseEngineSpec(spec, "option.Hash=16");
  config.command = findExecutable(config.command) ?? config.command;
  return config;
}

/** Plays one match; returns its score and Elo difference with the error margin. */
async function play(row: Row, index: number): Promise<{ wins: number; losses: number; draws: number; elo: number; error: number }> {
  const tag = row.label.replace(/\s+/g, "");
  const name = join(values.out!, `${tag}-sf${row.sfElo}`);
  writeFileSync(`${name}.log`, "");
  const match = new Match({
    engines: [
      engine(`cmd=node,args=${values.ours},name=wasmchess-${tag},${row.ours}`),
      engine(`cmd=${values.sf},name=sf${row.sfElo},option.UCI_LimitStrength=true,option.UCI_Elo=${row.sfElo}`),
    ],
    openings: loadOpenings(await Core.create(), values.openings, positiveInt(values.seed, "--seed")! + index),
    games: positiveInt(values.games, "--games")!,
    concurrency: Math.max(1, positiveInt(values.concurrency, "--concurrency")!),
    settings: { limits: parseTimeControl(values.tc!), marginMs: 100, stopGraceMs: 1000, replyTimeoutMs: 30_000, adjudication: {} },
    pgn: { path: `${name}.pgn`, event: "WasmChess match", site: "?", moveComments: false },
    handshakeMs: 30_000,
    log: (line) => appendFileSync(`${name}.log`, line + "\n"),
  });
  const { tri, elo } = await match.run();
  return { ...tri, elo: elo.elo, error: elo.margin };
}

mkdirSync(values.out!, { recursive: true });
console.log(`Strength against Stockfish (${values.sf}) at UCI_Elo, ${values.tc}, ${values.games} games each, Hash 16, openings ${values.openings}`);
console.log("| ours | Stockfish UCI_Elo | W-D-L | score | measured Elo | label within 150 |");
console.log("| --- | ---: | :---: | ---: | ---: | :---: |");
// The engines (build/cli.js or a snapshot) run the classical build unless told otherwise.
process.env.WASMCHESS_BUILD ??= "classical";
for (const [i, row] of rows().entries()) {
  const m = await play(row, i);
  const n = m.wins + m.losses + m.draws;
  const measured = row.sfElo + m.elo;
  const pass = row.labelElo === null ? "" : Math.abs(measured - row.labelElo) <= TOLERANCE ? "yes" : "no";
  const fmt = Number.isFinite(measured) ? `${Math.round(measured)} ± ${Number.isFinite(m.error) ? Math.round(m.error) : "inf"}` : `${m.elo > 0 ? "above" : "below"} (no draws or losses)`;
  console.log(`| ${row.label} | ${row.sfElo} | ${m.wins}-${m.draws}-${m.losses} | ${((m.wins + m.draws / 2) / n * 100).toFixed(1)}% | ${fmt} | ${pass} |`);
}
