// What the services share in Redis besides their queues: the prefix of every key, and the
// registry of workers (each worker writes its record with a heartbeat; a coordinator and the
// service's API read it to say who is online, with which kinds, cores and code), and the
// workers flagged for results that were refused.

import type { Redis } from "ioredis";
import { connectOrFail } from "./redis.js";

/** The prefix of every key the services write (BullMQ's queues included). */
export const KEY_PREFIX = "wasmchess";

/** The hash where workers register (field: worker name; value: JSON of WorkerRecord). */
export const WORKERS_KEY = `${KEY_PREFIX}:workers`;

/** How often a worker tells Redis it is alive; a worker silent for three of these is gone. */
export const HEARTBEAT_MS = 5000;

/** The job kinds a worker may take. */
export const JOB_KINDS = ["perft", "data", "match", "analysis"] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export interface WorkerRecord {
  name: string;
  kinds: JobKind[];
  /** The cores it gives: perft threads, or data chunks played at once. */
  cores: number;
  /** Its perft signature (perft/signature.ts) and code signature (code-signature.ts). */
  signature: string;
  code: string;
  version: string;
  /** Perft threads and table size. */
  threads: number;
  hashMb: number;
  host: string;
  pid: number;
  /** When it started, and its last heartbeat, ms since the epoch. */
  started: number;
  seen: number;
  /** Jobs finished since it started, by kind, and what it is doing now. */
  done: Partial<Record<JobKind, number>>;
  busy: string;
}

/** The live workers of a registry read with HGETALL (those heard from in three heartbeats). */
export function liveWorkers(registry: Record<string, string>, now = Date.now()): WorkerRecord[] {
  const out: WorkerRecord[] = [];
  for (const json of Object.values(registry)) {
    try {
      const w = JSON.parse(json) as WorkerRecord;
      if (typeof w.seen === "number" && now - w.seen < 3 * HEARTBEAT_MS) out.push(w);
    } catch {
      // a record that does not read is no worker
    }
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

const FLAGGED_KEY = `${KEY_PREFIX}:flagged`;
const FLAGS_KEY = `${KEY_PREFIX}:flags`;

/** Records a worker whose result was refused (impossible counts, a result of another job):
 *  a count by worker, and the last hundred reasons. */
export async function flagWorker(redis: Redis, worker: string, job: string, reason: string): Promise<void> {
  await redis.hincrby(FLAGGED_KEY, worker, 1);
  await redis.lpush(FLAGS_KEY, JSON.stringify({ time: new Date().toISOString(), worker, job, reason }));
  await redis.ltrim(FLAGS_KEY, 0, 99);
}

export async function readFlags(redis: Redis): Promise<{ flagged: Record<string, number>; recent: { time: string; worker: string; job: string; reason: string }[] }> {
  const counts = await redis.hgetall(FLAGGED_KEY);
  const recent = (await redis.lrange(FLAGS_KEY, 0, 99)).map((json) => JSON.parse(json) as { time: string; worker: string; job: string; reason: string });
  return { flagged: Object.fromEntries(Object.entries(counts).map(([w, n]) => [w, Number(n)])), recent };
}

/** The environment through which a worker gives its sandboxed processors their settings. */
export const WORKER_ENV = {
  name: "WASMCHESS_WORKER",
  redis: "WASMCHESS_WORKER_REDIS",
  threads: "WASMCHESS_PERFT_THREADS",
  hashMb: "WASMCHESS_PERFT_HASH_MB",
} as const;

/** In a sandboxed processor: ends this child when its worker is gone (killed with kill -9, or
 *  its machine's session ended). The IPC channel's 'disconnect' is not enough: BullMQ's child,
 *  its parent gone, fails the job in hand and goes round its uncaughtException handler, which
 *  sends the failure down the broken channel (EPIPE) and fails again, in microtasks that never
 *  let the event loop deliver 'disconnect' or a timer. So the child also looks for its
 *  re-parenting on every uncaught exception, every half second, and at `nextTurn()`. */
export function endWithWorker(): void {
  worker = process.ppid;
  process.on("disconnect", () => process.exit(1));
  process.prependListener("uncaughtException", exitIfOrphaned);
  setInterval(exitIfOrphaned, 500).unref();
}

let worker: number | undefined;

function exitIfOrphaned(): void {
  if (worker !== undefined && process.ppid !== worker) process.exit(1);
}

/** A turn of the event loop (timers and I/O run), for a processor between units of work;
 *  exits first if the worker is gone. */
export function nextTurn(): Promise<void> {
  exitIfOrphaned();
  return new Promise((resolve) => setImmediate(resolve));
}

let processorRedis: Promise<Redis> | undefined;

/** In a sandboxed processor: the worker's Redis (for the files its jobs name), connected once. */
export function workerRedis(): Promise<Redis> {
  const url = process.env[WORKER_ENV.redis];
  if (!url) throw new Error(`${WORKER_ENV.redis} is not set`);
  processorRedis ??= connectOrFail(url);
  return processorRedis;
}

/** In a sandboxed processor: throws unless the job was made for this worker's code. */
export function checkJobCode(what: string, jobCode: string, code: string): void {
  if (jobCode !== code) throw new Error(`${what} is for code ${jobCode}, this worker is ${code}`);
}
