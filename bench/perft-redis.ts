// A perft over Redis with local workers, one of them killed (kill -9) mid-run and started
// again: the perft(9) run. Starts a redis-server of its own (or uses --redis URL),
// the workers and the coordinator (the package's command line), prints the coordinator's
// JSON with the time, and checks the count against the known one when there is one.
//   npm run build && npx tsx bench/perft-redis.ts [-- --depth 9] [--workers 2] [--threads 1]
//       [--hash 512] [--kill-after 60] [--down 10] [--redis URL] [--run ID]
// --kill-after S: the first worker is killed S seconds in and started again --down seconds
// later (0: no kill). Quiet machine: the workers use the cores.

import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { RedisServer } from "../match/redis-server.js";
import { UciProcess } from "../match/uci-process.js";

const { values } = parseArgs({
  options: {
    depth: { type: "string", default: "9" },
    workers: { type: "string", default: "2" },
    threads: { type: "string", default: "1" },
    hash: { type: "string", default: "512" },
    "kill-after": { type: "string", default: "60" },
    down: { type: "string", default: "10" },
    redis: { type: "string" },
    run: { type: "string" },
  },
});
const CLI = fileURLToPath(new URL("../build/cli.js", import.meta.url));
/** Start position perft counts (the Chess Programming Wiki's table). */
const KNOWN: Record<string, bigint> = { "7": 3195901860n, "8": 84998978956n, "9": 2439530234167n, "10": 69352859712417n, "11": 2097651003696806n };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const server = values.redis ? undefined : await RedisServer.start();
const url = values.redis ?? server!.url;
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const startWorker = (i: number) => {
  const w = new UciProcess(process.execPath, [CLI, "worker", "--redis", url, "--kinds", "perft", "--threads", values.threads!, "--hash", values.hash!, "--name", `local-${i}`]);
  w.listeners.push((l) => {
    if (!l.includes("counting batch")) log(l);
  });
  return w;
};
const workers = Array.from({ length: Number(values.workers) }, (_, i) => startWorker(i));
try {
  log(`perft(${values.depth}) of the start position over ${url}: ${workers.length} workers × ${values.threads} thread(s), ${values.hash} MB each`);
  const coordinator = new UciProcess(process.execPath, [CLI, "perft", "--depth", values.depth!, "--redis", url, "--no-progress", ...(values.run ? ["--run", values.run] : [])]);
  const result = coordinator.waitFor((l) => l.startsWith("{"), 0);
  const killAfter = Number(values["kill-after"]);
  if (killAfter > 0) {
    await Promise.race([sleep(killAfter * 1000), result]);
    if (coordinator.alive) {
      workers[0].kill();
      log(`worker local-0 killed (kill -9)`);
      await sleep(Number(values.down) * 1000);
      workers[0] = startWorker(0);
      log(`worker local-0 started again`);
    }
  }
  const json = await result.catch((err: Error) => {
    throw new Error(`${err.message}: ${coordinator.stderr}`);
  });
  log(json);
  const nodes = BigInt(/"nodes":(\d+)/.exec(json)![1]);
  const known = KNOWN[values.depth!];
  log(known === undefined ? "no known count for this depth" : nodes === known ? `exact: ${nodes} is perft(${values.depth})` : `WRONG: ${nodes}, perft(${values.depth}) is ${known}`);
  if (known !== undefined && nodes !== known) process.exitCode = 1;
} finally {
  for (const w of workers) w.kill();
  await server?.dispose();
}
