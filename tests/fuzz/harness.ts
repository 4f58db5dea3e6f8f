// The fuzzing loop: sends bursts of generated lines to a real UCI engine process, then
// `stop` and `isready`, and checks at each checkpoint that the process lives, that it
// answered readyok within the time limit, and that every go got exactly one bestmove
// (every isready one readyok, every uci one uciok). A crash or hang is recorded with the
// burst that caused it (written to a findings folder) and the engine is restarted.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UciProcess } from "../../match/uci-process.js";
import { processCpuMs } from "../../match/cpu-time.js";
import { Core } from "../../bindings/core.js";
import { InputGenerator, Rng } from "./generate.js";
import { Owed, owedByText, sanitizeText } from "./model.js";

export interface FuzzOptions {
  /** Generated lines to send in all (checkpoint lines not counted). */
  lines: number;
  seed: number;
  command: string;
  args: string[];
  /** Probability that a burst is a go/stop storm, and that it is a 10,000-move position. */
  stormRate: number;
  longRate: number;
  /** Kinds of the first bursts, before the rates decide (so that a short run has them). */
  firstBursts?: Burst["kind"][];
  /** Lines per storm and per ordinary burst. */
  stormLines: [number, number];
  burstLines: [number, number];
  /** CPU time the engine may use to reach a checkpoint: base plus per line of the burst. */
  checkpointCpuMs: number;
  perLineCpuMs: number;
  /** Wall time after which a checkpoint not reached counts as a hang however little CPU
   *  the engine used (a lost message leaves it idle). */
  stallMs: number;
  /** Largest Hash the input may set (default: any; a 2 GB table costs about a second per
   *  resize or clear, which a short run cannot afford). */
  maxHashMb?: number;
  /** Search threads: every engine process is set to this many at its start, and any valid
   *  Threads the input sets becomes this (default: the input's own). */
  threads?: number;
  /** Ends the run at the first finding (a test wants to fail fast). */
  stopAtFirstFinding?: boolean;
  /** Where failing bursts are written (nothing is written when undefined). */
  findingsDir?: string;
  /** Progress reports (one line each). */
  log?: (line: string) => void;
  progressEveryLines?: number;
}

export interface Finding {
  kind: "crash" | "hang" | "mismatch" | "unexpected trap" | "bad output" | "stderr";
  burst: number;
  detail: string;
  file?: string;
}

export interface FuzzReport {
  lines: number;
  bursts: number;
  storms: number;
  longPositions: number;
  gos: number;
  bestmoves: number;
  crashes: number;
  hangs: number;
  findings: Finding[];
  wallMs: number;
}

type Counts = Owed;

/** One engine process with the replies it has given, counted. */
class Target {
  readonly proc: UciProcess;
  readonly got: Counts = { bestmove: 0, readyok: 0, uciok: 0, trap: 0 };
  readonly owed: Counts = { bestmove: 0, readyok: 0, uciok: 0, trap: 0 };
  badOutput: string | undefined;
  /** Everything sent to this process (replaying it reproduces a finding), and the last
   *  lines it printed. */
  readonly input: Buffer[] = [];
  readonly outputTail: string[] = [];
  private watchers: (() => void)[] = [];
  died = false;

  constructor(command: string, args: string[]) {
    this.proc = new UciProcess(command, args);
    this.proc.listeners.push((line) => this.onLine(line));
    this.proc.listeners.push((line) => {
      this.outputTail.push(line.slice(0, 300));
      if (this.outputTail.length > 200) this.outputTail.shift();
    });
    this.proc.exitListeners.push(() => {
      this.died = true;
      this.notify();
    });
  }

  private onLine(line: string): void {
    if (/^bestmove( |$)/.test(line)) this.got.bestmove++;
    else if (line === "readyok") this.got.readyok++;
    else if (line === "uciok") this.got.uciok++;
    if (line.includes("engine crashed")) this.got.trap++;
    if (this.badOutput === undefined && (line.length > 20_000 || /[\x00-\x08\x0b-\x1f\x7f]/.test(line))) {
      this.badOutput = JSON.stringify(line.slice(0, 200));
    }
    this.notify();
  }

  private notify(): void {
    for (const w of this.watchers) w();
  }

