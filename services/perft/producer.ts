// The distributed perft's producer: splits a perft into batches of unique positions and puts
// on the queue every batch that has no result yet. Batches are planned the same way every
// time (the same position, depth, split and batch count give the same batches), so a run
// can be continued by another coordinator process: what is queued again is what was lost.

import type { Queue } from "bullmq";
import type { Core } from "#bindings/core.js";
import { uniquePositions, MAX_SPLIT_PLY } from "#bindings/perft-split.js";
import { BATCH_RECORD_VERSION, jobId, resultField } from "./batch.js";
import type { PerftBatch } from "./batch.js";

/** The split's default ply: deep enough for batches to balance (ply 4: the start position's
 *  72,078 positions, the Grand Chess Tree's tasks), three plies short of the depth below that. */
export function defaultSplitPly(depth: number): number {
  return Math.max(0, Math.min(4, depth - 3));
}

/** Default number of batches: few enough that the queue costs little against the counting
 *  (a batch is some milliseconds of Redis and IPC), enough to spread over workers and to
 *  lose little when one dies. */
export const DEFAULT_BATCHES = 200;

export interface RunPlan {
  fen: string;
  chess960: boolean;
  depth: number;
  ply: number;
  /** Unique positions at the split ply, and the batches they are grouped in. */
  positions: number;
  batches: { paths: string[]; counts: string[] }[];
}

/** Splits core's position: the unique positions ply plies down, in the order first reached,
 *  in at most `batches` batches of consecutive positions (neighbours share subtrees, which a
 *  worker's table then finds). */
export function planRun(core: Core, depth: number, ply: number, batches: number): RunPlan {
  if (ply > depth || ply > MAX_SPLIT_PLY) throw new Error(`the split ply must be from 0 to ${Math.min(depth, MAX_SPLIT_PLY)} at depth ${depth}, got ${ply}`);
  const found = uniquePositions(core, ply);
  const size = Math.ceil(found.length / batches);
  const out: RunPlan["batches"] = [];
  for (let i = 0; i < found.length; i += size) {
    const group = found.slice(i, i + size);
    out.push({ paths: group.map((p) => p.moves.join(" ")), counts: group.map((p) => p.count.toString()) });
  }
  return { fen: core.fen(), chess960: core.isChess960(), depth, ply, positions: found.length, batches: out };
}

/** Attempts of a batch whose processor fails (a crash of its process; a bad record fails
 *  every time): BullMQ retries it, then the coordinator sees it failed. */
export const BATCH_ATTEMPTS = 3;

/** Queues the batches of the given passes that have no result in `done` (result fields).
 *  A batch already on the queue (waiting, running or finished) is not queued twice: its job
 *  id is its run, pass and number. */
export async function queueMissing(queue: Queue, plan: RunPlan, run: string, signature: string, passes: { pass: 1 | 2; keySeed: number }[], done: ReadonlySet<string>): Promise<number> {
  const jobs = [];
  for (const { pass, keySeed } of passes) {
    for (let b = 0; b < plan.batches.length; b++) {
      if (done.has(resultField(pass, b))) continue;
      const data: PerftBatch = {
        v: BATCH_RECORD_VERSION, signature, run, pass, keySeed, batch: b,
        fen: plan.fen, chess960: plan.chess960, depth: plan.depth - plan.ply, ...plan.batches[b],
      };
      jobs.push({ name: "perft-batch", data, opts: { jobId: jobId(run, pass, b), attempts: BATCH_ATTEMPTS, removeOnComplete: false, removeOnFail: false } });
    }
  }
  for (let i = 0; i < jobs.length; i += 500) await queue.addBulk(jobs.slice(i, i + 500));
  return jobs.length;
}
