// The match runner: plays one UCI engine against another (or two builds of ours) and reports
// the score, the Elo difference with its error bar, LOS, and optionally an SPRT.
//
//   npm run bench:match -- --engine SPEC --engine SPEC [options]
//   npx tsx bench/match.ts --engine cmd=stockfish,name=sf1350,option.UCI_LimitStrength=true,option.UCI_Elo=1350 \
//       --engine cmd=toga2,option.OwnBook=false --games 10 --tc 5+0.05 --pgn out.pgn
//
// Engines (exactly two; engine 1 is the one whose score is reported):
//   --engine SPEC       comma-separated key=value: cmd=PATH (required; found on PATH or in
//                       /usr/games), name=NAME, args="A B" (split on spaces), arg=A (one
//                       argument, repeatable), dir=DIR, option.NAME=VALUE (setoption,
//                       repeatable), tc=BASE+INC (this engine's own time control, for time
//                       odds: e.g. tc=1+0.01 against --tc 10+0.1). A backslash escapes a comma.
//   --each SPEC         keys applied to both engines (e.g. option.Hash=16,option.Threads=1)
// Games:
//   --games N           total games, played in pairs (same opening, colours swapped);
//                       default: two per opening
//   --openings FILE     FEN or EPD lines (EPD opcodes ignored except hmvc, fmvn, id);
//                       default: the 59 built-in ECO lines
//   --order sequential|random   opening order (random is seeded by --seed N, default 1)
//   --concurrency N     games at once (default 1); each runs its own engine processes
// Limits (one of; default --tc 10+0.1):
//   --tc BASE+INC       seconds, e.g. 10+0.1, or MOVES/BASE+INC, e.g. 40/60
//   --movetime MS       fixed time per move
//   --nodes N           fixed nodes per move
//   --depth N           fixed depth per move
//   --margin MS         time beyond the clock (or movetime) before a time loss (default 100)
//   --stop-grace MS     after the allowed time, how long to wait for bestmove after `stop`
//                       before the engine counts as not replying (default 1000)
//   --timeout MS        handshake timeout, and how long a nodes/depth search may take
//                       before it counts as no reply (default 30000)
// Adjudication (scores are parsed from the engines' `info ... score cp|mate` lines):
//   --resign movecount=M,score=CP         a side loses after M moves at <= -CP while its
//                                         opponent reports >= +CP
//   --draw movenumber=K,movecount=M,score=CP   drawn from move K when both report |score| <= CP
//                                         for M moves each
//   --maxmoves N        drawn after N full moves
//   --tb PATH           adjudicate by the Syzygy tables in PATH (':'-separated directories)
//                       once at most --tbpieces N pieces are left (default: the largest table's)
//   --sprt elo0=E0,elo1=E1[,alpha=A,beta=B]   stop when the GSPRT (logistic Elo, per-game
//                                         scores) accepts H0 or H1
// Output:
//   --pgn FILE          write the games (overwrites FILE), --pgn-comments adds score/depth/time
//                       and the engine's nodes and tbhits to each move, and the summary then
//                       gives each engine's nodes per second and tbhits over all the PGN's games
//   --resume            go on with the match whose games are in --pgn FILE (the same options
//                       otherwise): its games count and are not played again, new games are
//                       appended; a match stopped part-way (Ctrl-C, a reboot) loses only the
//                       games it was playing
//   --event NAME        the PGN Event tag (default "WasmChess match"), --site NAME (default "?")
//
// Every move is checked with our own move generator. Illegal moves, time losses, crashes and
// silent engines lose the game with the reason in the PGN; a crashed engine is restarted.

import { parseArgs } from "node:util";
import { Core } from "../bindings/core.js";
import { limitsFrom, parseDraw, parseEngineSpec, parseResign, parseSprt, positiveInt } from "../match/args.js";
import { loadOpenings } from "../match/openings.js";
import { speedLines, summaryLines } from "../match/report.js";
import { readCommentedGames } from "../match/commented.js";
import { Match } from "../match/runner.js";
import { readPlayedGames } from "../match/resume.js";
import { usage } from "./cli-usage.js";
import { findExecutable } from "../match/uci-process.js";

