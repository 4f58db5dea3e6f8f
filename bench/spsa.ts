// SPSA tuning of the search's parameters (assembly/search-params.ts) by games: one engine,
// started twice per worker with --tune, plays game pairs against itself with the parameters
// perturbed up and down (match/spsa.ts, played by match/spsa-runner.ts). Resumable: the state
// file is rewritten after every pair, and the same command continues from it.
//
//   npx tsx bench/spsa.ts --engine "cmd=node,args=build/cli.js --tune" --state data/spsa.json \
//       --iterations 5000 --nodes 20000 --openings bench/data/openings-random6.epd
//
//   --engine SPEC       as in bench/match.ts; its args must include --tune
//   --each SPEC         more keys for the engine (e.g. option.Hash=16)
//   --state FILE        the run's state (JSON); resumed when it exists
//   --params A,B        the parameters to tune (default: those of the search the engine plays,
//                       alpha-beta's, or the MCTS ones with option.Search Mode=mcts; the time
//                       allocation's, "Time ...", only when named here, and only with --tc)
//   --iterations N      game pairs in the whole run (default 5000): the schedule's length
//   --r-end R           the step at the end relative to c_end² (default 0.002, fishtest's)
//   --seed N            perturbations and openings (default 1)
//   --concurrency N     pairs at once (default 1)
//   --openings FILE     FEN or EPD lines (default: the built-in ECO lines)
//   --tc, --movetime, --nodes, --depth   the limit per move, as in bench/match.ts (default
//                       --nodes 20000)
//   --resign, --draw, --maxmoves         adjudication, as in bench/match.ts
//
// Progress: a line per pair, and the values every 20 pairs and at the end, with the
// `option.NAME=VALUE` list that plays the tuned values.

import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { Core } from "../bindings/core.js";
import { limitsFrom, parseDraw, parseEngineSpec, parseResign, positiveInt } from "../match/args.js";
import { describeLimits } from "../match/clock.js";
import { GameSettings } from "../match/game.js";
import { loadOpenings } from "../match/openings.js";
import { SPSA_DEFAULTS, SpsaState, newState } from "../match/spsa.js";
import { SpsaRun } from "../match/spsa-runner.js";
import { usage } from "./cli-usage.js";
import { findExecutable } from "../match/uci-process.js";

function saveState(path: string, state: SpsaState): void {
  writeFileSync(path + ".tmp", JSON.stringify(state, null, 1) + "\n");
  renameSync(path + ".tmp", path);
}

/** "Name 74.2, Other 3.1" */
function valuesLine(state: SpsaState): string {
  return state.params.map((p) => `${p.name} ${p.value.toFixed(1)}`).join(", ");
}