  /** Resolves when every owed reply has come; rejects when the process dies, when it has
   *  used cpuMs of CPU time without answering (busy: a loop, a stop not heeded), or after
   *  stallMs of wall time (idle: a lost message). CPU time, not wall time, judges the busy
   *  case, so that a starved process on a loaded machine is not taken for a hung one; where
   *  /proc is missing, cpuMs is wall time. */
  settled(cpuMs: number, stallMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = () =>
        this.got.readyok >= this.owed.readyok && this.got.bestmove >= this.owed.bestmove && this.got.uciok >= this.owed.uciok;
      const pid = this.proc.pid ?? 0;
      const cpu0 = processCpuMs(pid);
      const wall0 = performance.now();
      // Every output line checks for completion; the clock is read on a timer.
      const watcher = () => {
        if (this.died) finish(new Error(`engine died (${this.proc.exitDescription})`));
        else if (done()) finish();
      };
      let finished = false;
      const tick = () => {
        watcher();
        if (finished) return;
        const wall = performance.now() - wall0;
        const cpu = cpu0 === undefined ? wall : (processCpuMs(pid) ?? cpu0) - cpu0;
        if (cpu > cpuMs) finish(new HangError(`busy for ${Math.round(cpu)} ms of CPU time without answering`, this.got, this.owed));
        else if (wall > stallMs) finish(new HangError(`no answer within ${Math.round(wall)} ms (${Math.round(cpu)} ms of CPU time)`, this.got, this.owed));
      };
      const timer = setInterval(tick, 200);
      const finish = (err?: Error) => {
        finished = true;
        clearInterval(timer);
        this.watchers = this.watchers.filter((w) => w !== watcher);
        if (err) reject(err);
        else resolve();
      };
      this.watchers.push(watcher);
      watcher();
    });
  }

  send(data: string | Buffer, owed: Owed): void {
    this.owed.bestmove += owed.bestmove;
    this.owed.readyok += owed.readyok;
    this.owed.uciok += owed.uciok;
    this.owed.trap += owed.trap;
    this.input.push(typeof data === "string" ? Buffer.from(data) : data);
    this.proc.write(data);
  }
}

class HangError extends Error {
  constructor(what: string, got: Counts, owed: Counts) {
    super(`${what}: readyok ${got.readyok}/${owed.readyok}, bestmove ${got.bestmove}/${owed.bestmove}, uciok ${got.uciok}/${owed.uciok}`);
  }
}

/** Lines (as sent) of one burst, text or raw bytes, each followed by a newline. */
type Burst = { kind: "mixed" | "storm" | "long"; items: (string | Buffer)[] };

/** The form sent: raw bytes stay raw unless a line in them had to be replaced. */
function prepare(item: string | Buffer, options: FuzzOptions): { data: string | Buffer; text: string } {
  const text = typeof item === "string" ? item : item.toString("utf8");
  const safe = sanitizeText(text, options.maxHashMb, options.threads);
  if (typeof item !== "string" && safe === text) return { data: Buffer.concat([item, Buffer.from("\n")]), text };
  return { data: safe + "\n", text: safe };
}

