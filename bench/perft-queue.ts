// The queue's overhead: the same hashed perft counted by the plain command and through Redis
// and BullMQ by one worker with the same table and one thread, in the same run, as the whole
// command takes it (the coordinator's split into positions, the queue's round trips, the
// sandboxed processor's start and its engine included). The target: within 5%.
//   npm run bench:perft-queue [-- --depth 8] [--hash 48] [--runs 2] [--batches N] [--fen "<FEN>"]
// A redis-server (Debian's) is started for the run in a temporary directory and stopped after.
// Each queued run gets a fresh worker (an empty table, as the plain command's); the two kinds
// alternate, best of --runs. Counts are compared before a time is printed. Wall-clock times:
// run it on a quiet machine.

import { parseArgs } from "node:util";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { RedisServer } from "../match/redis-server.js";
import { UciProcess } from "../match/uci-process.js";

const { values } = parseArgs({
  options: {
    depth: { type: "string", default: "8" },
    hash: { type: "string", default: "48" },
    runs: { type: "string", default: "2" },
    batches: { type: "string" },
    fen: { type: "string", default: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" },
  },
});
const CLI = fileURLToPath(new URL("../build/cli.js", import.meta.url));
const runs = Number(values.runs);

/** Runs the command line; returns its JSON line's nodes and the wall time of the process. */
function perft(args: string[]): { nodes: string; seconds: number; json: Record<string, unknown> } {
  const start = performance.now();
  const r = spawnSync(process.execPath, [CLI, "perft", "--no-progress", "--depth", values.depth!, "--fen", values.fen!, ...args], { encoding: "utf8" });
  const seconds = (performance.now() - start) / 1000;
  if (r.status !== 0) throw new Error(`perft ${args.join(" ")} failed: ${r.stderr}`);
  const line = r.stdout.trim().split("\n").pop()!;
  const nodes = /"nodes":(\d+)/.exec(line)![1];
  return { nodes, seconds, json: JSON.parse(line.replace(/"nodes":\d+/, '"nodes":0')) };
}

const redis = await RedisServer.start();
try {
  console.log(`perft(${values.depth}) of ${values.fen}, ${values.hash} MB table, one thread; best of ${runs}; redis-server ${redis.url}`);
  let plainBest = Infinity;
  let queueBest = Infinity;
  for (let i = 0; i < runs; i++) {
    const plain = perft(["--hash", values.hash!]);
    plainBest = Math.min(plainBest, plain.seconds);
    const worker = new UciProcess(process.execPath, [CLI, "worker", "--redis", redis.url, "--kinds", "perft", "--hash", values.hash!, "--threads", "1", "--name", `bench-${i}`]);
    await worker.waitFor((l) => l.includes("waiting for jobs"));
    const queued = perft(["--redis", redis.url, "--run", `bench-${Date.now()}`, ...(values.batches ? ["--batches", values.batches] : [])]);
    worker.kill();
    if (queued.nodes !== plain.nodes) throw new Error(`the counts differ: ${plain.nodes} plain, ${queued.nodes} through the queue`);
    queueBest = Math.min(queueBest, queued.seconds);
    console.log(`run ${i + 1}: plain ${plain.seconds.toFixed(2)} s, through the queue ${queued.seconds.toFixed(2)} s ` +
      `(${queued.json.positions} positions ${queued.json.splitPly} plies down, ${queued.json.batches} batches, ${queued.json.batchSeconds} s in the processor); nodes ${plain.nodes}`);
  }
  console.log(`best: plain ${plainBest.toFixed(2)} s, queue ${queueBest.toFixed(2)} s: overhead ${(100 * (queueBest / plainBest - 1)).toFixed(1)}% (target: within 5%)`);
} finally {
  await redis.dispose();
}
