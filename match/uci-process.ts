// A UCI engine in a child process: send lines, wait for a matching reply with a timeout.
// Used by the match runner, the perft comparison, the benchmarks, the tests and tools/perft-suite.ts.

import { spawn, ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
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

/** How much of the engine's stderr is kept for error reports. */
const STDERR_TAIL_CHARS = 2000;

/** A spin option's default and range, as the engine declared it. */
export interface SpinRange {
  default: number;
  min: number;
  max: number;
}

export class UciProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = "";
  private waiters: Waiter[] = [];
  private exited = false;
  private stderrTail = "";
  /** Every line the engine printed, with listeners for live output. */
  readonly listeners: ((line: string) => void)[] = [];
  /** Called once when the process has gone (exit, or failure to start). */
  readonly exitListeners: (() => void)[] = [];
  /** Exit code and signal once the process has exited; spawnError if it never started. */
  exitCode: number | null = null;
  exitSignal: NodeJS.Signals | null = null;
  spawnError: Error | undefined;
  /** From the `uci` handshake (init): the engine's `id name`, declared option names, and the
   *  spin options' defaults and ranges. */
  idName = "";
  optionNames: string[] = [];
  spins = new Map<string, SpinRange>();

  constructor(
    readonly command: string,
    readonly args: string[] = [],
    cwd?: string,
  ) {
    this.child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], cwd });
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => this.onData(chunk));
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
    });
    this.child.on("exit", (code, signal) => {
      this.exitCode = code;
      this.exitSignal = signal;
      this.onGone(`engine ${command} exited`);
    });
    // A command that cannot be spawned emits "error" (and maybe no "exit").
    this.child.on("error", (err) => {
      this.spawnError ??= err;
      this.onGone(`engine ${command} failed: ${err.message}`);
    });
    this.child.stdin.on("error", () => undefined);
  }

  private onGone(message: string): void {
    if (this.exited) return;
    this.exited = true;
    for (const w of this.waiters) {
      if (w.timer) clearTimeout(w.timer);
      w.reject(new Error(message));
    }
    this.waiters = [];
    for (const l of this.exitListeners) l();
  }

  /** The process id (undefined if it could not be started). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** A memory figure of the process from /proc (Linux), in MB: VmRSS resident now, VmHWM its
   *  peak, RssAnon the private (anonymous) part of the resident memory. */
  memoryMb(field: "VmRSS" | "VmHWM" | "RssAnon"): number {
    const status = readFileSync(`/proc/${this.child.pid}/status`, "utf8");
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  }

  /** The last part of what the engine wrote to stderr. */
  get stderr(): string {
    return this.stderrTail;
  }

  /** How the process ended, for error messages ("exit code 1", "signal SIGSEGV", "spawn ENOENT"). */
  get exitDescription(): string {
    if (this.spawnError) return this.spawnError.message;
    if (this.exitSignal) return `signal ${this.exitSignal}`;
    if (this.exitCode !== null) return `exit code ${this.exitCode}`;
    return this.exited ? "exited" : "running";
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

  /** Writes raw bytes or text to the engine's input, as they are (no newline added). */
  write(data: string | Buffer): void {
    if (!this.exited) this.child.stdin.write(data);
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

  /** Sends uci and waits for uciok, returning the id name (also kept in idName, with the
   *  declared options in optionNames and the spin options' ranges in spins). */
  async init(timeoutMs = 10_000): Promise<string> {
    let name = "";
    const options: string[] = [];
    const spins = new Map<string, SpinRange>();
    const l = (line: string) => {
      if (line.startsWith("id name ")) name = line.slice(8).trim();
      const m = /^option\s+name\s+(.+?)\s+type\s/.exec(line);
      if (m) options.push(m[1]);
      const s = /^option\s+name\s+(.+?)\s+type\s+spin\s+default\s+(-?\d+)\s+min\s+(-?\d+)\s+max\s+(-?\d+)\s*$/.exec(line);
      if (s) spins.set(s[1], { default: Number(s[2]), min: Number(s[3]), max: Number(s[4]) });
    };
    this.listeners.push(l);
    this.send("uci");
    try {
      await this.waitFor((x) => x.trim() === "uciok", timeoutMs);
    } finally {
      this.listeners.splice(this.listeners.indexOf(l), 1);
    }
    this.idName = name;
    this.optionNames = options;
    this.spins = spins;
    return name;
  }

  /** Sends `setoption name N value V` (just the name when value is undefined: a button). */
  setOption(name: string, value?: string): void {
    this.send(value === undefined ? `setoption name ${name}` : `setoption name ${name} value ${value}`);
  }

  async isReady(timeoutMs = 10_000): Promise<void> {
    this.send("isready");
    await this.waitFor((x) => x.trim() === "readyok", timeoutMs);
  }

  /** Runs `go perft depth` on the given position and returns [nodes, milliseconds]. */
  async perft(position: string, depth: number, timeoutMs = 600_000): Promise<[bigint, number]> {
    this.send(`position ${position}`);
    await this.isReady();
    const start = performance.now();
    this.send(`go perft ${depth}`);
    const line = await this.waitFor((x) => x.startsWith("Nodes searched"), timeoutMs);
    const ms = performance.now() - start;
    return [BigInt(line.split(":")[1].trim()), ms];
  }

  /** `go perft depth` in `position ...`, read as a divide: each root move's count. */
  async divide(position: string, depth: number, timeoutMs = 600_000): Promise<Map<string, bigint>> {
    const counts = new Map<string, bigint>();
    const listener = (line: string) => {
      const m = /^([a-h][1-8][a-h][1-8][nbrq]?): (\d+)$/.exec(line);
      if (m) counts.set(m[1], BigInt(m[2]));
    };
    this.listeners.push(listener);
    try {
      await this.perft(position, depth, timeoutMs);
    } finally {
      this.listeners.splice(this.listeners.indexOf(listener), 1);
    }
    return counts;
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
      this.exitListeners.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  kill(): void {
    if (!this.exited) this.child.kill("SIGKILL");
  }
}
