// The service's faults, each with its totals: the same run twice, once undisturbed and once
// through the fault, compared. A data run's records (their SHA-256), a test's W/D/L and
// pentanomial counts and games move for move (fixed nodes: the same games), an analysis's
// annotated games. Faults: a worker killed with kill -9 in the middle of a job (and started
// again), the service killed with kill -9 and started again, Redis stopped and started again
// from its append-only file, and a worker whose results do not add up. A redis-server of its
// own is started in a temporary directory and stopped after.
//   npx tsx bench/service-faults.ts [--positions 3000] [--games 24] [--nodes 1000]

import { parseArgs } from "node:util";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "bullmq";
import type { Job } from "bullmq";
import { Redis } from "ioredis";
import { RedisServer } from "../match/redis-server.js";
import { UciProcess } from "../match/uci-process.js";
import { codeSignature } from "../services/code-signature.js";
import { dataQueueName } from "../services/data/run.js";
import { KEY_PREFIX } from "../services/registry.js";
import { requireService } from "../services/client.js";

const { values } = parseArgs({
  options: {
    positions: { type: "string", default: "3000" },
    games: { type: "string", default: "24" },
    nodes: { type: "string", default: "1000" },
  },
});
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "build/cli.js");
const TOKEN = "bench-token-0123456789";
const dir = mkdtempSync(join(tmpdir(), "service-faults-"));
const redis = await RedisServer.start();
const processes: UciProcess[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function start(args: string[]): UciProcess {
  const p = new UciProcess(process.execPath, [CLI, ...args]);
  processes.push(p);
  return p;
}
async function startService(): Promise<{ service: UciProcess; url: string }> {
  const service = start(["service", "--redis", redis.url, "--port", "0", "--token", TOKEN, "--data", join(dir, "service")]);
  return { service, url: (await service.waitFor((l) => l.startsWith("service: listening on "), 20_000)).match(/http:\/\/[\d.]+:\d+/)![0] };
}
const worker = (name: string) => start(["worker", "--redis", redis.url, "--kinds", "data,match,analysis", "--name", name, "--stall-seconds", "2"]);
async function api(url: string, method: string, path: string, body?: Uint8Array | object): Promise<any> {
  const reply = await requireService(url, TOKEN, method, path, body);
  return path.endsWith(".pgn") ? reply.text : reply.json;
}
async function done(url: string, id: string): Promise<any> {
  for (;;) {
    const r = await api(url, "GET", `/api/runs/${id}`);
    if (r.state === "done") return r;
    if (r.state === "failed") throw new Error(`run ${id} failed: ${r.error}`);
    await sleep(200);
  }
}
const sha = (b: Buffer | string) => createHash("sha256").update(b).digest("hex").slice(0, 16);
const movesOnly = (pgn: string) => pgn.split(/\n(?=\[Event )/).map((g) => g.replace(/\[[^\]]*\]\s*/g, "").replace(/\{[^}]*\}/g, "").replace(/\d+\.(\.\.)?/g, "").replace(/\s+/g, " ").trim()).join("\n");

type Fault = "none" | "worker killed" | "service killed" | "Redis restarted" | "lying worker";

/** Applies a fault once the run has some results (or, for a worker, once it has a job:
 *  `busy` was set up before the run was submitted, so that its line is not missed). */
async function inflict(fault: Fault, url: string, id: string, svc: { service: UciProcess; url: string }, workers: UciProcess[], busy: Promise<string>): Promise<{ url: string }> {
  const progressed = async () => {
    for (;;) {
      const s = (await api(url, "GET", `/api/runs/${id}`)).status;
      if ((s.chunks ?? s.tasks ?? s.analysed ?? 0) >= 1) return;
      await sleep(50);
    }
  };
  if (fault === "worker killed") {
    await busy;
    await sleep(200);
    workers[0].kill();
    await sleep(500);
    workers[0] = worker("w0-again");
  } else if (fault === "service killed") {
    await progressed();
    svc.service.kill();
    await sleep(500);
    return { url: (await startService()).url };
  } else if (fault === "Redis restarted") {
    await progressed();
    await redis.stop();
    await sleep(1000);
    await redis.resume();
  }
  return { url };
}

