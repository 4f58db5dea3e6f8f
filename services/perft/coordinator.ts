// `wasmchess perft --redis URL`: a perft counted by the workers of a Redis queue. The
// coordinator splits the position (producer.ts), queues the batches on its engine's queue,
// gathers the results (aggregate.ts) and prints the total as the plain command does: a
// progress bar on a terminal, one line of JSON last. A run has an id (--run); killed and
// started again with the same id it continues where it stopped, and once finished it prints
// its total again without counting anything.

import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { SingleBar } from "cli-progress";
import { Core, START_FEN } from "#bindings/core.js";
import { VERIFY_SEED, short } from "#bindings/cli-perft.js";
import { connect, connectOrFail } from "../redis.js";
import { newRunId } from "../runs.js";
import { KEY_PREFIX, WORKERS_KEY, liveWorkers } from "../registry.js";
import { RUN_ID, jobId, queueName, resultField, runKeys } from "./batch.js";
import type { BatchResult } from "./batch.js";
import { passTotal, readResults, recordFinished, retryFailed, verifyMismatch } from "./aggregate.js";
import { defaultSplitPly, planRun, queueMissing } from "./producer.js";
import type { RunPlan } from "./producer.js";
import { PERFT_BUILD, perftSignature } from "./signature.js";

export interface DistributedPerftCommand {
  redis: string;
  depth: number;
  fen: string;
  chess960: boolean;
  verify: boolean;
  /** The run's id: a new one when absent. */
  run?: string;
  splitPly?: number;
  batches?: number;
  /** Draw the progress bar (a terminal on stderr); else a log line every tenth of the run. */
  progress: boolean;
  /** Ends the coordination when aborted (the service's cancel): the results so far stay in
   *  Redis and the run continues when started again with the same id. */
  signal?: AbortSignal;
  /** Called as results come in: batches counted (both passes with --verify), of how many, and
   *  the leaves counted so far (first pass). */
  onProgress?: (counted: number, total: number, leaves: number) => void;
}

/** How often the coordinator collects results (a run's last batch is seen this long after it is
 *  counted at most), and how often it queues lost batches again, retries failed ones and looks
 *  at the workers. */
const POLL_MS = 100;
const CHECK_MS = 5000;

/** What a run counts; a run id given again must ask for the same. */
function runSpec(plan: RunPlan, signature: string, verify: boolean, batches: number) {
  return { fen: plan.fen, chess960: plan.chess960, depth: plan.depth, splitPly: plan.ply, batches, positions: plan.positions, signature, verify };
}

/** Records the run's spec, or checks it against the one stored under the same id. */
async function claimRun(redis: Redis, run: string, spec: ReturnType<typeof runSpec>): Promise<boolean> {
  const { meta } = runKeys(run);
  const json = JSON.stringify(spec);
  const created = await redis.hsetnx(meta, "spec", json);
  if (created) {
    await redis.hset(meta, "created", new Date().toISOString());
    return false;
  }
  const stored = await redis.hget(meta, "spec");
  if (stored !== json) {
    const old = JSON.parse(stored ?? "{}") as Partial<ReturnType<typeof runSpec>>;
    const differing = (Object.keys(spec) as (keyof typeof spec)[]).filter((k) => old[k] !== spec[k]);
    throw new Error(`run ${run} is another perft (its ${differing.map((k) => `${k} is ${JSON.stringify(old[k])}`).join(", ")}); give another --run or the same settings`);
  }
  return true;
}

