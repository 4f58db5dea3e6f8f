// `wasmchess service --redis URL`: the coordinator of the services' runs and their HTTP API.
// It keeps every run's state in Redis and its data files in --data DIR, so that stopped and
// started again (or with Redis restarted from its append-only file) it continues its runs
// where they were. It listens on 127.0.0.1 unless --host says otherwise, and every API call
// needs its token (--token or WASMCHESS_TOKEN; without one it makes one and prints it).

import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { serve } from "@hono/node-server";
import { Queue } from "bullmq";
import { codeSignature } from "./code-signature.js";
import { connect, connectOrFail } from "./redis.js";
import { KEY_PREFIX } from "./registry.js";
import { createApp } from "./http.js";
import { DataRuns, dataQueueName } from "./data/run.js";

export interface ServiceCommand {
  redis: string;
  host: string;
  /** 0: any free port (the line it prints says which). */
  port: number;
  token?: string;
  dataDir: string;
}

/** How often the coordinator collects results and writes data. */
const POLL_MS = 250;

/** Runs the service until SIGINT or SIGTERM. Its first line says where it listens:
 *  "service: listening on http://HOST:PORT". */
export async function runService(cmd: ServiceCommand, log: (line: string) => void = (l) => process.stdout.write(l + "\n")): Promise<void> {
  const code = codeSignature();
  const { version } = createRequire(import.meta.url)("#package.json") as { version: string };
  const token = cmd.token ?? randomBytes(16).toString("hex");
  const redis = await connectOrFail(cmd.redis);
  redis.on("error", () => undefined); // it reconnects; commands wait
  const queue = new Queue(dataQueueName(code), { connection: connect(cmd.redis), prefix: KEY_PREFIX });
  queue.on("error", () => undefined);
  const dataDir = resolve(cmd.dataDir);
  const data = new DataRuns(redis, queue, dataDir, code, log);
  await data.start();

  const app = createApp({ redis, data, token, version, code });
  const server = await new Promise<ReturnType<typeof serve>>((ready, fail) => {
    const s = serve({ fetch: app.fetch, port: cmd.port, hostname: cmd.host }, (info) => {
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
        await data.tick();
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
  data.close();
  await queue.close();
  redis.disconnect();
  log("service: stopped");
}