export async function fuzz(options: FuzzOptions): Promise<FuzzReport> {
  const started = performance.now();
  const rng = new Rng(options.seed);
  const gen = new InputGenerator(rng, await Core.create());
  const report: FuzzReport = {
    lines: 0, bursts: 0, storms: 0, longPositions: 0, gos: 0, bestmoves: 0, crashes: 0, hangs: 0, findings: [], wallMs: 0,
  };
  if (options.findingsDir) mkdirSync(options.findingsDir, { recursive: true });
  const start = (): Target => {
    const t = new Target(options.command, options.args);
    if (options.threads !== undefined) t.send(`setoption name Threads value ${options.threads}\n`, owedByText(""));
    return t;
  };
  let target = start();
  let nextProgress = options.progressEveryLines ?? Infinity;

  // A finding is written as three files: the burst, the whole input of that engine process
  // (`node build/cli.js < session-...` replays it) and the engine's last output lines.
  const record = (f: Finding, burst: Burst) => {
    if (options.findingsDir) {
      const name = `${f.burst}-${f.kind.replace(/ /g, "-")}.txt`;
      f.file = join(options.findingsDir, `burst-${name}`);
      writeFileSync(f.file, Buffer.concat(burst.items.map((i) => prepare(i, options).data).map((d) => (typeof d === "string" ? Buffer.from(d) : d))));
      writeFileSync(join(options.findingsDir, `session-${name}`), Buffer.concat(target.input));
      writeFileSync(join(options.findingsDir, `output-${name}`), target.outputTail.join("\n") + "\n");
    }
    report.findings.push(f);
    options.log?.(`burst ${f.burst}: ${f.kind}: ${f.detail}` + (f.file ? ` (input in ${f.file})` : ""));
  };
  const restart = () => {
    report.gos += target.owed.bestmove;
    report.bestmoves += target.got.bestmove;
    target.proc.kill();
    target = start();
  };

  while (report.lines < options.lines && !(options.stopAtFirstFinding && report.findings.length > 0)) {
    const burst = makeBurst(gen, rng, options, options.lines - report.lines, options.firstBursts?.[report.bursts]);
    report.bursts++;
    if (burst.kind === "storm") report.storms++;
    if (burst.kind === "long") report.longPositions++;
    let sentLines = 0;
    for (const item of burst.items) {
      const { data, text } = prepare(item, options);
      target.send(data, owedByText(text));
      sentLines++;
    }
    report.lines += sentLines;
    target.send("stop\nisready\n", owedByText("stop\nisready\n"));
    const limit = options.checkpointCpuMs + options.perLineCpuMs * sentLines;
    try {
      await target.settled(limit, options.stallMs);
      // Idle now: one more isready, after which every count must be exact.
      target.send("isready\n", owedByText("isready\n"));
      await target.settled(options.checkpointCpuMs, options.stallMs);
      const { got, owed } = target;
      if (got.bestmove !== owed.bestmove || got.readyok !== owed.readyok || got.uciok !== owed.uciok) {
        record({ kind: "mismatch", burst: report.bursts, detail: `bestmove ${got.bestmove}/${owed.bestmove}, readyok ${got.readyok}/${owed.readyok}, uciok ${got.uciok}/${owed.uciok}` }, burst);
        restart();
      } else if (got.trap !== owed.trap) {
        record({ kind: "unexpected trap", burst: report.bursts, detail: `${got.trap - owed.trap} wasm trap(s) beyond the debug crash hooks` }, burst);
        restart();
      }
    } catch (err) {
      const hang = err instanceof HangError;
      if (hang) report.hangs++;
      else report.crashes++;
      record({ kind: hang ? "hang" : "crash", burst: report.bursts, detail: (err as Error).message + (target.proc.stderr ? `; stderr: ${target.proc.stderr.slice(-300)}` : "") }, burst);
      restart();
      continue;
    }
    if (target.badOutput !== undefined) {
      record({ kind: "bad output", burst: report.bursts, detail: target.badOutput }, burst);
      target.badOutput = undefined;
    }
    if (target.proc.stderr) {
      record({ kind: "stderr", burst: report.bursts, detail: target.proc.stderr.slice(-300) }, burst);
      restart();
    }
    if (report.lines >= nextProgress) {
      nextProgress += options.progressEveryLines!;
      const s = (performance.now() - started) / 1000;
      options.log?.(`${report.lines} lines, ${report.bursts} bursts, ${report.crashes} crashes, ${report.hangs} hangs, ${report.findings.length} findings, ${s.toFixed(0)} s`);
    }
  }
  report.gos += target.owed.bestmove;
  report.bestmoves += target.got.bestmove;
  await target.proc.quit();
  report.wallMs = performance.now() - started;
  return report;
}

function makeBurst(gen: InputGenerator, rng: Rng, o: FuzzOptions, remaining: number, planned?: Burst["kind"]): Burst {
  const x = rng.next();
  const kind = planned ?? (x < o.stormRate ? "storm" : x < o.stormRate + o.longRate ? "long" : "mixed");
  if (kind === "storm") return { kind, items: gen.storm(Math.min(remaining, rng.range(...o.stormLines))) };
  if (kind === "long") return { kind, items: gen.longPosition() };
  const n = Math.min(remaining, rng.range(...o.burstLines));
  return { kind: "mixed", items: Array.from({ length: n }, () => gen.anyLine()) };
}
