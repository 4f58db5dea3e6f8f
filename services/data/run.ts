// Self-play data runs on the service: the coordinator's side of the data job kind. A run is
// an engine (by hash), self-play settings, a number of positions and a chunk size; its games
// are numbered from 0 and played in chunks of chunkGames by the workers of the service's code
// signature. The service writes the chunks in order into <data dir>/<run>/ in the format
// `npm run datagen` writes (positions.bin, datagen.json, engine.wasm), so the trainer reads a
// service run as it reads any data, and the records are those datagen writes for the same
// seed, engine and settings. A chunk's result is stored once in Redis (HSETNX) and removed
// only after it is written and the progress file says so: a worker killed mid-chunk, a chunk
// played twice, or the service or Redis restarted neither lose nor repeat a game.

import { closeSync, copyFileSync, existsSync, ftruncateSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { Job, Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { DatagenProgress, SelfPlaySettings } from "../../learn/selfplay.js";
import { RESULT_BLACK_WIN, RESULT_WHITE_WIN } from "../../learn/records.js";
import { ENGINE_HASH, engineFile, hasEngine, sha256 } from "../engines.js";
import { RUN_ID } from "../perft/batch.js";
import { WORKERS_KEY, flagWorker, liveWorkers } from "../registry.js";
import { createRun, newRunId, readRun, runsIn, serviceRunKeys, setRunState, setRunStatus } from "../runs.js";
import { CHUNK_RECORD_VERSION, SettingsInput, checkResult, completeSettings, parseChunk } from "./chunk.js";
import type { DataChunk } from "./chunk.js";

/** The queue of one code signature (BullMQ queue names cannot hold ':'). */
export function dataQueueName(code: string): string {
  return `data-${code.replace(/[^A-Za-z0-9._-]/g, "_")}`;
}

/** A chunk's job id: the same chunk queued twice is one job. */
export function chunkJobId(run: string, chunk: number): string {
  return `${run}.c${chunk}`;
}

/** Games per chunk unless a run says: some seconds of play at the default 5,000 nodes per move,
 *  against some milliseconds of queue per chunk. */
export const DEFAULT_CHUNK_GAMES = 16;
/** Tries of a chunk whose processor fails before the run fails with its reason. */
export const MAX_CHUNK_RETRIES = 5;
const CHUNK_ATTEMPTS = 2;
/** How often queued chunks are topped up and failed ones retried. */
const CHECK_MS = 2000;

export const DataRunRequest = z
  .object({
    kind: z.literal("data"),
    /** The run's id (default: a new one). */
    id: z.string().regex(RUN_ID).optional(),
    /** The SHA-256 of an engine the service holds (POST /api/engines). */
    engine: z.string().regex(ENGINE_HASH),
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

/** The progress file: datagen's, with the run's chunks. */
type Progress = DatagenProgress & { run: string; chunkGames: number; nextChunk: number; nodes: number };

export interface DataRunStatus {
  positions: number;
  target: number;
  games: number;
  chunks: number;
  results: Progress["results"];
  endings: Progress["endings"];
  nodes: number;
  seconds: number;
  /** Over the last minute. */
  positionsPerSecond: number;
  dir: string;
}

/** An error in what a client asked, with its HTTP status. */
export class RequestError extends Error {
  constructor(message: string, readonly status: 400 | 404 | 409 = 400) {
    super(message);
  }
}

interface ActiveRun {
  id: string;
  spec: DataRunSpec;
  dir: string;
  fd: number;
  progress: Progress;
  lastCheck: number;
  lastStatus: number;
  /** Positions written at times (ms), for the rate. */
  samples: [number, number][];
  /** Seconds counted before this activation, and when it began. */
  baseSeconds: number;
  since: number;
}

export class DataRuns {
  private readonly active = new Map<string, ActiveRun>();
  /** The API's changes and the coordinator's rounds take turns (a run is never closed in the
   *  middle of a round that writes it). */
  private turn: Promise<unknown> = Promise.resolve();

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.turn.then(fn, fn);
    this.turn = next.catch(() => undefined);
    return next;
  }

  constructor(
    private readonly redis: Redis,
    private readonly queue: Queue,
    private readonly dataDir: string,
    private readonly code: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Takes up the runs that were running when the service stopped. */
  async start(): Promise<void> {
    for (const id of await runsIn(this.redis, "running")) {
      const run = await readRun(this.redis, id);
      if (run?.kind !== "data") continue;
      try {
        await this.activate(id);
        this.log(`data run ${id}: continued at game ${this.active.get(id)!.progress.nextGame}`);
      } catch (err) {
        await this.fail(id, err instanceof Error ? err.message : String(err));
      }
    }
  }

  /** Makes and starts a run; returns its id. */
  submit(request: DataRunRequest): Promise<string> {
    return this.exclusive(() => this.make(request));
  }

  private async make(request: DataRunRequest): Promise<string> {
    const id = request.id ?? newRunId("data");
    if (!(await hasEngine(this.redis, request.engine))) throw new RequestError(`engine: ${request.engine} is not held by the service (POST /api/engines first)`);
    const spec: DataRunSpec = {
      engine: request.engine,
      positions: request.positions,
      chunkGames: request.chunkGames ?? DEFAULT_CHUNK_GAMES,
      settings: completeSettings(request.settings ?? {}),
      code: this.code,
    };
    if (!(await createRun(this.redis, id, "data", spec))) throw new RequestError(`id: run ${id} exists`, 409);
    await this.activate(id);
    this.log(`data run ${id}: ${spec.positions} positions, ${spec.settings.nodes} nodes per move, seed ${spec.settings.seed}, ${spec.chunkGames} games a chunk, engine ${spec.engine.slice(0, 16)}`);
    return id;
  }

  /** Stops a running run: its queued chunks go, the chunks in hand are kept when they come
   *  back; resume() continues it. */
  stop(id: string): Promise<void> {
    return this.exclusive(() => this.stopNow(id));
  }

  private async stopNow(id: string): Promise<void> {
    const run = await this.lookUp(id);
    if (run.state !== "running") throw new RequestError(`run ${id} is ${run.state}, not running`, 409);
    await setRunState(this.redis, id, "stopped");
    this.deactivate(id);
    await this.removeQueued(id);
    this.log(`data run ${id}: stopped`);
  }

  resume(id: string): Promise<void> {
    return this.exclusive(() => this.resumeNow(id));
  }

  private async resumeNow(id: string): Promise<void> {
    const run = await this.lookUp(id);
    if (run.state !== "stopped") throw new RequestError(`run ${id} is ${run.state}, not stopped`, 409);
    await setRunState(this.redis, id, "running");
    try {
      await this.activate(id);
    } catch (err) {
      await this.fail(id, err instanceof Error ? err.message : String(err));
      throw err;
    }
    this.log(`data run ${id}: resumed at game ${this.active.get(id)!.progress.nextGame}`);
  }

  /** The file of a run's records. */
  async positionsFile(id: string): Promise<string> {
    await this.lookUp(id);
    const path = join(this.dataDir, id, "positions.bin");
    if (!existsSync(path)) throw new RequestError(`run ${id} has no records yet`, 404);
    return path;
  }

  /** One round of the coordinator's work: results in, chunks written, the queue topped up. */
  tick(): Promise<void> {
    return this.exclusive(() => this.round());
  }

  private async round(): Promise<void> {
    await this.recordFinished();
    const now = Date.now();
    for (const run of [...this.active.values()]) {
      try {
        if (await this.writeReady(run)) continue;
        if (now - run.lastCheck >= CHECK_MS) {
          run.lastCheck = now;
          await this.retryFailed(run);
          if (!this.active.has(run.id)) continue;
          await this.topUp(run);
        }
        if (now - run.lastStatus >= 1000) await this.publish(run);
      } catch (err) {
        this.log(`data run ${run.id}: ${err instanceof Error ? err.message : err}`);
      }
    }
  }

  close(): void {
    for (const id of [...this.active.keys()]) this.deactivate(id);
  }

  private async lookUp(id: string) {
    const run = RUN_ID.test(id) ? await readRun<DataRunSpec>(this.redis, id) : undefined;
    if (!run || run.kind !== "data") throw new RequestError(`no data run ${JSON.stringify(id)}`, 404);
    return run;
  }

  /** Opens a run's files and takes it into the coordinator's rounds. */
  private async activate(id: string): Promise<void> {
    if (this.active.has(id)) return;
    const { spec } = await this.lookUp(id);
    if (spec.code !== this.code) throw new Error(`run ${id} is played by code ${spec.code}, this service runs ${this.code}: start a new run`);
    const dir = join(this.dataDir, id);
    mkdirSync(dir, { recursive: true });
    const enginePath = join(dir, "engine.wasm");
    if (!existsSync(enginePath)) copyFileSync(await engineFile(this.redis, spec.engine), enginePath);
    if (sha256(readFileSync(enginePath)) !== spec.engine) throw new Error(`${enginePath} is not engine ${spec.engine}`);
    const progressPath = join(dir, "datagen.json");
    let progress: Progress = {
      version: 1, engine: spec.engine.slice(0, 16), settings: spec.settings, nextGame: 0, bytes: 0, positions: 0, games: 0,
      results: { white: 0, draw: 0, black: 0 }, endings: {}, seconds: 0, run: id, chunkGames: spec.chunkGames, nextChunk: 0, nodes: 0,
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
    this.active.set(id, { id, spec, dir, fd, progress, lastCheck: -Infinity, lastStatus: -Infinity, samples: [[now, progress.positions]], baseSeconds: progress.seconds, since: now });
  }

  private deactivate(id: string): void {
    const run = this.active.get(id);
    if (!run) return;
    closeSync(run.fd);
    this.active.delete(id);
  }

  private async fail(id: string, reason: string): Promise<void> {
    this.deactivate(id);
    await setRunState(this.redis, id, "failed", reason);
    await this.removeQueued(id);
    this.log(`data run ${id} failed: ${reason}`);
  }

  /** Moves the results of finished chunks from the queue into their runs' results, once each,
   *  and removes their jobs. A result that does not add up is refused, its worker flagged, and
   *  its chunk queued again. */
  private async recordFinished(): Promise<void> {
    for (const job of await this.queue.getCompleted(0, 199)) {
      let chunk: DataChunk;
      try {
        chunk = parseChunk(job.data);
      } catch {
        await job.remove();
        continue;
      }
      const state = await this.redis.hget(serviceRunKeys(chunk.run).meta, "state");
      if (state === "running" || state === "stopped") {
        try {
          const { result } = checkResult(job.returnvalue, chunk);
          await this.redis.hsetnx(serviceRunKeys(chunk.run).results, String(chunk.chunk), JSON.stringify(result));
        } catch (err) {
          await this.flag(job, err instanceof Error ? err.message : String(err));
        }
      }
      await job.remove();
    }
  }

  /** Flags the worker of a refused result. */
  private async flag(job: Job, reason: string): Promise<void> {
    const r = job.returnvalue as { worker?: unknown } | null;
    const worker = typeof r?.worker === "string" ? r.worker.slice(0, 200) : (job.processedBy ?? "unknown");
    await flagWorker(this.redis, worker, job.id ?? "?", reason);
    this.log(`chunk ${job.id}: result of worker ${worker} refused (${reason}); queued again`);
  }

  /** Writes the run's next chunks while their results are in; true when the run is over. */
  private async writeReady(run: ActiveRun): Promise<boolean> {
    const { results } = serviceRunKeys(run.id);
    const p = run.progress;
    for (;;) {
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
      p.games += g;
      p.nextGame += g;
      p.nextChunk++;
      p.seconds = run.baseSeconds + (Date.now() - run.since) / 1000;
      this.saveProgress(run);
      await this.redis.hdel(results, field);
      if (p.positions >= run.spec.positions) {
        await this.finish(run);
        return true;
      }
    }
  }

  private saveProgress(run: ActiveRun): void {
    const path = join(run.dir, "datagen.json");
    writeFileSync(path + ".tmp", JSON.stringify(run.progress, null, 1));
    renameSync(path + ".tmp", path);
  }

  private async finish(run: ActiveRun): Promise<void> {
    await this.publish(run);
    this.deactivate(run.id);
    await setRunState(this.redis, run.id, "done");
    await this.removeQueued(run.id);
    const { results, retries } = serviceRunKeys(run.id);
    await this.redis.del(results, retries);
    this.log(`data run ${run.id}: done, ${run.progress.positions} positions in ${run.progress.games} games (${join(run.dir, "positions.bin")})`);
  }

  /** Removes a run's chunks that wait on the queue (not those in a worker's hands). */
  private async removeQueued(id: string): Promise<void> {
    const prefix = `${id}.c`;
    for (const job of await this.queue.getJobs(["waiting", "delayed", "prioritized", "failed"])) {
      if (job?.id?.startsWith(prefix)) await job.remove().catch(() => undefined);
    }
  }

  /** Queues the run's next chunks: about two per live core ahead of the file, and not many
   *  past the chunk that should reach the positions asked for. A chunk with a result or a
   *  job is not queued twice (the job id is the chunk's). */
  private async topUp(run: ActiveRun): Promise<void> {
    const p = run.progress;
    const g = run.spec.chunkGames;
    const perGame = p.games > 0 ? Math.max(p.positions / p.games, 1) : 50;
    const needed = Math.ceil(Math.max(0, run.spec.positions - p.positions) / perGame / g) + 1;
    const cores = liveWorkers(await this.redis.hgetall(WORKERS_KEY))
      .filter((w) => w.kinds.includes("data") && w.code === this.code)
      .reduce((a, w) => a + w.cores, 0);
    const ahead = Math.min(needed, Math.max(2, 2 * cores));
    const have = new Set(await this.redis.hkeys(serviceRunKeys(run.id).results));
    const jobs = [];
    for (let c = p.nextChunk; c < p.nextChunk + ahead; c++) {
      if (have.has(String(c))) continue;
      const data: DataChunk = {
        v: CHUNK_RECORD_VERSION, code: run.spec.code, run: run.id, chunk: c, firstGame: c * g, games: g, engine: run.spec.engine, settings: run.spec.settings,
      };
      jobs.push({ name: "data-chunk", data, opts: { jobId: chunkJobId(run.id, c), attempts: CHUNK_ATTEMPTS, removeOnComplete: false, removeOnFail: false } });
    }
    if (jobs.length) await this.queue.addBulk(jobs);
  }

  /** Puts the run's failed chunks back on the queue; fails the run when one has failed
   *  MAX_CHUNK_RETRIES times (a chunk that fails every time is a bug to see). */
  private async retryFailed(run: ActiveRun): Promise<void> {
    const prefix = `${run.id}.c`;
    for (const job of await this.queue.getFailed(0, 199)) {
      if (!job.id?.startsWith(prefix)) continue;
      const tries = await this.redis.hincrby(serviceRunKeys(run.id).retries, job.id, 1);
      if (tries > MAX_CHUNK_RETRIES) {
        await this.fail(run.id, `chunk ${job.id} failed ${tries} times: ${job.failedReason}`);
        return;
      }
      this.log(`chunk ${job.id} failed (${job.failedReason}); queued again (${tries}/${MAX_CHUNK_RETRIES})`);
      await job.retry("failed");
    }
  }

  /** Writes the run's status for the API. */
  private async publish(run: ActiveRun): Promise<void> {
    const now = Date.now();
    const p = run.progress;
    run.lastStatus = now;
    run.samples.push([now, p.positions]);
    while (run.samples.length > 2 && now - run.samples[0][0] > 60_000) run.samples.shift();
    const [t0, n0] = run.samples[0];
    const status: DataRunStatus = {
      positions: p.positions, target: run.spec.positions, games: p.games, chunks: p.nextChunk, results: p.results, endings: p.endings, nodes: p.nodes,
      seconds: Number((run.baseSeconds + (now - run.since) / 1000).toFixed(1)),
      positionsPerSecond: now > t0 ? Number(((p.positions - n0) / ((now - t0) / 1000)).toFixed(1)) : 0,
      dir: run.dir,
    };
    await setRunStatus(this.redis, run.id, status);
  }
}