/** --tbpieces, or the largest table's pieces of the --tb path (checked to hold tables). */
function tablebasePieces(core: Core, path: string, given: string | undefined): number {
  const load = core.setSyzygyPath(path);
  if (load.files === 0) throw new Error(`--tb ${path}: no tablebase files there${load.errors.length ? ` (${load.errors[0]})` : ""}`);
  const pieces = given === undefined ? load.maxPieces : positiveInt(given, "--tbpieces")!;
  core.setSyzygyPath("");
  return pieces;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      engine: { type: "string", multiple: true },
      each: { type: "string", default: "" },
      games: { type: "string" },
      openings: { type: "string" },
      order: { type: "string", default: "sequential" },
      seed: { type: "string", default: "1" },
      concurrency: { type: "string", default: "1" },
      tc: { type: "string" },
      movetime: { type: "string" },
      nodes: { type: "string" },
      depth: { type: "string" },
      margin: { type: "string", default: "100" },
      "stop-grace": { type: "string", default: "1000" },
      timeout: { type: "string", default: "30000" },
      resign: { type: "string" },
      tb: { type: "string" },
      tbpieces: { type: "string" },
      draw: { type: "string" },
      maxmoves: { type: "string" },
      sprt: { type: "string" },
      pgn: { type: "string" },
      "pgn-comments": { type: "boolean", default: false },
      resume: { type: "boolean", default: false },
      event: { type: "string", default: "WasmChess match" },
      site: { type: "string", default: "?" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(usage(import.meta.url));
    return 0;
  }
  const specs = values.engine ?? [];
  if (specs.length !== 2) throw new Error(`give exactly two --engine options (got ${specs.length}); see --help`);
  const engines = specs.map((s) => {
    const config = parseEngineSpec(s, values.each);
    config.command = findExecutable(config.command) ?? config.command;
    return config;
  }) as [ReturnType<typeof parseEngineSpec>, ReturnType<typeof parseEngineSpec>];

  const core = await Core.create();
  if (values.order !== "sequential" && values.order !== "random") throw new Error("--order is sequential or random");
  const openings = loadOpenings(core, values.openings, values.order === "random" ? positiveInt(values.seed, "--seed")! : undefined);

  if (values.resume && !values.pgn) throw new Error("--resume needs --pgn FILE, the PGN of the match to go on with");
  const resume = values.resume ? await readPlayedGames(values.pgn!) : undefined;
  const timeout = positiveInt(values.timeout, "--timeout")!;
  const match = new Match({
    engines,
    openings,
    games: positiveInt(values.games, "--games") ?? 2 * openings.length,
    concurrency: Math.max(1, positiveInt(values.concurrency, "--concurrency")!),
    settings: {
      limits: limitsFrom({ tc: values.tc, movetime: values.movetime, nodes: values.nodes, depth: values.depth }),
      marginMs: positiveInt(values.margin, "--margin")!,
      stopGraceMs: positiveInt(values["stop-grace"], "--stop-grace")!,
      replyTimeoutMs: timeout,
      adjudication: {
        resign: values.resign ? parseResign(values.resign) : undefined,
        draw: values.draw ? parseDraw(values.draw) : undefined,
        maxMoves: positiveInt(values.maxmoves, "--maxmoves"),
        tablebase: values.tb ? { path: values.tb, pieces: tablebasePieces(core, values.tb, values.tbpieces) } : undefined,
      },
    },
    sprt: values.sprt ? parseSprt(values.sprt) : undefined,
    pgn: values.pgn ? { path: values.pgn, event: values.event, site: values.site, moveComments: values["pgn-comments"] } : undefined,
    resume,
    handshakeMs: Math.min(timeout, 30_000),
    log: (line) => console.log(line),
  });
  const onSignal = () => {
    console.log("Interrupted: stopping the match");
    match.stop();
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const summary = await match.run();
  console.log("");
  for (const line of summaryLines(summary)) console.log(line);
  if (values.pgn && values["pgn-comments"]) {
    const games = [];
    for await (const g of readCommentedGames([values.pgn])) games.push(g);
    for (const line of speedLines(games, summary.names)) console.log(`Speed: ${line}`);
  }
  if (values.pgn) console.log(`PGN: ${values.pgn}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`match: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