/** The options that play the state's values (rounded). */
function optionsOf(state: SpsaState): string {
  return state.params.map((p) => `option.${p.name}=${Math.round(p.value)}`).join(",");
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      engine: { type: "string" },
      each: { type: "string", default: "" },
      state: { type: "string" },
      params: { type: "string" },
      iterations: { type: "string", default: "5000" },
      "r-end": { type: "string", default: String(SPSA_DEFAULTS.rEnd) },
      seed: { type: "string", default: "1" },
      concurrency: { type: "string", default: "1" },
      openings: { type: "string" },
      tc: { type: "string" },
      movetime: { type: "string" },
      nodes: { type: "string" },
      depth: { type: "string" },
      resign: { type: "string" },
      draw: { type: "string" },
      maxmoves: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(usage(import.meta.url));
    return 0;
  }
  if (!values.engine || !values.state) throw new Error("--engine and --state are required; see --help");
  const config = parseEngineSpec(values.engine, values.each);
  config.command = findExecutable(config.command) ?? config.command;
  const limitValues = { tc: values.tc, movetime: values.movetime, nodes: values.nodes, depth: values.depth };
  if (Object.values(limitValues).every((v) => v === undefined)) limitValues.nodes = "20000";
  const settings: GameSettings = {
    limits: limitsFrom(limitValues),
    marginMs: 100,
    stopGraceMs: 1000,
    replyTimeoutMs: 30_000,
    adjudication: {
      resign: values.resign ? parseResign(values.resign) : undefined,
      draw: values.draw ? parseDraw(values.draw) : undefined,
      maxMoves: positiveInt(values.maxmoves, "--maxmoves"),
    },
  };
  const core = await Core.create();
  const openings = loadOpenings(core, values.openings);
  const setup = `${values.engine} | ${values.each} | ${describeLimits(settings.limits)} | ${values.openings ?? "built-in openings"}`;

  let state: SpsaState;
  if (existsSync(values.state)) {
    state = JSON.parse(readFileSync(values.state, "utf8")) as SpsaState;
    if (state.setup !== setup) throw new Error(`${values.state} was made by another setup:\n  ${state.setup}\nnot\n  ${setup}`);
    console.log(`resuming ${values.state} after ${state.done} of ${state.settings.iterations} pairs`);
  } else {
    const all = core.searchParams();
    // By default the parameters of the search the engine plays: the Monte Carlo search's when
    // its options set `Search Mode=mcts`, otherwise alpha-beta's (which never reads the MCTS ones).
    // Never the time allocation's by default: they change nothing under a node limit.
    const mcts = /search mode=mcts/i.test(`${values.engine},${values.each}`);
    const wanted = values.params
      ? values.params.split(",").map((n) => n.trim())
      : all.filter((p) => p.name.startsWith("MCTS ") === mcts && !p.name.startsWith("Time ")).map((p) => p.name);
    const params = wanted.map((n) => {
      const p = all.find((q) => q.name.toLowerCase() === n.toLowerCase());
      if (!p) throw new Error(`--params: no search parameter ${JSON.stringify(n)} (${all.map((q) => q.name).join(", ")})`);
      return p;
    });
    if (params.some((p) => p.name.startsWith("Time ")) && !values.tc)
      throw new Error("--params: the time allocation's parameters are tuned only under a clock (--tc)");
    const iterations = positiveInt(values.iterations, "--iterations")!;
    const rEnd = Number(values["r-end"]);
    if (!(iterations >= 1) || !(rEnd > 0)) throw new Error("--iterations and --r-end must be positive");
    state = newState(params, {
      iterations, rEnd, A: Math.round(iterations / 10), alpha: SPSA_DEFAULTS.alpha, gamma: SPSA_DEFAULTS.gamma,
      seed: positiveInt(values.seed, "--seed")!,
    }, setup);
    saveState(values.state, state);
  }
  console.log(`SPSA over ${state.params.length} parameters, ${state.settings.iterations} pairs, ${describeLimits(settings.limits)}`);
  console.log(`values: ${valuesLine(state)}`);

  const run = new SpsaRun(state, {
    engine: config,
    openings,
    settings,
    concurrency: positiveInt(values.concurrency, "--concurrency")!,
    onPair: ({ k, points, opening }) => {
      saveState(values.state!, state);
      const g = state.games;
      console.log(`pair ${k}/${state.settings.iterations}: θ+ ${points} of 2 (${opening.name})  games +${g.wins} -${g.losses} =${g.draws}`);
      if (state.done % 20 === 0) console.log(`values after ${state.done}: ${valuesLine(state)}`);
    },
  });
  const stop = () => {
    console.log("Interrupted: the pairs in progress are dropped; run the same command to resume");
    run.stop();
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  await run.run();
  console.log("");
  console.log(`after ${state.done} of ${state.settings.iterations} pairs (θ+ against θ−: +${state.games.wins} -${state.games.losses} =${state.games.draws}):`);
  for (const p of state.params) console.log(`  ${p.name.padEnd(26)} ${String(p.start).padStart(6)} -> ${p.value.toFixed(2)}`);
  console.log(`options: ${optionsOf(state)}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`spsa: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
