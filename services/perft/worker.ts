// `wasmchess worker --redis URL`: takes the distributed perft's batches from the queue of its
// own perft signature, counts them in a sandboxed processor (processor.ts) on --threads
// threads with a --hash MB table, and hands each result back through the queue. Any number
// of workers, on any machines, may serve one Redis. A worker registers itself (name,
// signature, threads) with a heartbeat, so a coordinator can say which workers serve its run
// and which run another engine version. A worker killed mid-batch loses nothing: its lock
// runs out and the batch goes to another worker (or to this one, started again).

import { hostname } from "node:os";
import { Worker } from "bullmq";
import type { Job } from "bullmq";
import { connect, connectOrFail } from "../redis.js";
import { HEARTBEAT_MS, KEY_PREFIX, PROCESSOR_ENV, WORKERS_KEY, parseResult, queueName } from "./batch.js";
import type { WorkerRecord } from "./batch.js";
import { perftSignature } from "./signature.js";

export interface WorkerCommand {
  redis: string;
  threads: number;
  hashMb: number;
  name?: string;
  /** A batch whose worker is silent this long goes back to the queue (BullMQ's lock
   *  duration and stalled-job check interval). */
  stallSeconds: number;
}

/** Runs the worker until SIGINT or SIGTERM (the batch in hand is finished first; a second
 *  signal leaves it to another worker). It logs what it does, a line each, on stdout. */
export async function runWorker(cmd: WorkerCommand, log: (line: string) => void = (l) => process.stdout.write(l + "\n")): Promise<void> {
  const signature = perftSignature();
  const name = cmd.name ?? `${hostname()}-${process.pid}`;
  const redis = await connectOrFail(cmd.redis);
  redis.on("error", () => undefined); // reconnects; the worker's own handler reports
  const record = (): WorkerRecord => ({ name, signature, threads: cmd.threads, hashMb: cmd.hashMb, host: hostname(), pid: process.pid, seen: Date.now() });
  await redis.hset(WORKERS_KEY, name, JSON.stringify(record()));
  const heartbeat = setInterval(() => void redis.hset(WORKERS_KEY, name, JSON.stringify(record())).catch(() => undefined), HEARTBEAT_MS);

  const stallMs = cmd.stallSeconds * 1000;
  const worker = new Worker(queueName(signature), new URL("./processor.js", import.meta.url), {
    connection: connect(cmd.redis),
    prefix: KEY_PREFIX,
    name,
    concurrency: 1,
    lockDuration: stallMs,
    stalledInterval: stallMs,
    // A batch may be orphaned many times (workers killed, machines gone): it is counted once
    // whatever happens, so it may come back to the queue as often as it takes.
    maxStalledCount: 1000,
    workerForkOptions: {
      env: { ...process.env, [PROCESSOR_ENV.threads]: String(cmd.threads), [PROCESSOR_ENV.hashMb]: String(cmd.hashMb), [PROCESSOR_ENV.worker]: name },
    },
  });
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
  worker.on("active", (job: Job) => log(`worker ${name}: counting batch ${job.id}`));
  worker.on("completed", (job: Job) => {
    try {
      const r = parseResult(job.returnvalue);
      log(`worker ${name}: batch ${job.id}: ${r.nodes} leaves, ${r.positions} positions, ${r.seconds} s`);
    } catch (err) {
      log(`worker ${name}: batch ${job.id}: ${err instanceof Error ? err.message : err}`);
    }
  });
  worker.on("failed", (job: Job | undefined, err: Error) => log(`worker ${name}: batch ${job?.id ?? "?"} failed: ${err.message.split("\n")[0]}`));
  log(`worker ${name}: engine ${signature}, queue ${queueName(signature)}, ${cmd.threads} thread${cmd.threads > 1 ? "s" : ""}, ${cmd.hashMb} MB table; waiting for batches`);

  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = () => {
      if (stopping) process.exit(1); // a second signal: the batch in hand goes back to the queue
      stopping = true;
      log(`worker ${name}: stopping after the batch in hand`);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  await worker.close();
  clearInterval(heartbeat);
  await redis.hdel(WORKERS_KEY, name);
  redis.disconnect();
  log(`worker ${name}: stopped`);
}
