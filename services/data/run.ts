// Self-play data runs on the service: the coordinator's side of the data job kind. A run is
// an engine (by hash), self-play settings, a number of positions and a chunk size; its games
// are numbered from 0 and played in chunks of chunkGames by the workers of the service's code
// signature. The service writes the chunks in order into <data dir>/<run>/ in the format
// `npm run datagen` writes (positions.bin, datagen.json, engine.wasm), so the trainer reads a
// service run as it reads any data, and the records are those datagen writes for the same
// seed, engine and settings. A chunk's result is stored once (run-coordinator.ts) and removed
// only after it is written and the progress file says so: a worker killed mid-chunk, a chunk
// played twice, or the service or Redis restarted neither lose nor repeat a game.

import { closeSync, copyFileSync, existsSync, ftruncateSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { DatagenProgress, SelfPlaySettings } from "../../learn/selfplay.js";
import { RESULT_BLACK_WIN, RESULT_WHITE_WIN } from "../../learn/records.js";
import { FILE_HASH, cachedFile, hasFile, sha256 } from "../files.js";
import { RUN_ID } from "../perft/batch.js";
import { RequestError, RunCoordinator } from "../run-coordinator.js";
import type { ActiveRun } from "../run-coordinator.js";
import { serviceRunKeys } from "../runs.js";
import { CHUNK_RECORD_VERSION, SettingsInput, checkResult, completeSettings, parseChunk } from "./chunk.js";
import type { ChunkResult, DataChunk } from "./chunk.js";

/** The queue of one code signature (BullMQ queue names cannot hold ':'). */
export function dataQueueName(code: string): string {
  return `data-${code.replace(/[^A-Za-z0-9._-]/g, "_")}`;
}

/** Games per chunk unless a run says: some seconds of play at the default 1,000 nodes per move
 *  (about 20 games a second on a core), against some milliseconds of queue per chunk. */
export const DEFAULT_CHUNK_GAMES = 64;

export const DataRunRequest = z
  .object({
    kind: z.literal("data"),
    /** The run's id (default: a new one). */
    id: z.string().regex(RUN_ID).optional(),
    /** The SHA-256 of an engine the service holds (POST /api/engines). */
    engine: z.string().regex(FILE_HASH),
    /** The run ends with the chunk in which it has this many positions. */
    positions: z.number().int().min(1).max(1e12),
    chunkGames: z.number().int().min(1).max(1000).optional(),
    settings: SettingsInput.optional(),
  })
  .strict();
export type DataRunRequest = z.infer<typeof DataRunRequest>;

export interface DataRunSpec {
  engine: string;
  positions: number;
  chunkGames: number;
  settings: SelfPlaySettings;
  /** The code signature whose workers play it. */
  code: string;
}

/** The furthest a data run's queued chunks go past the next one its file needs. */
const MAX_CHUNKS_AHEAD = 256;

/** The progress file: datagen's, with the run's chunks, their nodes and the seconds the
 *  workers spent on them. */
type Progress = DatagenProgress & { run: string; chunkGames: number; nextChunk: number; nodes: number; workSeconds: number };

export interface DataRunStatus {
  positions: number;
  target: number;
  games: number;
  chunks: number;
  results: Progress["results"];
  endings: Progress["endings"];
  nodes: number;
  seconds: number;
  /** The workers' seconds on the chunks written. */
  workSeconds: number;
  /** Over the last minute. */
  positionsPerSecond: number;
  dir: string;
}

interface ActiveDataRun extends ActiveRun<DataRunSpec> {
  dir: string;
  fd: number;
  progress: Progress;
  /** Positions written at times (ms), for the rate. */
  samples: [number, number][];
  /** Seconds counted before this activation, and when it began. */
  baseSeconds: number;
  since: number;
}

export class DataRuns extends RunCoordinator<DataRunSpec, ActiveDataRun, DataChunk> {
  constructor(redis: Redis, queue: Queue, private readonly dataDir: string, code: string, log: (line: string) => void) {
    super(redis, queue, "data", code, log);
  }

  /** A file of a run (positions.bin, its records; datagen.json, its progress). */
  async runFile(id: string, name: "positions.bin" | "datagen.json"): Promise<string> {
    await this.lookUp(id);
    const path = join(this.dataDir, id, name);
    if (!existsSync(path)) throw new RequestError(`run ${id} has no ${name} yet`, 404);
    return path;
  }

  protected parseTask(data: unknown): DataChunk {
    return parseChunk(data);
  }

  protected numberOf(chunk: DataChunk): number {
    return chunk.chunk;
  }

  protected checkResult(data: unknown, chunk: DataChunk): ChunkResult {
    return checkResult(data, chunk).result;
  }

  protected async makeSpec(request: DataRunRequest): Promise<DataRunSpec> {
    if (!(await hasFile(this.redis, "engine", request.engine))) throw new RequestError(`engine: ${request.engine} is not held by the service (POST /api/engines first)`);
    return {
      engine: request.engine,
      positions: request.positions,
      chunkGames: request.chunkGames ?? DEFAULT_CHUNK_GAMES,
      settings: completeSettings(request.settings ?? {}),
      code: this.code,
    };
  }

  protected describe(run: ActiveDataRun): string {
    const { spec, progress: p } = run;
    return `${p.positions} of ${spec.positions} positions, game ${p.nextGame}; ${spec.settings.nodes} nodes per move, seed ${spec.settings.seed}, ` +
      `${spec.chunkGames} games a chunk, engine ${spec.engine.slice(0, 16)}`;
  }

  /** Opens a run's files: its engine, its progress (datagen's file), its records cut to the
   *  length the progress gives. */
  protected async open(id: string, spec: DataRunSpec): Promise<ActiveDataRun> {
    if (spec.code !== this.code) throw new Error(`run ${id} is played by code ${spec.code}, this service runs ${this.code}: start a new run`);
    const dir = join(this.dataDir, id);
    mkdirSync(dir, { recursive: true });
    const enginePath = join(dir, "engine.wasm");
    if (!existsSync(enginePath)) copyFileSync(await cachedFile(this.redis, "engine", spec.engine), enginePath);
    if (sha256(readFileSync(enginePath)) !== spec.engine) throw new Error(`${enginePath} is not engine ${spec.engine}`);
    const progressPath = join(dir, "datagen.json");
    let progress: Progress = {
      version: 1, engine: spec.engine.slice(0, 16), settings: spec.settings, nextGame: 0, bytes: 0, positions: 0, games: 0,
      results: { white: 0, draw: 0, black: 0 }, endings: {}, seconds: 0, run: id, chunkGames: spec.chunkGames, nextChunk: 0, nodes: 0, workSeconds: 0,
    };
    if (existsSync(progressPath)) {
      const old = JSON.parse(readFileSync(progressPath, "utf8")) as Progress;
      if (old.run !== id || JSON.stringify(old.settings) !== JSON.stringify(spec.settings) || old.chunkGames !== spec.chunkGames) {
        throw new Error(`${progressPath} is not the progress of run ${id}`);
      }
      progress = old;
    }
    const dataPath = join(dir, "positions.bin");
    const fd = openSync(dataPath, existsSync(dataPath) ? "r+" : "w");
    ftruncateSync(fd, progress.bytes); // what was written past the last saved progress goes
    const { results } = serviceRunKeys(id);
    const stale = (await this.redis.hkeys(results)).filter((f) => Number(f) < progress.nextChunk);
    if (stale.length) await this.redis.hdel(results, ...stale);
    const now = Date.now();
    return { id, spec, dir, fd, progress, lastCheck: -Infinity, lastStatus: -Infinity, samples: [[now, progress.positions]], baseSeconds: progress.seconds, since: now };
  }

  protected close(run: ActiveDataRun): void {
    closeSync(run.fd);
  }

  /** Writes the run's next chunks while their results are in; true when it has its positions. */
  protected async advance(run: ActiveDataRun): Promise<boolean> {
    const { results } = serviceRunKeys(run.id);
    const p = run.progress;
    for (;;) {
      if (p.positions >= run.spec.positions) return true;
      const field = String(p.nextChunk);
      const json = await this.redis.hget(results, field);
      if (json === null) return false;
      const g = run.spec.chunkGames;
      const { result, records } = checkResult(JSON.parse(json), { run: run.id, chunk: p.nextChunk, firstGame: p.nextChunk * g, games: g, code: run.spec.code });
      writeSync(run.fd, records, 0, records.length, p.bytes);
      p.bytes += records.length;
      for (const game of result.games) {
        p.positions += game.positions;
        p.nodes += game.nodes;
        if (game.result === RESULT_WHITE_WIN) p.results.white++;
        else if (game.result === RESULT_BLACK_WIN) p.results.black++;
        else p.results.draw++;
        p.endings[game.ending] = (p.endings[game.ending] ?? 0) + 1;
      }
      p.workSeconds = Number(((p.workSeconds ?? 0) + result.seconds).toFixed(3));
      p.games += g;
      p.nextGame += g;
      p.nextChunk++;
      p.seconds = run.baseSeconds + (Date.now() - run.since) / 1000;
      this.saveProgress(run);
      await this.redis.hdel(results, field);
    }
  }

  private saveProgress(run: ActiveDataRun): void {
    const path = join(run.dir, "datagen.json");
    writeFileSync(path + ".tmp", JSON.stringify(run.progress, null, 1));
    renameSync(path + ".tmp", path);
  }

  /** Three chunks without a result per live core (a worker holds one more than its cores, so
   *  that one waits for a core beside those that play, and one more waits on the queue), from
   *  the next one the file needs, and not many past the chunk that should reach the positions
   *  asked for. Chunks done out of order wait in Redis until the file reaches them, so a chunk
   *  that waits in a worker behind a test's long task does not stop the other workers (up to
   *  MAX_CHUNKS_AHEAD of the file). */
  protected async wanted(run: ActiveDataRun, cores: number): Promise<number[]> {
    const p = run.progress;
    const perGame = p.games > 0 ? Math.max(p.positions / p.games, 1) : 50;
    const needed = Math.ceil(Math.max(0, run.spec.positions - p.positions) / perGame / run.spec.chunkGames) + 1;
    const done = new Set((await this.redis.hkeys(serviceRunKeys(run.id).results)).map(Number));
    const end = p.nextChunk + Math.min(needed + done.size, MAX_CHUNKS_AHEAD);
    const out: number[] = [];
    for (let c = p.nextChunk; c < end && out.length < Math.max(3, 3 * cores); c++) if (!done.has(c)) out.push(c);
    return out;
  }

  protected taskData(run: ActiveDataRun, chunk: number): DataChunk {
    const g = run.spec.chunkGames;
    return { v: CHUNK_RECORD_VERSION, code: run.spec.code, run: run.id, chunk, firstGame: chunk * g, games: g, engine: run.spec.engine, settings: run.spec.settings };
  }

  protected status(run: ActiveDataRun): DataRunStatus {
    const now = Date.now();
    const p = run.progress;
    run.samples.push([now, p.positions]);
    while (run.samples.length > 2 && now - run.samples[0][0] > 60_000) run.samples.shift();
    const [t0, n0] = run.samples[0];
    return {
      positions: p.positions, target: run.spec.positions, games: p.games, chunks: p.nextChunk, results: p.results, endings: p.endings, nodes: p.nodes,
      workSeconds: p.workSeconds,
      seconds: Number((run.baseSeconds + (now - run.since) / 1000).toFixed(1)),
      positionsPerSecond: now > t0 ? Number(((p.positions - n0) / ((now - t0) / 1000)).toFixed(1)) : 0,
      dir: run.dir,
    };
  }
}
