// `wasmchess service --redis URL`: the coordinator of the services' runs (self-play data,
// test matches, game analysis, perft), their HTTP API and the dashboard.
// It keeps every run's state in Redis and its data files in --data DIR, so that stopped and
// started again (or with Redis restarted from its append-only file) it continues its runs
// where they were. It listens on 127.0.0.1 unless --host says otherwise, and every API call
// needs its token (--token or WASMCHESS_TOKEN; without one it makes one and prints it).

import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { Queue } from "bullmq";
import { codeSignature } from "./code-signature.js";
import { connect, connectOrFail } from "./redis.js";
import { KEY_PREFIX } from "./registry.js";
import { createApp } from "./http.js";
import { Core } from "../bindings/core.js";
import { parseOpenings } from "../match/openings.js";
import type { FileKind } from "./files.js";
import { DataRuns, dataQueueName } from "./data/run.js";
import { MatchRuns, matchQueueName } from "./matches/run.js";
import { AnalysisRuns, analysisQueueName } from "./analysis/run.js";
import { PerftRuns } from "./perft/run.js";
import { queueName as perftQueueName } from "./perft/batch.js";
import { perftSignature } from "./perft/signature.js";

export interface ServiceCommand {
  redis: string;
  host: string;
  /** 0: any free port (the line it prints says which). */
  port: number;
  token?: string;
  dataDir: string;
}

/** How often the coordinators collect results and write data. */
const POLL_MS = 250;

/** The dashboard's files: its own (copied next to this module by the build) and uPlot's. */
function dashboardFiles(): Record<string, { path: string; type: string }> {
  const own = fileURLToPath(new URL("./dashboard/", import.meta.url));
  const uplot = dirname(createRequire(import.meta.url).resolve("uplot/dist/uPlot.iife.min.js"));
  return {
    "index.html": { path: join(own, "index.html"), type: "text/html; charset=utf-8" },
    "dashboard.js": { path: join(own, "dashboard.js"), type: "text/javascript; charset=utf-8" },
    "dashboard.css": { path: join(own, "dashboard.css"), type: "text/css; charset=utf-8" },
    "uPlot.iife.min.js": { path: join(uplot, "uPlot.iife.min.js"), type: "text/javascript; charset=utf-8" },
    "uPlot.min.css": { path: join(uplot, "uPlot.min.css"), type: "text/css; charset=utf-8" },
  };
}

let rules: Promise<Core> | undefined;

/** An opening suite must read as positions (the match runner's reader, which names the line). */
async function checkOpenings(kind: FileKind, bytes: Uint8Array): Promise<void> {
  if (kind !== "openings") return;
  rules ??= Core.create({ build: "classical" });
  parseOpenings(new TextDecoder().decode(bytes), await rules, "openings");
}

/** Runs the service until SIGINT or SIGTERM. Its first line says where it listens:
 *  "service: listening on http://HOST:PORT". */
export async function runService(cmd: ServiceCommand, log: (line: string) => void = (l) => process.stdout.write(l + "\n")): Promise<void> {
  const code = codeSignature();
  const { version } = createRequire(import.meta.url)("#package.json") as { version: string };
  const token = cmd.token ?? randomBytes(16).toString("hex");
  const redis = await connectOrFail(cmd.redis);
  redis.on("error", () => undefined); // it reconnects; commands wait
  const queues = [dataQueueName(code), matchQueueName(code), analysisQueueName(code), perftQueueName(perftSignature())]
    .map((name) => new Queue(name, { connection: connect(cmd.redis), prefix: KEY_PREFIX }));
  for (const q of queues) q.on("error", () => undefined);
  const dataDir = resolve(cmd.dataDir);
  const byKind = {
    data: new DataRuns(redis, queues[0], dataDir, code, log),
    match: new MatchRuns(redis, queues[1], dataDir, code, log),
    analysis: new AnalysisRuns(redis, queues[2], dataDir, code, log),
    perft: new PerftRuns(redis, cmd.redis, queues[3], log),
  };
  const coordinators = Object.values(byKind);
  for (const c of coordinators) await c.start();

  const app = createApp({ redis, coordinators: byKind, token, version, code, checkUpload: checkOpenings, dashboard: dashboardFiles() });
  const server = await new Promise<ReturnType<typeof serve>>((ready, fail) => {
    // Node closes an idle keep-alive connection after 5 s by default. A client whose event loop
    // was busy for about that long (a script running datagen or a search synchronously between
    // two calls) can send its next request just as the service closes the socket ("other side
    // closed", seen in the data service's tests on a loaded machine). Clients close their idle
    // sockets long before a minute.
    const serverOptions = { keepAliveTimeout: 65_000 };
    const s = serve({ fetch: app.fetch, port: cmd.port, hostname: cmd.host, serverOptions }, (info) => {
      log(`service: listening on http://${cmd.host}:${info.port} (code ${code}; data in ${dataDir}; workers: wasmchess worker --redis ${cmd.redis})`);
      ready(s);
    });
    s.once("error", fail);
  });
  if (cmd.token === undefined) log(`service: token ${token} (give it with --token or WASMCHESS_TOKEN to keep it)`);

  let stopping = false;
  const loop = (async () => {
    while (!stopping) {
      try {
        for (const c of coordinators) await c.tick();
      } catch (err) {
        log(`service: ${err instanceof Error ? err.message.split("\n")[0] : err}`);
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  })();

  await new Promise<void>((done) => {
    const stop = () => {
      if (stopping) process.exit(1);
      stopping = true;
      log("service: stopping");
      done();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  await loop;
  await new Promise<void>((r) => {
    server.close(() => r());
    if ("closeAllConnections" in server) server.closeAllConnections();
  });
  for (const c of coordinators) c.closeAll();
  for (const q of queues) await q.close();
  redis.disconnect();
  log("service: stopped");
}
