// The distributed perft's processor: counts one batch. BullMQ runs this file sandboxed, in a
// child process of the worker, so that hours of counting never hold up the worker's event
// loop and its job locks stay renewed. The child lives from batch to batch: its engine, its
// threads and its perft table (retained between batches, as one long perft keeps its table)
// are made once. The worker passes its settings in the environment (WORKER_ENV in ../registry.ts).

import type { SandboxedJob } from "bullmq";
import { Core } from "#bindings/core.js";
import { endWithWorker, WORKER_ENV } from "../registry.js";
import { BATCH_RECORD_VERSION, parseBatch } from "./batch.js";
import type { BatchResult } from "./batch.js";
import { PERFT_BUILD, perftSignature } from "./signature.js";

// The worker gone (killed), this child stops too, after the batch in hand.
endWithWorker();

const threads = Number(process.env[WORKER_ENV.threads] ?? "1");
const hashMb = Number(process.env[WORKER_ENV.hashMb] ?? "64");
const workerName = process.env[WORKER_ENV.name] ?? `pid-${process.pid}`;

let engine: Promise<Core> | undefined;
let keySeed = 0;

async function createEngine(): Promise<Core> {
  const core = await Core.create({ build: PERFT_BUILD });
  if (threads > 1) await core.setThreads(threads);
  return core;
}

/** Counts the batch: the sum over its positions of count × perft(depth). */
export default async function countBatch(job: SandboxedJob): Promise<BatchResult> {
  const batch = parseBatch(job.data);
  const signature = perftSignature();
  if (batch.signature !== signature) {
    throw new Error(`batch ${job.id} is for engine ${batch.signature}, this worker is ${signature}`);
  }
  engine ??= createEngine();
  const core = await engine;
  const start = performance.now();
  if (batch.keySeed !== keySeed) {
    core.setKeySeed(batch.keySeed);
    keySeed = batch.keySeed;
  }
  core.setChess960(batch.chess960);
  core.setPosition(batch.fen);
  const paths = batch.paths.map((p) => (p === "" ? [] : p.split(" ")));
  const counts = core.perftBelow(paths, batch.depth, { hashMb, retainTable: true });
  const nodes = counts.reduce((sum, c, i) => sum + c * BigInt(batch.counts[i]), 0n);
  return {
    v: BATCH_RECORD_VERSION,
    signature,
    run: batch.run,
    pass: batch.pass,
    batch: batch.batch,
    nodes: nodes.toString(),
    positions: paths.length,
    seconds: Number(((performance.now() - start) / 1000).toFixed(3)),
    worker: workerName,
  };
}
