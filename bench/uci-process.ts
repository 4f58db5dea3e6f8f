// A UCI engine in a child process: send lines, wait for a matching reply with a timeout.
// Used by the perft benchmark, the perft-suite generator and the match runner.

import { spawn, ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";

/** Finds an executable on the PATH or in /usr/games (where Debian puts engines). */
export function findExecutable(name: string): string | undefined {
  if (name.includes("/")) return existsSync(name) ? name : undefined;
  const dirs = (process.env.PATH ?? "").split(delimiter).concat(["/usr/games", "/usr/local/games"]);
  for (const dir of dirs) {
    const p = join(dir, name);
    if (dir && existsSync(p)) return p;
  }
  return undefined;
}

type Waiter = { pred: (line: string) => boolean; resolve: (line: string) => void; reject: (e: Error) => void; timer?: NodeJS.Timeout };

export class UciProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = "";
  private waiters: Waiter[] = [];
  private exited = false;
  /** Every line the engine printed, with listeners for live output. */
  readonly listeners: ((line: string) => void)[] = [];

  constructor(command: string, args: string[] = []) {
    this.child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => this.onData(chunk));
    this.child.stderr.resume();
    this.child.on("exit", () => {
      this.exited = true;
      for (const w of this.waiters) {
        if (w.timer) clearTimeout(w.timer);
        w.reject(new Error(`engine ${command} exited`));
      }
      this.waiters = [];
    });
    this.child.stdin.on("error", () => undefined);
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let i: number;
    while ((i = this.buffer.indexOf("\n")) >= 0) {
      const line = this.buffer.slice(0, i).replace(/\r$/, "");
      this.buffer = this.buffer.slice(i + 1);
      for (const l of this.listeners) l(line);
      const w = this.waiters.find((x) => x.pred(line));
      if (w) {
        this.waiters = this.waiters.filter((x) => x !== w);
        if (w.timer) clearTimeout(w.timer);
        w.resolve(line);
      }
    }
  }

  get alive(): boolean {
    return !this.exited;
  }

  send(line: string): void {
    if (!this.exited) this.child.stdin.write(line + "\n");
  }

  /** Resolves with the first line matching pred; rejects after timeoutMs or if the engine exits. */
  waitFor(pred: (line: string) => boolean, timeoutMs = 10_000): Promise<string> {
    return new Promise((resolve, reject) => {
      if (this.exited) return reject(new Error("engine has exited"));
      const w: Waiter = { pred, resolve, reject };
      if (timeoutMs > 0 && Number.isFinite(timeoutMs)) {
        w.timer = setTimeout(() => {
          this.waiters = this.waiters.filter((x) => x !== w);
          reject(new Error(`timed out after ${timeoutMs} ms`));
        }, timeoutMs);
      }
      this.waiters.push(w);
    });
  }

  /** Sends uci and waits for uciok, returning the id name. */
  async init(timeoutMs = 10_000): Promise<string> {
    let name = "";
    const l = (line: string) => {
      if (line.startsWith("id name ")) name = line.slice(8).trim();
    };
    this.listeners.push(l);
    this.send("uci");
    await this.waitFor((x) => x === "uciok", timeoutMs);
    this.listeners.splice(this.listeners.indexOf(l), 1);
    return name;
  }

  async isReady(timeoutMs = 10_000): Promise<void> {
    this.send("isready");
    await this.waitFor((x) => x === "readyok", timeoutMs);
  }

  /** Runs `go perft depth` on the given position and returns [nodes, milliseconds]. */
  async perft(position: string, depth: number, timeoutMs = 600_000): Promise<[number, number]> {
    this.send(`position ${position}`);
    await this.isReady();
    const start = performance.now();
    this.send(`go perft ${depth}`);
    const line = await this.waitFor((x) => x.startsWith("Nodes searched"), timeoutMs);
    const ms = performance.now() - start;
    return [Number(line.split(":")[1]), ms];
  }

  /** Asks the engine to quit and kills it if it has not gone after a grace period. */
  async quit(graceMs = 1000): Promise<void> {
    if (this.exited) return;
    this.send("quit");
    await new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        this.child.kill("SIGKILL");
        resolve();
      }, graceMs);
      this.child.on("exit", () => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  kill(): void {
    if (!this.exited) this.child.kill("SIGKILL");
  }
}
