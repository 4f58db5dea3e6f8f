// The game analysis processor: analyses one game. BullMQ runs this file sandboxed, in a child
// process of the worker (one per core the worker gives). Every position of the game's main
// line is searched to the task's nodes by the engine build (and network) it names, held by
// the service and fetched into the worker's cache; the table is cleared once per game, so a
// game's analysis is the same on any worker. The game comes back annotated (annotate.ts).

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import type { SandboxedJob } from "bullmq";
import { Core } from "../../bindings/core.js";
import { parsePgn } from "../../bindings/pgn-read.js";
import { codeSignature } from "../code-signature.js";
import { cachedFile } from "../files.js";
import { checkJobCode, endWithWorker, nextTurn, WORKER_ENV, workerRedis } from "../registry.js";
import { annotate } from "./annotate.js";
import type { PositionEval } from "./annotate.js";
import { ANALYSIS_RECORD_VERSION, parseAnalysisTask } from "./task.js";
import type { AnalysisResult } from "./task.js";

// The worker gone (killed), this child stops too.
endWithWorker();

const workerName = process.env[WORKER_ENV.name] ?? `pid-${process.pid}`;
const { version } = createRequire(import.meta.url)("#package.json") as { version: string };
/** Plies of the best line kept in a comment. */
const BEST_LINE_PLIES = 8;
let engine: { key: string; core: Core } | undefined;

/** The moves of a line from the current position, in SAN. */
function lineSan(core: Core, line: readonly string[]): string[] {
  return line.map((move, i) => core.afterMoves(line.slice(0, i), () => core.toSan(move)));
}

/** Analyses the task's game and returns it annotated. */
export default async function analyseGame(job: SandboxedJob): Promise<AnalysisResult> {
  const task = parseAnalysisTask(job.data);
  const code = codeSignature();
  checkJobCode(`game ${task.game} of ${task.run}`, task.code, code);
  const redis = await workerRedis();
  const key = `${task.engine}/${task.network ?? ""}/${task.hashMb}`;
  if (engine?.key !== key) {
    engine?.core.dispose();
    engine = undefined;
    const core = await Core.create({ hashMb: task.hashMb, wasmUrl: pathToFileURL(await cachedFile(redis, "engine", task.engine)) });
    if (task.network) core.loadNetwork(new Uint8Array(readFileSync(await cachedFile(redis, "network", task.network))));
    engine = { key, core };
  }
  const { core } = engine;
  const [game] = await parsePgn(task.pgn);
  if (!game || game.error) throw new Error(`game ${task.game} does not read: ${game?.error?.message ?? "no game"}`);
  const moves = game.moves().map((m) => m.uci);
  const start = performance.now();
  core.newGame();
  const evals: PositionEval[] = [];
  let nodes = 0;
  let positions = 0;
  for (let i = 0; i <= moves.length; i++) {
    core.setPosition(game.startFen, moves.slice(0, i), game.chess960);
    const status = core.status();
    if (status === "checkmate") {
      evals.push({ checkmated: true });
      continue;
    }
    if (status !== "ongoing") {
      evals.push({ cp: 0 }); // a draw by the rules
      continue;
    }
    const result = core.search({ nodes: task.nodes });
    nodes += result.nodes;
    positions++;
    const sign = core.sideToMove() === "w" ? 1 : -1;
    const e: PositionEval = "mate" in result.score ? { mate: sign * result.score.mate } : { cp: sign * result.score.cp };
    if (result.wdl) e.wdl = sign > 0 ? result.wdl : [result.wdl[2], result.wdl[1], result.wdl[0]];
    e.best = lineSan(core, result.pv.slice(0, BEST_LINE_PLIES));
    evals.push(e);
    await job.updateProgress(i + 1);
    await nextTurn();
  }
  const { marks, acpl } = annotate(game, evals);
  game.headers.set("Annotator", `wasmchess ${version}, ${task.nodes} nodes a position`);
  return {
    v: ANALYSIS_RECORD_VERSION,
    code,
    run: task.run,
    game: task.game,
    worker: workerName,
    seconds: Number(((performance.now() - start) / 1000).toFixed(3)),
    positions,
    nodes,
    marks,
    acpl,
    pgn: game.toPgn(),
  };
}
