// `wasmchess worker --redis URL`: the worker of the services' queues. It takes the job kinds it
// is given (--kinds; default all): perft batches from the queue of its perft signature,
// counted on --threads threads with a --hash MB table (perft/processor.ts), and self-play
// data chunks, test match tasks and games to analyse from the queues of its code signature
// (data/, matches/, analysis/processor.ts). --cores is what the worker gives over all its
// kinds: a job starts only when its cores are free (a perft batch takes them all, a test's
// task its engines' Threads), so a data run and a test at once never take more than the
// cores, and the kinds with work share them evenly in time; a job taken while they are busy
// waits, its lock renewed. Each kind runs in
// sandboxed child processes, so the worker's event loop only renews job locks and talks to
// Redis. It registers itself (kinds, cores,
// signatures, what it is doing) with a heartbeat. A worker killed mid-job loses nothing: the
// job's lock runs out and another worker (or this one, started again) takes it; the
// coordinator stores each job's result once.

import { hostname } from "node:os";
import { createRequire } from "node:module";
import { Worker } from "bullmq";
import type { Job, WorkerOptions } from "bullmq";
import { connect, connectOrFail } from "./redis.js";
import { HEARTBEAT_MS, JOB_KINDS, KEY_PREFIX, WORKERS_KEY, WORKER_ENV } from "./registry.js";
import type { JobKind, WorkerRecord } from "./registry.js";
import { parseResult, queueName } from "./perft/batch.js";
import { perftSignature } from "./perft/signature.js";
import { codeSignature } from "./code-signature.js";
import { dataQueueName } from "./data/run.js";
import { matchQueueName } from "./matches/run.js";
import { taskCores } from "./matches/task.js";
import { analysisQueueName } from "./analysis/run.js";

/** How fast a kind's use of the cores is forgotten (its half-life). */
const USE_HALF_LIFE_MS = 5 * 60_000;

/** The cores a worker gives, shared by its kinds' queues: a job takes `weight` of them before
 *  its processor starts and gives them back when it ends. When cores come free they go to the
 *  waiting job of the kind that has used the fewest core-seconds lately (halved every five
 *  minutes), so that kinds with work share the worker's time evenly however long their jobs
 *  are (a test's task of minutes does not starve a data run's chunks of seconds); the oldest
 *  job of that kind first, and nothing overtakes it while it waits for more cores than are
 *  free (a perft batch takes them all). */
class Cores {
  private free: number;
  private readonly waiting: { kind: string; weight: number; start: () => void }[] = [];
  private readonly use = new Map<string, { seconds: number; at: number }>();

  constructor(readonly total: number) {
    this.free = total;
  }

  async take(kind: string, weight: number): Promise<() => void> {
    weight = Math.min(weight, this.total);
    if (this.waiting.length === 0 && this.free >= weight) this.free -= weight;
    else {
      const started = new Promise<void>((start) => this.waiting.push({ kind, weight, start }));
      this.startWaiting();
      await started;
    }
    const began = Date.now();
    return () => {
      this.charge(kind, (weight * (Date.now() - began)) / 1000);
      this.free += weight;
      this.startWaiting();
    };
  }

  /** A kind's core-seconds, decayed to now. */
  private used(kind: string, now = Date.now()): number {
    const u = this.use.get(kind);
    return u ? u.seconds * 0.5 ** ((now - u.at) / USE_HALF_LIFE_MS) : 0;
  }

  private charge(kind: string, seconds: number): void {
    const now = Date.now();
    this.use.set(kind, { seconds: this.used(kind, now) + seconds, at: now });
  }

  private startWaiting(): void {
    while (this.waiting.length) {
      const now = Date.now();
      let next = 0;
      for (let i = 1; i < this.waiting.length; i++) {
        if (this.used(this.waiting[i].kind, now) < this.used(this.waiting[next].kind, now)) next = i;
      }
      const job = this.waiting[next];
      if (job.weight > this.free) return;
      this.waiting.splice(next, 1);
      this.free -= job.weight;
      job.start();
    }
  }
}

/** A BullMQ worker whose jobs start only with their cores taken (BullMQ's hook for what runs
 *  a job): the job is active, and its lock renewed, while it waits. */