async function once(kind: "data" | "match" | "analysis", fault: Fault): Promise<string> {
  const svc = await startService();
  let { url } = svc;
  const engine = (await api(url, "POST", "/api/engines?name=classical", new Uint8Array(readFileSync(join(ROOT, "build/wasmchess.wasm"))))).sha256 as string;
  const id = `${kind}-${fault.replace(/\s+/g, "-")}`;
  let liar: Worker | undefined;
  const liarConnection = new Redis(redis.url, { maxRetriesPerRequest: null, lazyConnect: true });
  liarConnection.on("error", () => undefined);
  if (fault === "lying worker" && kind === "data") {
    liar = new Worker(dataQueueName(codeSignature()), async (job: Job) => ({ ...job.data, v: 1, worker: "liar", seconds: 0, games: [], records: "" }), {
      connection: liarConnection, prefix: KEY_PREFIX,
    });
  }
  const workers = [worker("w0"), worker("w1")];
  const busy = workers[0].waitFor((l) => /playing|analysing/.test(l), 120_000);
  busy.catch(() => undefined);
  const nodes = Number(values.nodes);
  const body = kind === "data"
    ? { kind, id, engine, positions: Number(values.positions), chunkGames: 4, settings: { nodes, seed: 7, hashMb: 1 } }
    : kind === "match"
      ? { kind, id, games: Number(values.games), pairsPerTask: 2, limits: { nodes }, openings: "builtin", seed: 3,
          engines: [{ name: "a", engine, options: { Hash: 1 } }, { name: "b", engine, options: { Hash: 2 } }] }
      : { kind, id, engine, nodes: 20 * nodes, pgn: readFileSync(join(ROOT, "tests/data/book-games.pgn"), "utf8") };
  await api(url, "POST", "/api/runs", body);
  if (liar) {
    await sleep(3000);
    await liar.close();
  }
  liarConnection.disconnect();
  ({ url } = await inflict(fault, url, id, svc, workers, busy));
  const run = await done(url, id);
  const pgn = kind === "data" ? "" : ((await api(url, "GET", `/api/runs/${id}/games.pgn`)) as string);
  for (const p of processes.splice(0)) p.kill();
  const client = new Redis(redis.url);
  client.on("error", () => undefined);
  await client.flushall().catch(() => undefined);
  client.disconnect();
  if (kind === "data") {
    const records = readFileSync(join(dir, "service", id, "positions.bin"));
    return `${run.status.positions} positions, ${run.status.games} games, records ${sha(records)}`;
  }
  if (kind === "match") {
    const s = run.status;
    return `W-L-D ${s.tri.wins}-${s.tri.losses}-${s.tri.draws}, pairs [${s.penta.join(", ")}], games ${sha(movesOnly(pgn))}`;
  }
  const m = run.status.marks;
  return `${run.status.analysed} games, ?? ${m.white.blunder}+${m.black.blunder}, ? ${m.white.mistake}+${m.black.mistake}, PGN ${sha(pgn.replace(/\[Date[^\]]*\]/g, ""))}`;
}

try {
  const cases: ["data" | "match" | "analysis", Fault[]][] = [
    ["data", ["worker killed", "service killed", "Redis restarted", "lying worker"]],
    ["match", ["worker killed", "service killed", "Redis restarted"]],
    ["analysis", ["worker killed", "service killed"]],
  ];
  console.log("| run | fault | undisturbed | with the fault | same |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const [kind, faults] of cases) {
    const before = await once(kind, "none");
    for (const fault of faults) {
      const after = await once(kind, fault);
      console.log(`| ${kind} | ${fault} | ${before} | ${after} | ${before === after ? "yes" : "NO"} |`);
    }
  }
} catch (err) {
  console.error(err instanceof Error ? err.stack : err);
  process.exitCode = 1;
} finally {
  for (const p of processes) p.kill();
  await redis.dispose();
  rmSync(dir, { recursive: true, force: true });
  process.exit(); // no connection left retrying keeps it alive
}
