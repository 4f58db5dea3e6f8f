// Perft runs submitted to the service (POST /api/runs, kind "perft"): the same distributed
// perft as `wasmchess perft --redis` (coordinator.ts), coordinated inside the service, its
// batches counted by the workers that take perft jobs. The run's id is the perft run's id, so
// its batches' results live under that id in Redis: a service stopped and started again, or a
// run cancelled and resumed, continues where it was. The run's status shows the batches
// counted and the leaves so far; once done, the total and the time.

import { z } from "zod";
import type { Redis } from "ioredis";
import type { Queue } from "bullmq";
import { Core, START_FEN, MAX_PERFT_DEPTH } from "#bindings/core.js";
import { int } from "../schema.js";
import { RequestError } from "../run-coordinator.js";
import { createRun, newRunId, readRun, runsIn, setRunState, setRunStatus } from "../runs.js";
import { RUN_ID } from "./batch.js";
import { runDistributedPerft } from "./coordinator.js";
import { PERFT_BUILD } from "./signature.js";

export const PerftRunRequest = z
  .object({
    kind: z.literal("perft"),
    id: z.string().regex(RUN_ID).optional(),
    /** The position (default the start position). */
    fen: z.string().min(1).max(120).optional(),
    depth: int(1, MAX_PERFT_DEPTH),
    chess960: z.boolean().optional(),
    /** Count every batch twice with other hash keys, and fail on any difference. */
    verify: z.boolean().optional(),
    /** Plies down to the batches' positions (default by depth), and the number of batches. */
    splitPly: int(1, 8).optional(),
    batches: int(1, 100_000).optional(),
  })
  .strict();
export type PerftRunRequest = z.infer<typeof PerftRunRequest>;

/** What a perft run counts (its request less the id). */
type PerftSpec = Omit<PerftRunRequest, "id" | "kind"> & { fen: string };

/** The status a perft run shows. */
interface PerftStatus {
  counted: number;
  batches: number;
  leaves: string;
  nodes?: string;
  seconds?: number;
  workers?: number;
}

export class PerftRuns {
  private readonly active = new Map<string, AbortController>();
  private rules: Promise<Core> | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly redisUrl: string,
    /** The perft queue's jobs of a run (waiting ones) are removed when it is cancelled. */
    private readonly queue: Queue,
    private readonly log: (line: string) => void,
  ) {}

  /** Takes up the perft runs that were running when the service stopped. */
  async start(): Promise<void> {
    for (const id of await runsIn(this.redis, "running")) {
      const run = await readRun<PerftSpec>(this.redis, id);
      if (run?.kind !== "perft") continue;
      this.activate(id, run.spec);
      this.log(`perft run ${id}: continued (depth ${run.spec.depth} of ${run.spec.fen})`);
    }
  }

  /** Makes and starts a run from a request PerftRunRequest validated; a position that cannot
   *  be set up is refused (400). */
  async submit(request: { id?: string }): Promise<string> {
    const { id: given, kind: _kind, ...rest } = request as PerftRunRequest;
    const spec: PerftSpec = { ...rest, fen: rest.fen ?? START_FEN };
    this.rules ??= Core.create({ build: PERFT_BUILD });
    const core = await this.rules;
    try {
      core.setChess960(spec.chess960 ?? false);
      core.setPosition(spec.fen === "startpos" ? START_FEN : spec.fen);
    } catch (err) {
      throw new RequestError(`fen: ${err instanceof Error ? err.message : String(err)}`);
    }
    const id = given ?? newRunId("perft");
    if (!(await createRun(this.redis, id, "perft", spec))) throw new RequestError(`id: run ${id} exists`, 409);
    this.activate(id, spec);
    this.log(`perft run ${id}: depth ${spec.depth} of ${spec.fen}`);
    return id;
  }

  /** Stops coordinating a running run and takes its waiting batches off the queue (batches
   *  being counted are kept when they come back); resume() continues it. */
  async stop(id: string): Promise<void> {
    const run = await this.lookUp(id);
    if (run.state !== "running") throw new RequestError(`run ${id} is ${run.state}, not running`, 409);
    await setRunState(this.redis, id, "stopped");
    this.active.get(id)?.abort();
    this.active.delete(id);
    const waiting = await this.queue.getJobs(["waiting", "delayed", "prioritized"]);
    await Promise.all(waiting.filter((j) => j.id?.startsWith(`${id}.`)).map((j) => j.remove().catch(() => undefined)));
    this.log(`perft run ${id}: stopped`);
  }

  async resume(id: string): Promise<void> {
    const run = await this.lookUp(id);
    if (run.state !== "stopped") throw new RequestError(`run ${id} is ${run.state}, not stopped`, 409);
    await setRunState(this.redis, id, "running");
    this.activate(id, run.spec);
    this.log(`perft run ${id}: resumed`);
  }

  /** Nothing to do each round: every run has its own loop. */
  async tick(): Promise<void> {}

  /** Stops coordinating every run (the service is stopping; they stay running in Redis). */
  closeAll(): void {
    for (const c of this.active.values()) c.abort();
    this.active.clear();
  }

  private async lookUp(id: string) {
    const run = await readRun<PerftSpec>(this.redis, id);
    if (!run || run.kind !== "perft") throw new RequestError(`no perft run ${JSON.stringify(id)}`, 404);
    return run;
  }

  private activate(id: string, spec: PerftSpec): void {
    const abort = new AbortController();
    this.active.set(id, abort);
    let status: PerftStatus = { counted: 0, batches: 0, leaves: "0" };
    let published = 0;
    void runDistributedPerft(
      {
        redis: this.redisUrl, depth: spec.depth, fen: spec.fen, chess960: spec.chess960 ?? false, verify: spec.verify ?? false, run: id,
        splitPly: spec.splitPly, batches: spec.batches, progress: false, signal: abort.signal,
        onProgress: (counted, batches, leaves) => {
          status = { counted, batches, leaves: String(leaves) };
          if (Date.now() - published >= 1000 || counted === batches) {
            published = Date.now();
            void setRunStatus(this.redis, id, status);
          }
        },
      },
      (line) => {
        const r = JSON.parse(line) as { nodes: number | bigint; seconds: number; workers: number };
        const nodes = /"nodes":(\d+)/.exec(line)![1]; // exact: past 2^53 at depth 11
        status = { ...status, counted: status.batches, nodes, seconds: r.seconds, workers: r.workers };
      },
      () => undefined,
    ).then(
      async () => {
        await setRunStatus(this.redis, id, status);
        await setRunState(this.redis, id, "done");
        this.log(`perft run ${id}: perft(${spec.depth}) = ${status.nodes} in ${status.seconds} s`);
      },
      async (err: unknown) => {
        if (abort.signal.aborted) return; // stopped, or the service is stopping
        const message = err instanceof Error ? err.message : String(err);
        await setRunState(this.redis, id, "failed", message);
        this.log(`perft run ${id}: failed: ${message}`);
      },
    ).finally(() => {
      if (this.active.get(id) === abort) this.active.delete(id);
    });
  }
}