class CoreWorker extends Worker {
  constructor(
    queue: string, processor: URL, options: WorkerOptions,
    private readonly cores: Cores, private readonly kind: JobKind, private readonly weight: (job: Job) => number,
    private readonly started: (job: Job) => void, private readonly ended: (job: Job, result?: unknown) => void,
  ) {
    super(queue, processor, options);
  }

  protected override async callProcessJob(job: Job, token: string, signal?: AbortSignal): Promise<unknown> {
    const release = await this.cores.take(this.kind, this.weight(job));
    this.started(job);
    let result: unknown;
    try {
      return (result = await super.callProcessJob(job, token, signal));
    } finally {
      this.ended(job, result);
      release();
    }
  }
}

/** What a worker's log says it does with a job of each kind. */
const DOING: Record<JobKind, string> = { perft: "counting batch", data: "playing chunk", match: "playing task", analysis: "analysing game" };

export interface WorkerCommand {
  redis: string;
  kinds: JobKind[];
  /** Cores it gives, over all its kinds: jobs at once (a perft batch takes them all); perft
   *  threads unless `threads` says otherwise. */
  cores: number;
  threads?: number;
  hashMb: number;
  name?: string;
  /** A job whose worker is silent this long goes back to the queue (BullMQ's lock duration
   *  and stalled-job check interval). */
  stallSeconds: number;
}

/** Parses --kinds: a comma-separated list of JOB_KINDS. */
export function parseKinds(text: string): JobKind[] {
  const kinds = text.split(",").map((k) => k.trim()).filter((k) => k !== "");
  const bad = kinds.find((k) => !(JOB_KINDS as readonly string[]).includes(k));
  if (bad !== undefined || kinds.length === 0) throw new Error(`--kinds is a comma-separated list of ${JOB_KINDS.join(", ")}, got ${JSON.stringify(text)}`);
  return [...new Set(kinds)] as JobKind[];
}

/** Runs the worker until SIGINT or SIGTERM (the jobs in hand are finished first; a second
 *  signal leaves them to another worker). It logs what it does, a line each, on stdout. */
