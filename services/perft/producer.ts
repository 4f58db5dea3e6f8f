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

/** A batch costs about 5 ms besides its counting (the queue's round trips, the sandbox's IPC,
 *  the batch's set-up: perft(8) in 50 batches against 400, docs/perft.md), so the default
 *  batch is about BATCH_SECONDS of counting on one thread (the cost 0.25% of it), estimated
 *  from the split with HASHED_LEAVES_PER_SECOND; at least MIN_BATCHES, to spread even a short
 *  run over some workers, and at most MAX_BATCHES. */
const BATCH_SECONDS = 2;
const HASHED_LEAVES_PER_SECOND = 3e9;
export const MIN_BATCHES = 32;
export const MAX_BATCHES = 20_000;

/** The default number of batches for a split of `paths` move sequences at `ply` into
 *  `positions` unique positions, below which a perft goes `depth - ply` plies deeper: the
 *  leaves estimated as paths × b^(depth - ply), b the mean branching factor of the split's
 *  plies. The same split and depth give the same number (a run's batches are part of it). */
export function defaultBatches(positions: number, paths: bigint, depth: number, ply: number): number {
  if (ply === 0) return 1;
  const branching = Number(paths) ** (1 / ply);
  const leaves = Number(paths) * branching ** (depth - ply);
  const wanted = Math.ceil(leaves / (HASHED_LEAVES_PER_SECOND * BATCH_SECONDS));
  return Math.min(positions, MAX_BATCHES, Math.max(MIN_BATCHES, wanted));
}

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
 *  in at most `batches` batches (default: defaultBatches) of consecutive positions
 *  (neighbours share subtrees, which a worker's table then finds). */
export function planRun(core: Core, depth: number, ply: number, batches?: number): RunPlan {
  if (ply > depth || ply > MAX_SPLIT_PLY) throw new Error(`the split ply must be from 0 to ${Math.min(depth, MAX_SPLIT_PLY)} at depth ${depth}, got ${ply}`);
  const found = uniquePositions(core, ply);
  batches ??= defaultBatches(found.length, found.reduce((a, p) => a + p.count, 0n), depth, ply);
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
