// What every kind of run on the service shares: a run is cut into numbered tasks, queued on
// the kind's queue a window at a time; a task's result moves from the queue into the run's
// results hash once (HSETNX: a task done twice, as an at-least-once queue may do, is stored
// once), checked against its task first (a result that does not add up is refused, its worker
// flagged, the task queued again); failed tasks are retried, and a task that keeps failing
// fails its run. The kinds (data/run.ts, matches/run.ts) say what a task is, which ones to
// queue, and what to do with the stored results. Runs are stopped, resumed and made between
// the coordinator's rounds, never in the middle of one.

import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { RUN_ID } from "./perft/batch.js";
import { WORKERS_KEY, flagWorker, liveWorkers } from "./registry.js";
import type { JobKind } from "./registry.js";
import { createRun, newRunId, readRun, runsIn, serviceRunKeys, setRunState, setRunStatus } from "./runs.js";
import type { RunKind, RunRecord } from "./runs.js";

/** An error in what a client asked, with its HTTP status. */
export class RequestError extends Error {
  constructor(message: string, readonly status: 400 | 404 | 409 = 400) {
    super(message);
  }
}

/** Tries of a task whose processor fails before its run fails with the reason. */
export const MAX_TASK_RETRIES = 5;
const TASK_ATTEMPTS = 2;
/** How often queued tasks are topped up and failed ones retried. */
const CHECK_MS = 2000;

/** A run the coordinator works on. */
export interface ActiveRun<Spec> {
  id: string;
  spec: Spec;
  lastCheck: number;
  lastStatus: number;
}

/** A task's job data: at least its run. */
export interface TaskData {
  run: string;
}

/** The PGN files of a directory (<n>.pgn, a task's games each) joined in number order. */
export function joinPgnFiles(dir: string): string {
  if (!existsSync(dir)) return "";
  const files = readdirSync(dir).filter((f) => /^\d+\.pgn$/.test(f)).sort((a, b) => parseInt(a) - parseInt(b));
  return files.map((f) => readFileSync(join(dir, f), "utf8")).join("");
}

/** The job id of a run's task: the same task queued twice is one job. */
export function taskJobId(run: string, task: number): string {
  return `${run}.t${task}`;
}

