// The test match processor: plays one task (some game pairs) of a test. BullMQ runs this file
// sandboxed, in a child process of the worker (one per core the worker gives). The engines
// are the worker's own command line running the engine builds the task names by hash
// (`wasmchess uci --wasm FILE`, with the network as EvalFile), fetched from the service into
// the worker's cache; the games are the match runner's (match/runner.ts), one at a time.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { SandboxedJob } from "bullmq";
import type { Redis } from "ioredis";
import { Core } from "../../bindings/core.js";
import { pgnTimeControl } from "../../match/clock.js";
import type { EngineConfig } from "../../match/engine.js";
import { builtinOpenings, parseOpenings, shuffled } from "../../match/openings.js";
import { formatPgn } from "../../match/pgn.js";
import { Match } from "../../match/runner.js";
import { codeSignature } from "../code-signature.js";
import { cachedFile } from "../files.js";
import { checkJobCode, endWithWorker, WORKER_ENV, workerRedis } from "../registry.js";
import { MATCH_RECORD_VERSION, parseTask } from "./task.js";
import type { EngineSpec, GameOutcome, MatchTask, TaskResult } from "./task.js";

// The worker gone (killed), this child stops too (its engines end with their input).
endWithWorker();

const workerName = process.env[WORKER_ENV.name] ?? `pid-${process.pid}`;
/** The worker's own command line, which runs the engine builds. */
const CLI = join(dirname(createRequire(import.meta.url).resolve("#package.json")), "build", "cli.js");

async function engineConfig(r: Redis, spec: EngineSpec): Promise<EngineConfig> {
  const options: [string, string][] = Object.entries(spec.options ?? {}).map(([k, v]) => [k, String(v)]);
  if (spec.network) options.push(["EvalFile", await cachedFile(r, "network", spec.network)]);
  return { name: spec.name, command: process.execPath, args: [CLI, "uci", "--wasm", await cachedFile(r, "engine", spec.engine)], options };
}

async function openingsOf(r: Redis, settings: MatchTask["settings"]) {
  const core = await Core.create({ build: "classical" });
  try {
    const list = settings.openings === "builtin"
      ? builtinOpenings(core)
      : parseOpenings(readFileSync(await cachedFile(r, "openings", settings.openings), "utf8"), core, `openings ${settings.openings.slice(0, 16)}`);
    return settings.order === "random" ? shuffled(list, settings.seed) : list;
  } finally {
    core.dispose();
  }
}

/** Plays the task's pairs and returns their outcomes and PGN. */
export default async function playTask(job: SandboxedJob): Promise<TaskResult> {
  const task = parseTask(job.data);
  const code = codeSignature();
  checkJobCode(`task ${job.id}`, task.code, code);
  const r = await workerRedis();
  const { settings } = task;
  const engines = (await Promise.all(settings.engines.map((e) => engineConfig(r, e)))) as [EngineConfig, EngineConfig];
  const start = performance.now();
  const firstGame = 2 * task.firstPair;
  const match = new Match({
    engines,
    openings: await openingsOf(r, settings),
    games: firstGame + 2 * task.pairs,
    firstGame,
    concurrency: 1,
    settings: { limits: settings.limits, marginMs: settings.marginMs, stopGraceMs: 1000, replyTimeoutMs: 30_000, adjudication: settings.adjudication },
    handshakeMs: 30_000,
    log: () => undefined,
  });
  await match.run();
  const played = [...match.results].sort((a, b) => a.index - b.index);
  if (played.length !== 2 * task.pairs) throw new Error(`task ${job.id}: ${played.length} of its ${2 * task.pairs} games were played`);
  const games: GameOutcome[] = played.map(({ index, record, engine1White, points }) => {
    const { result, kind, loser } = record.end;
    if (result === "*" || kind === "aborted") throw new Error(`task ${job.id}: game ${index} was aborted`);
    return { index, result, engine1White, points: points as GameOutcome["points"], kind, ...(loser === undefined ? {} : { loser }) };
  });
  const pgn = played
    .map(({ index, record }) => formatPgn(record, { event: `wasmchess test ${task.run}`, site: workerName, round: String(index + 1), timeControl: pgnTimeControl(settings.limits), moveComments: true }))
    .join("");
  return {
    v: MATCH_RECORD_VERSION,
    code,
    run: task.run,
    task: task.task,
    worker: workerName,
    seconds: Number(((performance.now() - start) / 1000).toFixed(3)),
    games,
    pgn,
  };
}