export async function runWorker(cmd: WorkerCommand, log: (line: string) => void = (l) => process.stdout.write(l + "\n")): Promise<void> {
  const signature = perftSignature();
  const code = codeSignature();
  const { version } = createRequire(import.meta.url)("#package.json") as { version: string };
  const name = cmd.name ?? `${hostname()}-${process.pid}`;
  const threads = cmd.threads ?? cmd.cores;
  const redis = await connectOrFail(cmd.redis);
  redis.on("error", () => undefined); // reconnects; the BullMQ workers' handlers report
  const started = Date.now();
  const done: Partial<Record<JobKind, number>> = {};
  const active = new Map<string, string>(); // job id → kind, of the jobs in hand
  const record = (): WorkerRecord => ({
    name, kinds: cmd.kinds, cores: cmd.cores, signature, code, version, threads, hashMb: cmd.hashMb, host: hostname(), pid: process.pid,
    started, seen: Date.now(), done, busy: [...active.entries()].map(([id, kind]) => `${kind} ${id}`).join(", "),
  });
  const register = () => redis.hset(WORKERS_KEY, name, JSON.stringify(record())).catch(() => undefined);
  await register();
  const heartbeat = setInterval(() => void register(), HEARTBEAT_MS);

  const stallMs = cmd.stallSeconds * 1000;
  const env = {
    ...process.env, [WORKER_ENV.name]: name, [WORKER_ENV.redis]: cmd.redis, [WORKER_ENV.threads]: String(threads), [WORKER_ENV.hashMb]: String(cmd.hashMb),
  };
  const workers: Worker[] = [];
  const cores = new Cores(cmd.cores);
  const starting = (kind: JobKind) => (job: Job) => {
    active.set(job.id ?? "?", kind);
    log(`worker ${name}: ${DOING[kind]} ${job.id}`);
    void register();
  };
  const ending = (kind: JobKind, describe: (id: string, result: any) => string) => (job: Job, result?: unknown) => {
    active.delete(job.id ?? "?");
    if (result !== undefined) {
      done[kind] = (done[kind] ?? 0) + 1;
      log(`worker ${name}: ${describe(job.id ?? "?", result)}`);
    }
    void register();
  };
  /** A queue's BullMQ worker: `concurrency` jobs of the kind in hand, each started when it has
   *  its `weight` of the worker's cores; `describe` says what a job gave, for the log. A kind
   *  holds one job more than the cores, so that it has one waiting when the cores are shared
   *  out (a job fetched only after its kind's last one ended would come too late). */
  const open = (kind: JobKind, queue: string, processor: string, concurrency: number, weight: (job: Job) => number, describe: (id: string, result: any) => string) => {
    const worker = new CoreWorker(queue, new URL(processor, import.meta.url), {
      connection: connect(cmd.redis),
      prefix: KEY_PREFIX,
      name,
      concurrency,
      lockDuration: stallMs,
      stalledInterval: stallMs,
      // A job may be orphaned many times (workers killed, machines gone): its result is
      // stored once whatever happens, so it may come back to the queue as often as it takes.
      maxStalledCount: 1000,
      workerForkOptions: { env },
    }, cores, kind, weight, starting(kind), ending(kind, describe));
    let connectionLost = false;
    worker.on("error", (err) => {
      if (connectionLost) return;
      connectionLost = true;
      log(`worker ${name}: ${err.message.split("\n")[0]}; retrying`);
    });
    worker.on("ready", () => {
      if (connectionLost) log(`worker ${name}: connected again`);
      connectionLost = false;
    });
    worker.on("failed", (job: Job | undefined, err: Error) => {
      log(`worker ${name}: ${kind} ${job?.id ?? "?"} failed: ${err.message.split("\n")[0]}`);
    });
    workers.push(worker);
  };
  if (cmd.kinds.includes("perft")) {
    open("perft", queueName(signature), "./perft/processor.js", 1, () => cmd.cores, (id, result) => {
      try {
        const r = parseResult(result);
        return `batch ${id}: ${r.nodes} leaves, ${r.positions} positions, ${r.seconds} s`;
      } catch (err) {
        return `batch ${id}: ${err instanceof Error ? err.message : err}`;
      }
    });
  }
  if (cmd.kinds.includes("data")) {
    open("data", dataQueueName(code), "./data/processor.js", cmd.cores + 1, () => 1, (id, r: { games?: unknown[]; seconds?: number }) =>
      `chunk ${id}: ${r?.games?.length ?? "?"} games, ${r?.seconds ?? "?"} s`);
  }
  if (cmd.kinds.includes("match")) {
    open("match", matchQueueName(code), "./matches/processor.js", cmd.cores + 1, (job) => taskCores(job.data), (id, r: { games?: { points: number }[]; seconds?: number }) => {
      const points = r?.games?.reduce((a, g) => a + g.points, 0);
      return `task ${id}: ${points ?? "?"}/${r?.games?.length ?? "?"} for engine 1, ${r?.seconds ?? "?"} s`;
    });
  }
  if (cmd.kinds.includes("analysis")) {
    open("analysis", analysisQueueName(code), "./analysis/processor.js", cmd.cores + 1, () => 1, (id, r: { positions?: number; seconds?: number }) =>
      `game ${id}: ${r?.positions ?? "?"} positions, ${r?.seconds ?? "?"} s`);
  }
  log(`worker ${name}: ${cmd.kinds.join(", ")}; engine ${signature}, code ${code}; ` +
    `${cmd.cores} core${cmd.cores > 1 ? "s" : ""}, perft on ${threads} thread${threads > 1 ? "s" : ""} with a ${cmd.hashMb} MB table; waiting for jobs`);

  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = () => {
      if (stopping) process.exit(1); // a second signal: the jobs in hand go back to the queue
      stopping = true;
      log(`worker ${name}: stopping after the jobs in hand`);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  await Promise.all(workers.map((w) => w.close()));
  clearInterval(heartbeat);
  await redis.hdel(WORKERS_KEY, name);
  redis.disconnect();
  log(`worker ${name}: stopped`);
}