export async function runDistributedPerft(cmd: DistributedPerftCommand, out: (line: string) => void = (l) => process.stdout.write(l + "\n"),
  log: (line: string) => void = (l) => process.stderr.write(l + "\n")): Promise<void> {
  const run = cmd.run ?? newRunId("perft");
  if (!RUN_ID.test(run)) throw new Error(`--run: a run id is 1 to 64 letters, digits, '.', '_' or '-', got ${JSON.stringify(run)}`);
  const signature = perftSignature();
  const core = await Core.create({ build: PERFT_BUILD });
  let redis: Redis | undefined;
  let queue: Queue | undefined;
  try {
    core.setChess960(cmd.chess960);
    core.setPosition(cmd.fen === "startpos" ? START_FEN : cmd.fen);
    const plan = planRun(core, cmd.depth, cmd.splitPly ?? defaultSplitPly(cmd.depth), cmd.batches);
    const batches = plan.batches.length;
    redis = await connectOrFail(cmd.redis);
    redis.on("error", () => undefined); // it reconnects; commands wait
    const continued = await claimRun(redis, run, runSpec(plan, signature, cmd.verify, batches));
    queue = new Queue(queueName(signature), { connection: connect(cmd.redis), prefix: KEY_PREFIX });
    queue.on("error", () => undefined);
    const passes: { pass: 1 | 2; keySeed: number }[] = cmd.verify ? [{ pass: 1, keySeed: 0 }, { pass: 2, keySeed: VERIFY_SEED }] : [{ pass: 1, keySeed: 0 }];
    const total = passes.length * batches;
    log(`perft run ${run}${continued ? " (continued)" : ""}: depth ${plan.depth} of ${plan.fen}, ${plan.positions} positions ${plan.ply} plies down in ${batches} batches${cmd.verify ? ", counted twice (--verify)" : ""}, engine ${signature}; ` +
      `workers: wasmchess worker --redis ${cmd.redis}; if stopped, continue with --run ${run}`);

    const start = performance.now();
    const bar = cmd.progress
      ? new SingleBar({ format: "{bar} {percentage}% | {value}/{total} batches | {nodes} leaves, {nps} leaves/s | {workers} | ETA {eta_formatted}", hideCursor: true, clearOnComplete: true, etaBuffer: 20, stream: process.stderr })
      : undefined;
    const leaves = (rs: ReadonlyMap<string, BatchResult>) => [...rs.values()].filter((r) => r.pass === 1).reduce((a, r) => a + Number(r.nodes), 0);
    let results = await readResults(redis, run);
    const before = leaves(results);
    let lastCheck = -Infinity;
    let lastTenth = Math.floor((10 * results.size) / total);
    let workersLine = "";
    const reported = new Set<string>();
    bar?.start(total, results.size, { nodes: "0", nps: "0", workers: "" });
    try {
      for (;;) {
        // Results first: a finished run (continued) records what its workers finished since.
        for (const p of await recordFinished(queue, redis)) log(p);
        // The results are read again only when there are new ones (a run of thousands of
        // batches would otherwise parse them all ten times a second).
        if ((await redis.hlen(runKeys(run).results)) !== results.size) results = await readResults(redis, run);
        const mismatch = verifyMismatch(results, batches, VERIFY_SEED);
        if (mismatch) throw new Error(`perft --verify: ${mismatch}`);
        const seconds = (performance.now() - start) / 1000;
        const counted = leaves(results);
        bar?.update(results.size, { nodes: short(counted), nps: short(seconds > 0 ? (counted - before) / seconds : 0), workers: workersLine });
        cmd.onProgress?.(results.size, total, counted);
        const tenth = Math.floor((10 * results.size) / total);
        if (!bar && tenth > lastTenth) {
          lastTenth = tenth;
          log(`perft run ${run}: ${results.size}/${total} batches counted (${workersLine})`);
        }
        if (results.size >= total) break;
        if (cmd.signal?.aborted) throw new Error(`perft run ${run}: stopped with ${results.size} of ${total} batches counted`);
        if (performance.now() - lastCheck >= CHECK_MS) {
          lastCheck = performance.now();
          await queueLost(queue, plan, run, signature, passes, results);
          await retryFailed(queue, redis, run, log);
          workersLine = await checkWorkers(redis, signature, reported, (line) => log(bar ? `\n${line}` : line));
        }
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    } finally {
      bar?.stop();
    }
    const nodes = passTotal(results, 1);
    if (cmd.verify && passTotal(results, 2) !== nodes) throw new Error(`perft --verify: the passes differ: ${nodes} and ${passTotal(results, 2)}`);
    const counters = new Set([...results.values()].map((r) => r.worker));
    const json = JSON.stringify({
      fen: plan.fen, depth: plan.depth, nodes: "NODES", seconds: Number(((performance.now() - start) / 1000).toFixed(3)), run, splitPly: plan.ply,
      positions: plan.positions, batches, workers: counters.size, batchSeconds: Number([...results.values()].reduce((a, r) => a + r.seconds, 0).toFixed(3)),
      verified: cmd.verify ? true : undefined,
    });
    out(json.replace('"NODES"', nodes.toString()));
  } finally {
    await queue?.close();
    redis?.disconnect();
    core.dispose();
  }
}

/** Queues again the batches without a result whose job is gone (never queued, lost with a
 *  Redis that lost its data, or removed); the others are on their way. */
async function queueLost(queue: Queue, plan: RunPlan, run: string, signature: string, passes: { pass: 1 | 2; keySeed: number }[], results: ReadonlyMap<string, unknown>): Promise<void> {
  const present = new Set<string>(results.keys());
  const missing: { pass: 1 | 2; keySeed: number; batch: number }[] = [];
  for (const p of passes) for (let b = 0; b < plan.batches.length; b++) if (!present.has(resultField(p.pass, b))) missing.push({ ...p, batch: b });
  const states = await Promise.all(missing.map((m) => queue.getJobState(jobId(run, m.pass, m.batch))));
  // Batches whose job is there count as done for queueMissing, which skips them.
  missing.forEach((m, i) => {
    if (states[i] !== "unknown") present.add(resultField(m.pass, m.batch));
  });
  await queueMissing(queue, plan, run, signature, passes, present);
}

/** Reads the registered workers: the live ones of this engine (a summary for the progress
 *  line), and a line once for each live worker of another engine (it takes no batches of
 *  this run) and when no worker of this engine is live. */
async function checkWorkers(redis: Redis, signature: string, reported: Set<string>, log: (line: string) => void): Promise<string> {
  const live = liveWorkers(await redis.hgetall(WORKERS_KEY)).filter((w) => w.kinds.includes("perft"));
  const ours = live.filter((w) => w.signature === signature);
  for (const w of live) {
    if (w.signature !== signature && !reported.has(w.name)) {
      reported.add(w.name);
      log(`worker ${w.name} (${w.host}, pid ${w.pid}) runs engine ${w.signature}, not ${signature}: it takes no batches of this run`);
    }
  }
  if (ours.length === 0 && !reported.has("")) {
    reported.add("");
    log(`no worker of engine ${signature} is running: start one with wasmchess worker --redis URL`);
  } else if (ours.length > 0) reported.delete("");
  const threads = ours.reduce((a, w) => a + w.threads, 0);
  return `${ours.length} worker${ours.length === 1 ? "" : "s"}, ${threads} thread${threads === 1 ? "" : "s"}`;
}
