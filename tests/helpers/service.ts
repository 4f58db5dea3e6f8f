// The services' test fixture: a redis-server of its own (started before a suite, stopped
// after), processes of the package's command line (service, workers) killed after each test,
// Redis emptied after each test, a temporary directory, and a client of the service's API.
// Call serviceFixture() inside the suite's describe.
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { UciProcess } from "../../match/uci-process.js";
import { RedisServer } from "../../match/redis-server.js";
import { CLI, sleep } from "./cli.js";
import { callService } from "../../services/client.js";
import type { ServiceReply } from "../../services/client.js";

export const TOKEN = "test-token-0123456789";

export type ApiReply = ServiceReply;

export class ServiceFixture {
  redis!: RedisServer;
  client!: Redis;
  dir!: string;
  private readonly processes: UciProcess[] = [];

  /** Starts the CLI with these arguments (killed after the test). */
  start(args: string[]): UciProcess {
    const p = new UciProcess(process.execPath, [CLI, ...args]);
    this.processes.push(p);
    return p;
  }

  /** Starts `wasmchess service` on a free port with the test token; its URL. */
  async startService(): Promise<{ service: UciProcess; url: string }> {
    const service = this.start(["service", "--redis", this.redis.url, "--port", "0", "--token", TOKEN, "--data", join(this.dir, "service")]);
    const line = await service.waitFor((l) => l.startsWith("service: listening on "), 20_000).catch((err: Error) => {
      throw new Error(`${err.message}: ${service.stderr}`);
    });
    return { service, url: line.match(/http:\/\/[\d.]+:\d+/)![0] };
  }

  /** Starts `wasmchess worker` with a stall time of 1 s. */
  worker(name: string, kinds: string, extra: string[] = []): UciProcess {
    return this.start(["worker", "--redis", this.redis.url, "--kinds", kinds, "--name", name, "--stall-seconds", "1", ...extra]);
  }

  /** An API call with the token (or another); bytes go as they are, anything else as JSON. */
  api(url: string, method: string, path: string, body?: unknown, token = TOKEN): Promise<ApiReply> {
    return callService(url, token, method, path, body);
  }

  /** Uploads a file (route: engines, networks, openings); its hash. */
  async upload(url: string, route: string, bytes: Uint8Array, name: string): Promise<string> {
    const r = await this.api(url, "POST", `/api/${route}?name=${name}`, bytes);
    expect(r.status, r.text).toBe(201);
    return r.json.sha256;
  }

  /** Waits until the run is in one of the states; throws when it failed instead. */
  async waitFor(url: string, id: string, states: string[], timeoutMs = 120_000): Promise<any> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const { json } = await this.api(url, "GET", `/api/runs/${id}`);
      if (states.includes(json.state)) return json;
      if (json.state === "failed") throw new Error(`run ${id} failed: ${json.error}`);
      if (Date.now() > end) throw new Error(`run ${id} is ${json.state} after ${timeoutMs} ms: ${JSON.stringify(json.status)}`);
      await sleep(100);
    }
  }

  /** Kills (kill -9) every process the test started, and checks that what they started (the
   *  workers' sandboxed processors, a test's engines) ends with them rather than running on. */
  async killAll(): Promise<void> {
    const started = this.processes.flatMap((p) => (p.pid === undefined ? [] : descendants(p.pid)));
    for (const p of this.processes.splice(0)) p.kill();
    await expectEnded(started);
  }
}

/** The fixture, with its hooks registered in the calling suite. */
export function serviceFixture(prefix: string): ServiceFixture {
  const f = new ServiceFixture();
  beforeAll(async () => {
    f.redis = await RedisServer.start();
    f.client = new Redis(f.redis.url, { maxRetriesPerRequest: null });
    f.client.on("error", () => undefined);
    f.dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  });
  afterEach(async () => {
    await f.killAll();
    await f.client.flushall();
  });
  afterAll(async () => {
    f.client?.disconnect();
    await f.redis?.dispose();
    if (f.dir) rmSync(f.dir, { recursive: true, force: true });
  });
  return f;
}

/** The live descendants of a process (children first, by pgrep -P). */
export function descendants(pid: number): number[] {
  let children: number[];
  try {
    children = execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" }).split("\n").filter(Boolean).map(Number);
  } catch {
    return []; // pgrep exits 1 when there are none
  }
  return children.flatMap((c) => [c, ...descendants(c)]);
}

/** Whether a process still runs (a zombie, exited but not reaped, does not). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** Waits up to 5 s for the processes to end; fails naming those still running. */
export async function expectEnded(pids: number[]): Promise<void> {
  for (let t = 0; pids.some(running) && t < 100; t++) await sleep(50);
  const left = pids.filter(running).map((pid) => `${pid} ${readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").slice(0, 120)}`);
  expect(left, "processes still running after the process that started them was killed").toEqual([]);
}
