// One match participant: a UCI engine process started once, reused across games
// (ucinewgame + isready), restarted after a crash, and asked for one move at a time.

import { basename } from "node:path";
import { SpinRange, UciProcess } from "./uci-process.js";
import { Limits } from "./clock.js";

/** How to start and configure an engine. */
export interface EngineConfig {
  /** Name in the PGN and the score lines; the engine's `id name` when empty. */
  name: string;
  command: string;
  args: string[];
  cwd?: string;
  /** `setoption` pairs sent after `uci`, in order. */
  options: [string, string][];
  /** This engine's own time control, for time odds (cutechess-cli's per-engine `tc`); the
   *  match's limits otherwise. */
  limits?: Limits;
}

/** The limits an engine plays under: its own (time odds), else the match's. */
export function engineLimits(config: EngineConfig, match: Limits): Limits {
  return config.limits ?? match;
}

/** A score as the engine reported it, from its own point of view. */
export type Score = { kind: "cp"; value: number } | { kind: "mate"; value: number };

/** Centipawns for comparisons: mates become ±(100000 − moves). */
export function scoreToCp(s: Score): number {
  if (s.kind === "cp") return s.value;
  return s.value > 0 ? 100_000 - s.value : -100_000 - s.value;
}

/** "+0.35", "-1.20", "+M3", "-M2" (cutechess-style PGN comments). */
export function formatScore(s: Score): string {
  if (s.kind === "mate") return (s.value > 0 ? "+M" : "-M") + Math.abs(s.value);
  return (s.value >= 0 ? "+" : "-") + (Math.abs(s.value) / 100).toFixed(2);
}

/** What an `info` line says that a match keeps. */
export interface InfoFields {
  depth?: number;
  score?: Score;
  /** The score is a lowerbound or upperbound. */
  bound: boolean;
  nodes?: number;
  tbhits?: number;
}

/** Reads depth, score, nodes and tbhits from an `info` line; bounds are flagged so exact
 *  scores win. */
export function parseInfo(line: string): InfoFields {
  const t = line.trim().split(/\s+/);
  const out: InfoFields = { bound: false };
  for (let i = 1; i < t.length; i++) {
    if (t[i] === "depth" && /^\d+$/.test(t[i + 1] ?? "")) out.depth = Number(t[++i]);
    else if ((t[i] === "nodes" || t[i] === "tbhits") && /^\d+$/.test(t[i + 1] ?? "")) out[t[i] as "nodes" | "tbhits"] = Number(t[++i]);
    else if (t[i] === "score" && (t[i + 1] === "cp" || t[i + 1] === "mate") && /^[+-]?\d+$/.test(t[i + 2] ?? "")) {
      out.score = { kind: t[i + 1] as "cp" | "mate", value: Number(t[i + 2]) };
      i += 2;
      if (t[i + 1] === "lowerbound" || t[i + 1] === "upperbound") out.bound = true;
    } else if (t[i] === "pv" || t[i] === "string") break;
  }
  return out;
}

/** What came back from one `go`. Times are measured by the runner from sending `go` to
 *  receiving `bestmove`. */
export type SearchReply =
  | { kind: "bestmove"; move: string; elapsedMs: number; score?: Score; depth?: number; nodes?: number; tbhits?: number }
  /** No bestmove within the allowed time; `move` is set if one came after `stop`. */
  | { kind: "timeout"; elapsedMs: number; move?: string }
  /** Nothing even after `stop` and the grace period: the process was killed. */
  | { kind: "no-reply"; elapsedMs: number }
  | { kind: "crash"; detail: string };

const BESTMOVE = /^bestmove(\s|$)/;

/** A UCI engine process for a match. */
export class MatchEngine {
  private proc: UciProcess | undefined;
  private idName = "";
  private started = false;
  /** Times the process had to be started again after dying or hanging. */
  restarts = 0;
  /** Option names the engine did not declare (likely typos), filled by start(). */
  unknownOptions: string[] = [];
  /** Options set by setOptions, after the configured ones (and again after a restart). */
  private overrides: [string, string][] = [];

  constructor(
    readonly config: EngineConfig,
    /** Timeout for the handshake and isready, in ms. */
    readonly handshakeMs = 10_000,
  ) {}

  private nameOverride: string | undefined;

  /** The configured name, else the engine's id name, else the command's file name. */
  get name(): string {
    return this.nameOverride || this.config.name || this.idName || basename(this.config.command);
  }

  set name(value: string) {
    this.nameOverride = value;
  }

  get alive(): boolean {
    return this.proc?.alive ?? false;
  }

  /** The running process's id, for tests and logs. */
  get pid(): number | undefined {
    return this.proc?.pid;
  }

