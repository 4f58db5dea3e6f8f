// The distributed perft on a real redis-server (started here), with real worker and
// coordinator processes of the package's command line: exact totals through a worker killed
// with kill -9 mid-batch (restarted, or gone for good), a coordinator killed and started
// again, Redis restarted from its append-only file, a worker of another engine version, and
// bad job payloads.
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { UciProcess } from "../../match/uci-process.js";
import { CHESS960_PERFT_SUITE, readPerftSuite } from "../../match/perft.js";
import { CLI, sleep } from "../helpers/cli.js";
import { describeWithOracle } from "../helpers/oracles.js";
import { REDIS_SERVER, RedisServer } from "../../match/redis-server.js";
import { jobId, queueName, runKeys } from "../../services/perft/batch.js";
import { KEY_PREFIX } from "../../services/registry.js";
import { perftSignature } from "../../services/perft/signature.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** perft(7) of the start position: in 4 batches of 100 positions (split at ply 2), each some
 *  tenths of a second, long enough to kill a worker in the middle of one. */
const PERFT7 = 3195901860n;
const SLOW = ["--depth", "7", "--split-ply", "2", "--batches", "4"];

let redis: RedisServer;
let client: Redis;
const processes: UciProcess[] = [];

function start(args: string[], cli = CLI): UciProcess {
  const p = new UciProcess(process.execPath, [cli, ...args]);
  processes.push(p);
  return p;
}

function worker(name: string, cli = CLI): UciProcess {
  return start(["worker", "--redis", redis.url, "--name", name, "--stall-seconds", "1"], cli);
}

function coordinator(args: string[]): UciProcess {
  return start(["perft", "--redis", redis.url, "--no-progress", ...args]);
}

/** The final JSON line of a coordinator, with nodes as a bigint. */
async function result(c: UciProcess, timeoutMs = 50_000): Promise<{ nodes: bigint; verified?: boolean; run: string; workers: number }> {
  const line = await c.waitFor((l) => l.startsWith("{"), timeoutMs).catch((err: Error) => {
    throw new Error(`${err.message}; coordinator ${c.exitDescription}: ${c.stderr}`);
  });
  const json = JSON.parse(line.replace(/"nodes":(\d+)/, '"nodes":"$1"'));
  return { ...json, nodes: BigInt(json.nodes) };
}

/** Kills the worker (kill -9) once it has started a batch, before it finishes it; returns the
 *  batch's job id. */
async function killMidBatch(w: UciProcess): Promise<string> {
  const line = await w.waitFor((l) => l.includes("counting batch"), 30_000);
  w.kill();
  const id = line.replace(/.*counting batch /, "");
  await new Promise<void>((resolve) => (w.alive ? w.exitListeners.push(resolve) : resolve()));
  return id;
}

