// Self-play data through the service against the plain command: positions per second of a
// data run played by two local workers (one core each) through the service, and of `npm run
// datagen --threads 2` with the same seed, engine and settings, in the same invocation, and
// the queue's cost per chunk (the workers' wall time beside their time on the chunks). The
// issue's target: at least 95% of datagen's rate. A redis-server of its own is started in a
// temporary directory and stopped after. Wall-clock rates: run it on a quiet machine.
//   npx tsx bench/service-datagen.ts [--positions 20000] [--nodes 5000] [--seed 1] [--chunk-games 16]
//       [--engine build/wasmchess.wasm] [--runs 1]

import { parseArgs } from "node:util";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { RedisServer } from "../match/redis-server.js";
import { UciProcess } from "../match/uci-process.js";
import { requireService } from "../services/client.js";

const { values } = parseArgs({
  options: {
    positions: { type: "string", default: "20000" },
    nodes: { type: "string", default: "5000" },
    seed: { type: "string", default: "1" },
    "chunk-games": { type: "string", default: "16" },
    engine: { type: "string", default: fileURLToPath(new URL("../build/wasmchess.wasm", import.meta.url)) },
    runs: { type: "string", default: "1" },
  },
});
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "build/cli.js");
const TOKEN = "bench-token-0123456789";
const positions = Number(values.positions);
const dir = mkdtempSync(join(tmpdir(), "service-datagen-"));
const redis = await RedisServer.start();

async function api(url: string, method: string, path: string, body?: Uint8Array | object): Promise<any> {
  return (await requireService(url, TOKEN, method, path, body)).json;
}

/** One data run through the service and two one-core workers: positions per second from the
 *  run's submission to its end, and what the workers spent on the chunks. */
async function throughService(run: number): Promise<{ rate: number; positions: number; chunks: number; wallSeconds: number; workSeconds: number }> {
  const service = new UciProcess(process.execPath, [CLI, "service", "--redis", redis.url, "--port", "0", "--token", TOKEN, "--data", join(dir, "service")]);
  const workers = [0, 1].map((i) => new UciProcess(process.execPath, [CLI, "worker", "--redis", redis.url, "--kinds", "data", "--cores", "1", "--name", `bench-${run}-${i}`]));
  const ready = Promise.all(workers.map((w) => w.waitFor((l) => l.includes("waiting for jobs"), 20_000)));
  try {
    const url = (await service.waitFor((l) => l.startsWith("service: listening on "), 20_000)).match(/http:\/\/[\d.]+:\d+/)![0];
    await ready;
    const { sha256 } = await api(url, "POST", "/api/engines?name=bench", new Uint8Array(readFileSync(values.engine!)));
    const id = `bench-${run}-${Date.now()}`;
    const start = performance.now();
    await api(url, "POST", "/api/runs", {
      kind: "data", id, engine: sha256, positions, chunkGames: Number(values["chunk-games"]), settings: { nodes: Number(values.nodes), seed: Number(values.seed) },
    });
    for (;;) {
      const r = await api(url, "GET", `/api/runs/${id}`);
      if (r.state === "failed") throw new Error(`run ${id} failed: ${r.error}`);
      if (r.state === "done") {
        const wallSeconds = (performance.now() - start) / 1000;
        return { rate: r.status.positions / wallSeconds, positions: r.status.positions, chunks: r.status.chunks, wallSeconds, workSeconds: r.status.workSeconds };
      }
      await new Promise((res) => setTimeout(res, 200));
    }
  } finally {
    for (const w of workers) w.kill();
    service.kill();
  }
}

/** The plain command on two threads, the same settings. */
function plain(run: number): { rate: number; positions: number; seconds: number } {
  const out = join(dir, `plain-${run}`);
  const start = performance.now();
  execFileSync("npx", ["tsx", "learn/datagen.ts", "--out", out, "--positions", String(positions), "--nodes", values.nodes!, "--seed", values.seed!, "--threads", "2", "--engine", values.engine!], { cwd: ROOT, stdio: "pipe" });
  const seconds = (performance.now() - start) / 1000;
  const done = JSON.parse(readFileSync(join(out, "datagen.json"), "utf8")).positions as number;
  return { rate: done / seconds, positions: done, seconds };
}

try {
  console.log(`self-play data, ${positions} positions at ${values.nodes} nodes per move, seed ${values.seed}, engine ${values.engine}; redis-server ${redis.url}`);
  const ratios: number[] = [];
  for (let i = 0; i < Number(values.runs); i++) {
    // In turn first and second (ABBA over runs), so that a drift of the machine's speed
    // during the invocation falls on both alike.
    let p, s;
    if (i % 2 === 0) {
      p = plain(i);
      s = await throughService(i);
    } else {
      s = await throughService(i);
      p = plain(i);
    }
    const overheadMs = (1000 * (2 * s.wallSeconds - s.workSeconds)) / s.chunks;
    console.log(`run ${i + 1}: datagen --threads 2 ${p.rate.toFixed(1)} positions/s (${p.positions} in ${p.seconds.toFixed(1)} s); ` +
      `service, two workers ${s.rate.toFixed(1)} positions/s (${s.positions} in ${s.wallSeconds.toFixed(1)} s, ${s.chunks} chunks, ${s.workSeconds.toFixed(1)} s in the processors): ` +
      `${(100 * s.rate / p.rate).toFixed(1)}% of datagen (target: at least 95%); ${overheadMs.toFixed(0)} ms per chunk besides its games (two cores' wall time less the processors')`);
    ratios.push(s.rate / p.rate);
  }
  if (ratios.length > 1) {
    const mean = ratios.reduce((a, r) => a + r, 0) / ratios.length;
    console.log(`mean over ${ratios.length} runs: ${(100 * mean).toFixed(1)}% of datagen (runs ${ratios.map((r) => (100 * r).toFixed(1)).join(", ")})`);
  }
} finally {
  await redis.dispose();
  rmSync(dir, { recursive: true, force: true });
}