  /** Starts the process: uci/uciok, the options, isready/readyok. Throws with a reason. */
  async start(): Promise<void> {
    this.kill();
    if (this.started) this.restarts++;
    this.started = true;
    const { command, args, cwd, options } = this.config;
    const proc = new UciProcess(command, args, cwd);
    this.proc = proc;
    try {
      this.idName = await proc.init(this.handshakeMs);
      const declared = new Set(proc.optionNames.map((n) => n.toLowerCase()));
      this.unknownOptions = options.map(([n]) => n).filter((n) => !declared.has(n.toLowerCase()));
      for (const [name, value] of [...options, ...this.overrides]) proc.setOption(name, value);
      await proc.isReady(this.handshakeMs);
    } catch (err) {
      const reason = this.describeFailure(proc, err);
      this.kill();
      throw new Error(`${this.config.name || command} did not start: ${reason}`);
    }
  }

  /** The spin options the engine declared, with their defaults and ranges (after start). */
  get spins(): ReadonlyMap<string, SpinRange> {
    return this.proc?.spins ?? new Map();
  }

  /** Sets options for the games from now on (after the configured ones; kept through
   *  restarts). They reach a running process at once, before the next game's isready. */
  setOptions(options: [string, string][]): void {
    this.overrides = options;
    if (this.proc?.alive) for (const [name, value] of options) this.proc.setOption(name, value);
  }

  /** Readies the engine for a new game, starting or restarting it when needed (one retry).
   *  Throws with a reason when it cannot be made ready. */
  async newGame(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        if (!this.proc?.alive) await this.start();
        this.proc!.send("ucinewgame");
        await this.proc!.isReady(this.handshakeMs);
        return;
      } catch (err) {
        this.kill();
        if (attempt >= 1) throw err instanceof Error ? err : new Error(String(err));
      }
    }
  }

  /** Sends the position and the go command and waits up to allowedMs for bestmove; after
   *  that it sends `stop` and waits graceMs more, then kills a silent engine. */
  async search(position: string, go: string, allowedMs: number, graceMs: number): Promise<SearchReply> {
    const proc = this.proc;
    if (!proc?.alive) return { kind: "crash", detail: "the engine is not running" };
    let score: Score | undefined;
    let boundScore: Score | undefined;
    let depth: number | undefined;
    let nodes: number | undefined;
    let tbhits: number | undefined;
    let arrivedAt = 0;
    const onLine = (line: string) => {
      if (BESTMOVE.test(line)) arrivedAt = performance.now();
      else if (line.startsWith("info ")) {
        const info = parseInfo(line);
        if (info.depth !== undefined) depth = info.depth;
        if (info.nodes !== undefined) nodes = info.nodes;
        if (info.tbhits !== undefined) tbhits = info.tbhits;
        if (info.score && info.bound) boundScore = info.score;
        else if (info.score) score = info.score;
      }
    };
    proc.listeners.push(onLine);
    proc.send(position);
    const start = performance.now();
    proc.send(go);
    try {
      const line = await proc.waitFor((l) => BESTMOVE.test(l), allowedMs);
      return { kind: "bestmove", move: line.split(/\s+/)[1] ?? "", elapsedMs: arrivedAt - start, score: score ?? boundScore, depth, nodes, tbhits };
    } catch (err) {
      if (!proc.alive) return { kind: "crash", detail: this.describeFailure(proc, err) };
      proc.send("stop");
      try {
        const line = await proc.waitFor((l) => BESTMOVE.test(l), graceMs);
        return { kind: "timeout", elapsedMs: arrivedAt - start, move: line.split(/\s+/)[1] };
      } catch (err2) {
        if (!proc.alive) return { kind: "crash", detail: this.describeFailure(proc, err2) };
        this.kill();
        return { kind: "no-reply", elapsedMs: performance.now() - start };
      }
    } finally {
      const i = proc.listeners.indexOf(onLine);
      if (i >= 0) proc.listeners.splice(i, 1);
    }
  }

  private describeFailure(proc: UciProcess, err: unknown): string {
    if (proc.alive) return err instanceof Error ? err.message : String(err);
    const stderr = proc.stderr.trim().split("\n").slice(-3).join(" | ");
    return `process ended (${proc.exitDescription})${stderr ? `; stderr: ${stderr}` : ""}`;
  }

  /** Sends quit (killing the process if it lingers). */
  async quit(): Promise<void> {
    await this.proc?.quit();
    this.proc = undefined;
  }

  /** Kills the process (if any); the next newGame starts a new one. */
  kill(): void {
    this.proc?.kill();
    this.proc = undefined;
  }
}