describeWithOracle("redis-server", existsSync(REDIS_SERVER), "perft on Redis and BullMQ: workers, faults, exact totals", () => {
  beforeAll(async () => {
    redis = await RedisServer.start();
    client = new Redis(redis.url, { maxRetriesPerRequest: null });
    client.on("error", () => undefined); // while Redis restarts
  });

  afterEach(async () => {
    for (const p of processes.splice(0)) p.kill();
    await client.flushall();
  });

  afterAll(async () => {
    client?.disconnect();
    await redis?.dispose();
  });

  it("counts a perft on two workers, counted twice with other keys and compared batch by batch (--verify)", async () => {
    worker("w1");
    worker("w2");
    const r = await result(coordinator(["--depth", "6", "--batches", "20", "--verify"]));
    expect(r.nodes).toBe(119060324n);
    expect(r.verified).toBe(true);
    // Each batch and pass stored once.
    expect(await client.hlen(runKeys(r.run).results)).toBe(40);
  });

  it("counts Chess960 positions (the suite's counts, from Stockfish) with their castling", async () => {
    worker("w");
    for (const { fen, counts } of readPerftSuite(CHESS960_PERFT_SUITE).slice(0, 3)) {
      const r = await result(start(["perft", "--redis", redis.url, "--no-progress", "--chess960", "--depth", "5", "--fen", fen, "--batches", "10"]));
      expect(r.nodes, fen).toBe(counts[4]);
    }
  });

  it("stays exact when a worker is killed with kill -9 mid-batch and started again, and when one is gone for good", async () => {
    const w1 = worker("w1");
    const c = coordinator([...SLOW, "--run", "killed"]);
    const orphaned = await killMidBatch(w1);
    expect(orphaned).toMatch(/^killed\.p1\.b\d$/);
    const w2 = worker("w1-again");
    const r = await result(c);
    expect(r.nodes).toBe(PERFT7);
    // The batch the killed worker had was counted by the other.
    const stored = JSON.parse((await client.hget(runKeys("killed").results, `1:${orphaned.split(".b")[1]}`))!);
    expect(stored.worker).toBe("w1-again");
    w2.kill();

    // Two workers, one killed mid-batch and never back.
    const a = worker("a");
    worker("b");
    const c2 = coordinator([...SLOW, "--run", "gone"]);
    await killMidBatch(a);
    const r2 = await result(c2);
    expect(r2.nodes).toBe(PERFT7);
    expect(await client.hlen(runKeys("gone").results)).toBe(4);
  });

  it("continues a run after its coordinator is killed, with the same --run; a batch delivered twice is counted once; another perft under that id is refused", async () => {
    const c1 = coordinator([...SLOW, "--run", "restart"]);
    let first;
    while (!(first = await client.hget(`${KEY_PREFIX}:${queueName(perftSignature())}:${jobId("restart", 1, 0)}`, "data"))) await sleep(20);
    const w = worker("w");
    while ((await client.hlen(runKeys("restart").results)) < 1) await sleep(50);
    c1.kill();
    const c2 = coordinator([...SLOW, "--run", "restart"]);
    expect((await result(c2)).nodes).toBe(PERFT7);
    expect(c2.stderr).toMatch(/perft run restart \(continued\)/);

    // Batch 0 delivered again (as an at-least-once queue may): counted again by the worker,
    // stored once; the finished run, asked again, prints the same total.
    const realQueue = new Queue(queueName(perftSignature()), { connection: client, prefix: KEY_PREFIX });
    await realQueue.add("perft-batch", JSON.parse(first), { jobId: jobId("restart", 1, 0) });
    let twice = 0;
    w.listeners.push((l) => (twice += l.includes(`batch ${jobId("restart", 1, 0)}: `) ? 1 : 0));
    while (twice < 1) await sleep(50);
    const again = spawnSync(process.execPath, [CLI, "perft", "--redis", redis.url, "--no-progress", ...SLOW, "--run", "restart"], { encoding: "utf8", timeout: 30_000 });
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/"nodes":3195901860,/);
    expect(await client.hlen(runKeys("restart").results)).toBe(4);
    expect(await realQueue.getJobState(jobId("restart", 1, 0))).toBe("unknown"); // recorded, then removed
    await realQueue.close();

    const other = spawnSync(process.execPath, [CLI, "perft", "--redis", redis.url, "--no-progress", "--depth", "6", "--run", "restart"], { encoding: "utf8", timeout: 30_000 });
    expect(other.status).toBe(1);
    expect(other.stderr).toMatch(/^wasmchess: run restart is another perft \(its depth is 7, splitPly is 2, batches is 4, positions is 400\); give another --run or the same settings\n$/);
  });

  it("stays exact when Redis is restarted mid-run (its append-only file kept)", async () => {
    const c = coordinator([...SLOW, "--run", "redis-restart"]);
    worker("w");
    while ((await client.hlen(runKeys("redis-restart").results)) < 1) await sleep(50);
    await redis.stop();
    await sleep(500);
    await redis.resume();
    expect((await result(c)).nodes).toBe(PERFT7);
  });

  it("gives no batch to a worker of another engine version (it reports its signature), and the run goes on when a worker of this one comes", async () => {
    // Another version: the package with one byte more in its engine module (a custom section).
    const other = mkdtempSync(join(tmpdir(), "wasmchess-other-"));
    try {
      cpSync(join(ROOT, "build"), join(other, "build"), { recursive: true });
      cpSync(join(ROOT, "package.json"), join(other, "package.json"));
      symlinkSync(join(ROOT, "node_modules"), join(other, "node_modules"));
      const wasm = join(other, "build", "wasmchess.wasm");
      writeFileSync(wasm, Buffer.concat([readFileSync(wasm), Buffer.from([0, 2, 1, 0x78])])); // custom section "x"
      const stranger = worker("stranger", join(other, "build", "cli.js"));
      const signature = (await stranger.waitFor((l) => l.includes("waiting for jobs"))).replace(/.*engine (\S+),.*/, "$1");
      const c = coordinator(["--depth", "5", "--run", "versions"]);
      while (!c.stderr.includes("worker stranger")) await sleep(100);
      expect(c.stderr).toMatch(new RegExp(`worker stranger \\(.*\\) runs engine ${signature}, not wasmchess-\\S+: it takes no batches of this run`));
      await sleep(1500);
      expect(await client.hlen(runKeys("versions").results)).toBe(0);
      worker("native");
      expect((await result(c)).nodes).toBe(4865609n);
      const counted = Object.values(await client.hgetall(runKeys("versions").results)).map((j) => JSON.parse(j).worker);
      expect(new Set(counted)).toEqual(new Set(["native"]));
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("fails a bad job payload with a reason and keeps working", async () => {
    const w = worker("w");
    const line = await w.waitFor((l) => l.includes("waiting for jobs"));
    const signature = line.replace(/.*engine (\S+),.*/, "$1");
    const queue = new Queue(queueName(signature), { connection: new Redis(redis.url, { maxRetriesPerRequest: null }), prefix: KEY_PREFIX });
    try {
      // Both waited for before the jobs go: the two lines may come in one read of the pipe.
      const failed = [0, 1].map((b) => w.waitFor((l) => l.includes(`${jobId("x", 1, b)} failed`), 20_000));
      await queue.add("perft-batch", { v: 1, signature, run: "x", pass: 1 }, { jobId: jobId("x", 1, 0) });
      await queue.add("perft-batch", { v: 2 }, { jobId: jobId("x", 1, 1) });
      expect(await failed[0]).toMatch(/failed: bad perft batch: chess960 must be a boolean/);
      expect(await failed[1]).toMatch(/bad perft batch: record version 2, this worker reads version 1/);
      expect((await result(coordinator(["--depth", "5"]))).nodes).toBe(4865609n);
    } finally {
      await queue.close();
    }
  });

  it("refuses options that are the workers' and an unreachable Redis, in one line", () => {
    const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", timeout: 30_000 });
    const hash = run("perft", "--depth", "5", "--redis", redis.url, "--hash", "16");
    expect(hash.status).toBe(2);
    expect(hash.stderr).toBe("wasmchess: --hash is not an option of a perft on Redis: the workers count (wasmchess worker --threads N --hash MB)\n");
    const orphan = run("perft", "--depth", "5", "--run", "x");
    expect(orphan.status).toBe(2);
    expect(orphan.stderr).toBe("wasmchess: --run needs --redis\n");
    const nowhere = run("perft", "--depth", "5", "--redis", "redis://127.0.0.1:1");
    expect(nowhere.status).toBe(1);
    expect(nowhere.stderr).toMatch(/^wasmchess: cannot reach Redis at redis:\/\/127\.0\.0\.1:1/);
    const notUrl = run("worker", "--redis", "localhost:6379");
    expect(notUrl.status).toBe(1);
    expect(notUrl.stderr).toBe('wasmchess: not a Redis URL: "localhost:6379" (redis://host:port)\n');
  });
});
