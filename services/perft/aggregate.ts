// The distributed perft's aggregation: the result of every finished batch moves from the
// queue into its run's results hash, once (HSETNX on the batch's field: a batch that was
// counted twice, as an at-least-once queue may do, is stored once), then the job goes. The
// run's total is the sum of its stored results; with --verify the two passes (other Zobrist
// keys) are compared batch by batch.

import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { jobId, parseResult, resultField, runKeys } from "./batch.js";
import type { BatchResult } from "./batch.js";

/** Moves finished batches' results (of any run this Redis holds) into their runs' results.
 *  Returns the problems met (a result that does not read, or does not match its job), whose
 *  jobs are removed so that their batches are queued again. */
export async function recordFinished(queue: Queue, redis: Redis): Promise<string[]> {
  const problems: string[] = [];
  for (const job of await queue.getCompleted(0, 999)) {
    let result: BatchResult | undefined;
    try {
      result = parseResult(job.returnvalue);
      if (job.id !== jobId(result.run, result.pass, result.batch)) throw new Error(`the result of job ${job.id} is of batch ${jobId(result.run, result.pass, result.batch)}`);
    } catch (err) {
      problems.push(`batch ${job.id}: ${err instanceof Error ? err.message : err}; queued again`);
      result = undefined;
    }
    if (result) {
      const keys = runKeys(result.run);
      if (!(await redis.exists(keys.meta))) continue; // not a run this Redis knows: leave it
      await redis.hsetnx(keys.results, resultField(result.pass, result.batch), JSON.stringify(result));
    }
    await job.remove();
  }
  return problems;
}

/** A run's stored results, by result field. */
export async function readResults(redis: Redis, run: string): Promise<Map<string, BatchResult>> {
  const fields = await redis.hgetall(runKeys(run).results);
  return new Map(Object.entries(fields).map(([field, json]) => [field, parseResult(JSON.parse(json))]));
}

/** The leaves of one pass's stored results. */
export function passTotal(results: ReadonlyMap<string, BatchResult>, pass: 1 | 2): bigint {
  let sum = 0n;
  for (const r of results.values()) if (r.pass === pass) sum += BigInt(r.nodes);
  return sum;
}

/** The first batch whose two passes were both counted and differ, described; undefined when
 *  every batch counted twice agrees. */
export function verifyMismatch(results: ReadonlyMap<string, BatchResult>, batches: number, seed: number): string | undefined {
  for (let b = 0; b < batches; b++) {
    const one = results.get(resultField(1, b));
    const two = results.get(resultField(2, b));
    if (one && two && one.nodes !== two.nodes) {
      return `batch ${b} differs: ${one.nodes} with the built-in keys (worker ${one.worker}), ${two.nodes} with seed ${seed} (worker ${two.worker})`;
    }
  }
  return undefined;
}

/** Most times the coordinator puts a failed batch back on the queue before it gives up. */
export const MAX_BATCH_RETRIES = 5;

/** Puts the run's failed batches back on the queue (a processor that crashed, a worker whose
 *  batch stalled too often); throws when one has failed MAX_BATCH_RETRIES times over, with
 *  its reason (a batch that fails every time is a bug to see, not to retry forever). */
export async function retryFailed(queue: Queue, redis: Redis, run: string, log: (line: string) => void): Promise<void> {
  for (const job of await queue.getFailed(0, 999)) {
    if (!job.id?.startsWith(`${run}.`)) continue;
    const tries = await redis.hincrby(runKeys(run).retries, job.id, 1);
    if (tries > MAX_BATCH_RETRIES) throw new Error(`batch ${job.id} failed ${tries} times: ${job.failedReason}`);
    log(`batch ${job.id} failed (${job.failedReason}); queued again (${tries}/${MAX_BATCH_RETRIES})`);
    await job.retry("failed");
  }
}