export abstract class RunCoordinator<Spec, Active extends ActiveRun<Spec>, Task extends TaskData> {
  protected readonly active = new Map<string, Active>();
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    protected readonly redis: Redis,
    protected readonly queue: Queue,
    /** The run kind and the job kind of its tasks. */
    protected readonly kind: RunKind & JobKind,
    /** The code signature whose workers do the tasks. */
    protected readonly code: string,
    protected readonly log: (line: string) => void,
  ) {}

  /** The task in a job's data, checked (throws an Error naming the bad field). */
  protected abstract parseTask(data: unknown): Task;
  /** A task's number in its run. */
  protected abstract numberOf(task: Task): number;
  /** A task's result checked against the task; returns what to store (JSON). Throws an Error
   *  that says what is impossible about it. */
  protected abstract checkResult(data: unknown, task: Task): unknown;
  /** The spec of a new run from a validated request, checked against what the service holds
   *  (and what a run keeps beside its spec stored under its id). */
  protected abstract makeSpec(request: unknown, id: string): Promise<Spec>;
  /** Opens a run (its files, its state so far). */
  protected abstract open(id: string, spec: Spec): Promise<Active>;
  /** Closes what open() opened. */
  protected abstract close(run: Active): void;
  /** Takes in the run's stored results; true when the run is over. */
  protected abstract advance(run: Active): Promise<boolean>;
  /** The task numbers the run wants on the queue now, given the cores of the live workers. */
  protected abstract wanted(run: Active, cores: number): Promise<number[]>;
  /** A task's job data. */
  protected abstract taskData(run: Active, task: number): Task;
  /** The run's status for the API. */
  protected abstract status(run: Active): object;
  /** A line about a run for the log, when it is made or taken up again. */
  protected abstract describe(run: Active): string;

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.turn.then(fn, fn);
    this.turn = next.catch(() => undefined);
    return next;
  }

  /** Takes up the runs of this kind that were running when the service stopped. */
  async start(): Promise<void> {
    for (const id of await runsIn(this.redis, "running")) {
      const run = await readRun(this.redis, id);
      if (run?.kind !== this.kind) continue;
      try {
        await this.activate(id);
        this.log(`${this.kind} run ${id}: continued (${this.describe(this.active.get(id)!)})`);
      } catch (err) {
        await this.fail(id, err instanceof Error ? err.message : String(err));
      }
    }
  }

  /** Makes and starts a run from a validated request with an optional id; returns the id. */
  submit(request: { id?: string }): Promise<string> {
    return this.exclusive(async () => {
      const id = request.id ?? newRunId(this.kind);
      if (await readRun(this.redis, id)) throw new RequestError(`id: run ${id} exists`, 409);
      const spec = await this.makeSpec(request, id);
      if (!(await createRun(this.redis, id, this.kind, spec))) throw new RequestError(`id: run ${id} exists`, 409);
      try {
        await this.activate(id);
      } catch (err) {
        await this.fail(id, err instanceof Error ? err.message : String(err));
        throw err;
      }
      this.log(`${this.kind} run ${id}: ${this.describe(this.active.get(id)!)}`);
      return id;
    });
  }

  /** Stops a running run: its queued tasks go; results of the tasks in hand are kept when they
   *  come back; resume() continues it. */
  stop(id: string): Promise<void> {
    return this.exclusive(async () => {
      const run = await this.lookUp(id);
      if (run.state !== "running") throw new RequestError(`run ${id} is ${run.state}, not running`, 409);
      await setRunState(this.redis, id, "stopped");
      this.deactivate(id);
      await this.removeQueued(id);
      this.log(`${this.kind} run ${id}: stopped`);
    });
  }

  resume(id: string): Promise<void> {
    return this.exclusive(async () => {
      const run = await this.lookUp(id);
      if (run.state !== "stopped") throw new RequestError(`run ${id} is ${run.state}, not stopped`, 409);
      await setRunState(this.redis, id, "running");
      try {
        await this.activate(id);
      } catch (err) {
        await this.fail(id, err instanceof Error ? err.message : String(err));
        throw err;
      }
      this.log(`${this.kind} run ${id}: resumed (${this.describe(this.active.get(id)!)})`);
    });
  }

  /** One round of the coordinator's work: results in, runs advanced, the queue topped up. */
  tick(): Promise<void> {
    return this.exclusive(async () => {
      await this.recordFinished();
      const now = Date.now();
      let cores: number | undefined;
      for (const run of [...this.active.values()]) {
        try {
          if (await this.advance(run)) {
            await this.finish(run);
            continue;
          }
          if (now - run.lastCheck >= CHECK_MS) {
            run.lastCheck = now;
            if (await this.retryFailed(run)) continue;
            cores ??= await this.liveCores();
            await this.topUp(run, cores);
          }
          if (now - run.lastStatus >= 1000) await this.publish(run);
        } catch (err) {
          this.log(`${this.kind} run ${run.id}: ${err instanceof Error ? err.message : err}`);
        }
      }
    });
  }

  /** The run's stored results not in `taken`, by task number, in number order: read only when
   *  there are some (a long run holds thousands, and a round is a quarter of a second). */
  protected async newResults(run: Active, taken: ReadonlySet<number>): Promise<[number, string][]> {
    const { results } = serviceRunKeys(run.id);
    if ((await this.redis.hlen(results)) <= taken.size) return [];
    const fresh = (await this.redis.hkeys(results)).map(Number).filter((n) => !taken.has(n)).sort((a, b) => a - b);
    if (fresh.length === 0) return [];
    const values = await this.redis.hmget(results, ...fresh.map(String));
    return fresh.flatMap((n, i) => (values[i] === null ? [] : [[n, values[i]!] as [number, string]]));
  }

  /** Closes every run's files (the service is stopping). */
  closeAll(): void {
    for (const id of [...this.active.keys()]) this.deactivate(id);
  }

  /** The run with this id, of this kind; a RequestError (404) when there is none. */
  protected async lookUp(id: string): Promise<RunRecord<Spec>> {
    const run = RUN_ID.test(id) ? await readRun<Spec>(this.redis, id) : undefined;
    if (!run || run.kind !== this.kind) throw new RequestError(`no ${this.kind} run ${JSON.stringify(id)}`, 404);
    return run;
  }

  private async activate(id: string): Promise<void> {
    if (this.active.has(id)) return;
    const { spec } = await this.lookUp(id);
    const run = await this.open(id, spec);
    this.active.set(id, run);
  }

  private deactivate(id: string): void {
    const run = this.active.get(id);
    if (!run) return;
    this.close(run);
    this.active.delete(id);
  }

  protected async fail(id: string, reason: string): Promise<void> {
    this.deactivate(id);
    await setRunState(this.redis, id, "failed", reason);
    await this.removeQueued(id);
    this.log(`${this.kind} run ${id} failed: ${reason}`);
  }

  private async finish(run: Active): Promise<void> {
    await this.publish(run);
    this.deactivate(run.id);
    await setRunState(this.redis, run.id, "done");
    await this.removeQueued(run.id);
    const { results, retries } = serviceRunKeys(run.id);
    await this.redis.del(results, retries);
    this.log(`${this.kind} run ${run.id}: done (${this.describe(run)})`);
  }

  /** The cores the live workers of this kind and code give. */
  private async liveCores(): Promise<number> {
    return liveWorkers(await this.redis.hgetall(WORKERS_KEY))
      .filter((w) => w.kinds.includes(this.kind) && w.code === this.code)
      .reduce((a, w) => a + w.cores, 0);
  }

  /** Moves the results of finished tasks from the queue into their runs' results, once each,
   *  and removes their jobs. Results for runs that are over are dropped. */
  private async recordFinished(): Promise<void> {
    for (const job of await this.queue.getCompleted(0, 199)) {
      let task: Task;
      try {
        task = this.parseTask(job.data);
      } catch {
        await job.remove();
        continue;
      }
      const state = await this.redis.hget(serviceRunKeys(task.run).meta, "state");
      if (state === "running" || state === "stopped") {
        try {
          const stored = await this.checkResult(job.returnvalue, task);
          await this.redis.hsetnx(serviceRunKeys(task.run).results, String(this.numberOf(task)), JSON.stringify(stored));
        } catch (err) {
          const r = job.returnvalue as { worker?: unknown } | null;
          const worker = typeof r?.worker === "string" ? r.worker.slice(0, 200) : (job.processedBy ?? "unknown");
          const reason = err instanceof Error ? err.message : String(err);
          await flagWorker(this.redis, worker, job.id ?? "?", reason);
          this.log(`task ${job.id}: result of worker ${worker} refused (${reason}); queued again`);
        }
      }
      await job.remove();
    }
  }

  /** Removes a run's tasks that wait on the queue (not those in a worker's hands). */
  private async removeQueued(id: string): Promise<void> {
    const prefix = `${id}.t`;
    for (const job of await this.queue.getJobs(["waiting", "delayed", "prioritized", "failed"])) {
      if (job?.id?.startsWith(prefix)) await job.remove().catch(() => undefined);
    }
  }

  /** Queues the tasks the run wants that have no result yet (a task with a job is not queued
   *  twice: the job id is the task's). */
  private async topUp(run: Active, cores: number): Promise<void> {
    const have = new Set(await this.redis.hkeys(serviceRunKeys(run.id).results));
    const jobs = (await this.wanted(run, cores))
      .filter((n) => !have.has(String(n)))
      .map((n) => ({
        name: `${this.kind}-task`,
        data: this.taskData(run, n),
        opts: { jobId: taskJobId(run.id, n), attempts: TASK_ATTEMPTS, removeOnComplete: false, removeOnFail: false },
      }));
    if (jobs.length) await this.queue.addBulk(jobs);
  }

  /** Puts the run's failed tasks back on the queue; fails the run (and returns true) when one
   *  has failed MAX_TASK_RETRIES times (a task that fails every time is a bug to see). */
  private async retryFailed(run: Active): Promise<boolean> {
    const prefix = `${run.id}.t`;
    for (const job of await this.queue.getFailed(0, 199)) {
      if (!job.id?.startsWith(prefix)) continue;
      const tries = await this.redis.hincrby(serviceRunKeys(run.id).retries, job.id, 1);
      if (tries > MAX_TASK_RETRIES) {
        await this.fail(run.id, `task ${job.id} failed ${tries} times: ${job.failedReason}`);
        return true;
      }
      this.log(`task ${job.id} failed (${job.failedReason}); queued again (${tries}/${MAX_TASK_RETRIES})`);
      await job.retry("failed");
    }
    return false;
  }

  private async publish(run: Active): Promise<void> {
    run.lastStatus = Date.now();
    await setRunStatus(this.redis, run.id, this.status(run));
  }
}

