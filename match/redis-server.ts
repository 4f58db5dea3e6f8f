// A real redis-server (Debian's) for the services' tests and benchmarks: on a free port of
// 127.0.0.1, in a temporary directory, with its append-only file on, started and stopped by
// whoever needs it, through the match library's process handling (UciProcess reads any
// line-oriented process).
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UciProcess, findExecutable } from "./uci-process.js";

export const REDIS_SERVER = findExecutable("redis-server") ?? "/usr/bin/redis-server";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export class RedisServer {
  private process: UciProcess | undefined;

  private constructor(readonly port: number, readonly dir: string) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<RedisServer> {
    const server = new RedisServer(await freePort(), mkdtempSync(join(tmpdir(), "wasmchess-redis-")));
    await server.resume();
    return server;
  }

  /** Starts redis-server (again) on the same port and directory: it reads its append-only file. */
  async resume(): Promise<void> {
    const p = new UciProcess(REDIS_SERVER, ["--port", String(this.port), "--bind", "127.0.0.1", "--dir", this.dir, "--appendonly", "yes", "--save", "", "--loglevel", "notice"]);
    this.process = p;
    await p.waitFor((l) => l.includes("Ready to accept connections"), 10_000).catch((err: Error) => {
      throw new Error(`redis-server did not start: ${err.message} (${p.exitDescription}) ${p.stderr}`);
    });
  }

  /** Stops it as a service manager does (SIGTERM: it writes its append-only file and exits). */
  async stop(): Promise<void> {
    const p = this.process;
    if (!p?.alive) return;
    const gone = new Promise<void>((resolve) => p.exitListeners.push(resolve));
    process.kill(p.pid!, "SIGTERM");
    await gone;
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
