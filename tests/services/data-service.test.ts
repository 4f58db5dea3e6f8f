// Self-play data through the service, on a real redis-server (started here), with real
// service and worker processes of the package's command line: the records equal those
// `npm run datagen` writes for the same seed, engine and settings, through a worker killed
// with kill -9 mid-chunk, the service killed and started again, Redis stopped and started
// again, a run cancelled and resumed, and a worker whose results do not add up (refused and
// flagged); the API wants its token and names the field of a bad payload. A killed worker's
// sandboxed processors end with it (every test of the fixture checks that of what it kills).
import { expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "bullmq";
import type { Job } from "bullmq";
import { Redis } from "ioredis";
import { sleep } from "../helpers/cli.js";
import { describeWithOracle } from "../helpers/oracles.js";
import { TOKEN, descendants, expectEnded, serviceFixture } from "../helpers/service.js";
import { REDIS_SERVER } from "../../match/redis-server.js";
import { KEY_PREFIX } from "../../services/registry.js";
import { codeSignature } from "../../services/code-signature.js";
import { dataQueueName } from "../../services/data/run.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const ENGINE = join(ROOT, "build/wasmchess.wasm");
/** Short games: their records are still the real thing (datagen's, for the same settings). */
const NODES = 400;

describeWithOracle("redis-server", existsSync(REDIS_SERVER), "self-play data through the service and its workers", () => {
  const f = serviceFixture("data-service");
  const worker = (name: string) => f.worker(name, "data");
  const api = f.api.bind(f);
  const waitFor = (url: string, id: string, state: string) => f.waitFor(url, id, [state]);
  const uploadEngine = (url: string) => f.upload(url, "engines", new Uint8Array(readFileSync(ENGINE)), "wasmchess.wasm");

  async function submit(url: string, engine: string, id: string, positions: number, chunkGames: number, seed: number): Promise<void> {
    const r = await api(url, "POST", "/api/runs", { kind: "data", id, engine, positions, chunkGames, settings: { nodes: NODES, seed, hashMb: 1 } });
    expect(r.status, r.text).toBe(201);
  }

  /** The run's records, and what datagen writes for the same seed (one thread, the same engine,
   *  nodes and table) asked for as many positions: datagen stops after the game that reaches
   *  them, so the two files are equal when every game's records are. */
  function againstDatagen(id: string, seed: number): { service: Buffer; datagen: Buffer } {
    const service = readFileSync(join(f.dir, "service", id, "positions.bin"));
    const out = join(f.dir, `datagen-${id}-${seed}`);
    execFileSync("npx", ["tsx", "learn/datagen.ts", "--out", out, "--positions", String(service.length / 32), "--nodes", String(NODES), "--seed", String(seed), "--threads", "1", "--hash", "1", "--engine", ENGINE], {
      cwd: ROOT, stdio: "pipe", timeout: 120_000,
    });
    return { service, datagen: readFileSync(join(out, "positions.bin")) };
  }

  it("writes the records datagen writes for the same seed, on two workers, with datagen's progress file", async () => {
    const { url } = await f.startService();
    worker("w1");
    worker("w2");
    const engine = await uploadEngine(url);
    await submit(url, engine, "same", 300, 2, 21);
    const run = await waitFor(url, "same", "done");
    expect(run.status.positions).toBeGreaterThanOrEqual(300);
    const progress = JSON.parse(readFileSync(join(f.dir, "service", "same", "datagen.json"), "utf8"));
    expect(progress.positions).toBe(run.status.positions);
    expect(progress.games % 2).toBe(0);
    expect(progress.engine).toBe(engine.slice(0, 16));
    const { service, datagen } = againstDatagen("same", 21);
    expect(service.length).toBe(run.status.positions * 32);
    expect(service.equals(datagen)).toBe(true);
    // Another seed gives other games: the comparison can fail.
    expect(service.equals(againstDatagen("same", 22).datagen)).toBe(false);
    // Both workers played.
    const workers = (await api(url, "GET", "/api/workers")).json as { name: string; done: { data?: number } }[];
    expect(workers.map((w) => w.name)).toEqual(["w1", "w2"]);
  });

  it("loses and repeats no game when a worker is killed mid-chunk and the service is killed and started again", async () => {
    let { service, url } = await f.startService();
    const engine = await uploadEngine(url);
    const w1 = worker("w1");
    await submit(url, engine, "faults", 1000, 4, 31);
    await w1.waitFor((l) => l.includes("playing chunk"), 30_000);
    await sleep(150);
    const processors = descendants(w1.pid!);
    expect(processors.length).toBeGreaterThan(0);
    w1.kill(); // kill -9, in the middle of a chunk
    await expectEnded(processors); // its sandboxed processors too, not left playing as orphans
    worker("w2");
    // The service killed (kill -9) once some chunks are written, and started again.
    while (((await api(url, "GET", "/api/runs/faults")).json.status?.chunks ?? 0) < 2) await sleep(50);
    service.kill();
    await sleep(500);
    ({ service, url } = await f.startService());
    const run = await waitFor(url, "faults", "done");
    const { service: records, datagen } = againstDatagen("faults", 31);
    expect(records.length).toBe(run.status.positions * 32);
    expect(records.equals(datagen)).toBe(true);
  });

  it("ends the workers' processors with them, also those still playing a chunk the finished run no longer needs", async () => {
    // A processor busy in a game when its worker is killed finds the IPC channel broken; BullMQ's
    // child then fails the job and spins on sending the failure (EPIPE), for ever, unless it
    // notices that its worker is gone.
    const { url } = await f.startService();
    const engine = await uploadEngine(url);
    const workers = [worker("w1"), worker("w2")];
    const r = await api(url, "POST", "/api/runs", { kind: "data", id: "tail", engine, positions: 1000, chunkGames: 16, settings: { nodes: 5000, seed: 5, hashMb: 1 } });
    expect(r.status, r.text).toBe(201);
    await waitFor(url, "tail", "done");
    const processors = workers.flatMap((w) => descendants(w.pid!));
    expect(processors.length).toBeGreaterThan(0);
    for (const w of workers) w.kill();
    await expectEnded(processors);
  });

  it("loses and repeats no game when Redis is stopped mid-run and started again from its append-only file", async () => {
    const { url } = await f.startService();
    const engine = await uploadEngine(url);
    worker("w1");
    worker("w2");
    await submit(url, engine, "redis", 800, 2, 61);
    while (((await api(url, "GET", "/api/runs/redis")).json.status?.chunks ?? 0) < 2) await sleep(50);
    await f.redis.stop();
    await sleep(1000);
    await f.redis.resume();
    const run = await waitFor(url, "redis", "done");
    const { service, datagen } = againstDatagen("redis", 61);
    expect(service.length).toBe(run.status.positions * 32);
    expect(service.equals(datagen)).toBe(true);
  });

  it("is what npm run datagen -- --service URL runs: the same files as datagen on this machine", async () => {
    const { url } = await f.startService();
    worker("w");
    const args = (out: string) => ["tsx", "learn/datagen.ts", "--out", join(f.dir, out), "--positions", "300", "--nodes", String(NODES), "--seed", "71", "--hash", "1", "--engine", ENGINE];
    const log = execFileSync("npx", [...args("svc1"), "--service", url, "--token", TOKEN, "--progress-every", "1"], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
    expect(log).toMatch(/data run svc1 submitted/);
    execFileSync("npx", [...args("local1"), "--threads", "1"], { cwd: ROOT, stdio: "pipe", timeout: 120_000 });
    const service = readFileSync(join(f.dir, "svc1", "positions.bin"));
    const local = readFileSync(join(f.dir, "local1", "positions.bin"));
    // The service ends with a whole chunk: datagen's games are its first ones.
    expect(service.length).toBeGreaterThanOrEqual(local.length);
    expect(service.subarray(0, local.length).equals(local)).toBe(true);
    expect(JSON.parse(readFileSync(join(f.dir, "svc1", "datagen.json"), "utf8")).run).toBe("svc1");
  });

  it("continues a cancelled run where it stopped", async () => {
    const { url } = await f.startService();
    const engine = await uploadEngine(url);
    worker("w");
    await submit(url, engine, "paused", 500, 2, 41);
    while (((await api(url, "GET", "/api/runs/paused")).json.status?.chunks ?? 0) < 1) await sleep(50);
    const stopped = await api(url, "POST", "/api/runs/paused/cancel");
    expect(stopped.json.state).toBe("stopped");
    expect((await api(url, "POST", "/api/runs/paused/cancel")).status).toBe(409);
    await sleep(1000);
    const chunks = (await api(url, "GET", "/api/runs/paused")).json.status.chunks;
    await sleep(1000);
    expect((await api(url, "GET", "/api/runs/paused")).json.status.chunks).toBe(chunks);
    expect((await api(url, "POST", "/api/runs/paused/resume")).json.state).toBe("running");
    await waitFor(url, "paused", "done");
    const { service, datagen } = againstDatagen("paused", 41);
    expect(service.equals(datagen)).toBe(true);
  });

  it("refuses and flags a worker whose chunk's counts do not add up, and plays the chunk again", async () => {
    const { url } = await f.startService();
    const engine = await uploadEngine(url);
    // A worker that says it played one game less than its chunk has.
    const liar = new Worker(
      dataQueueName(codeSignature()),
      async (job: Job) => ({ v: 1, code: job.data.code, run: job.data.run, chunk: job.data.chunk, worker: "liar", seconds: 0, games: [{ index: job.data.firstGame, positions: 0, result: 1, ending: "threefold", plies: 1, discardedOpenings: 0, nodes: 0 }], records: "" }),
      { connection: new Redis(f.redis.url, { maxRetriesPerRequest: null }), prefix: KEY_PREFIX },
    );
    await submit(url, engine, "liar", 100, 2, 51);
    let flags;
    while (!(flags = (await api(url, "GET", "/api/flags")).json).flagged.liar) await sleep(50);
    await liar.close();
    expect(flags.recent[0].reason).toMatch(/has 1 games, the chunk 2/);
    worker("honest");
    await waitFor(url, "liar", "done");
    const { service, datagen } = againstDatagen("liar", 51);
    expect(service.equals(datagen)).toBe(true);
  });

  it("wants its token and names the field of a bad payload", async () => {
    const { url } = await f.startService();
    expect((await api(url, "GET", "/api/runs", undefined, "wrong-token-123")).status).toBe(401);
    expect((await fetch(`${url}/api/runs`)).status).toBe(401);
    expect((await api(url, "GET", "/api/health", undefined, "")).json.ok).toBe(true);
    const engine = await uploadEngine(url);
    const bad = async (body: unknown, field: RegExp) => {
      const r = await api(url, "POST", "/api/runs", body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error).toMatch(field);
    };
    await bad({ kind: "mine" }, /^kind:/);
    await bad({ kind: "perft" }, /^depth:/);
    await bad({ kind: "data", engine: "xyz", positions: 10 }, /^engine:/);
    await bad({ kind: "data", engine, positions: -1 }, /^positions:/);
    await bad({ kind: "data", engine, positions: 10, settings: { nodes: 0 } }, /^settings\.nodes:/);
    await bad({ kind: "data", engine, positions: 10, settings: { randomPlies: [5, 2] } }, /^settings\.randomPlies:/);
    await bad({ kind: "data", engine, positions: 10, command: "rm -rf /" }, /command/);
    await bad({ kind: "data", engine: "0".repeat(64), positions: 10 }, /^engine: 0+ is not held/);
    expect((await api(url, "POST", "/api/engines", new Uint8Array([1, 2, 3]))).status).toBe(400);
    expect((await api(url, "GET", "/api/runs/nope")).status).toBe(404);
    // Nothing was made of them.
    expect((await api(url, "GET", "/api/runs")).json).toEqual([]);
  });
});
