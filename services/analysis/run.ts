// Game analysis runs on the service, as lichess's fishnet hands out one game's analysis at a
// time: a run is a PGN file, an engine (and network) held by the service and the nodes to
// search in every position. The service reads the file when the run is made: every game it
// can read becomes a task (its number in the file), every game it cannot is reported with its
// number and the reader's reason, and the rest go on. Each game comes back annotated (the
// evaluation after every move, WDL, inaccuracies, mistakes and blunders with the best line);
// the service checks that it is the same game, writes it to <data dir>/<run>/games/<n>.pgn,
// and the run's PGN is those games in file order.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { parsePgn } from "../../bindings/pgn-read.js";
import { hasFile } from "../files.js";
import { RequestError, RunCoordinator, joinPgnFiles } from "../run-coordinator.js";
import type { ActiveRun } from "../run-coordinator.js";
import { serviceRunKeys } from "../runs.js";
import { parseRecord } from "../schema.js";
import type { Mark } from "./annotate.js";
import { ANALYSIS_RECORD_VERSION, AnalysisResult, parseAnalysisTask } from "./task.js";
import type { AnalysisRunRequest, AnalysisTask } from "./task.js";

/** The queue of one code signature (BullMQ queue names cannot hold ':'). */
export function analysisQueueName(code: string): string {
  return `analysis-${code.replace(/[^A-Za-z0-9._-]/g, "_")}`;
}

export const DEFAULT_ANALYSIS_NODES = 200_000;
/** Unreadable games reported by number at most (the count is always complete). */
const MAX_REPORTED = 1000;

export interface AnalysisRunSpec {
  engine: string;
  network?: string;
  nodes: number;
  hashMb: number;
  /** Games in the file; the numbers of those that read (the tasks); those that do not. */
  total: number;
  readable: number[];
  unreadable: { game: number; error: string }[];
  unreadableCount: number;
  code: string;
}

export interface AnalysisRunStatus {
  games: number;
  analysed: number;
  unreadable: number;
  marks: AnalysisResult["marks"];
  positions: number;
  nodes: number;
  seconds: number;
}

interface ActiveAnalysisRun extends ActiveRun<AnalysisRunSpec> {
  dir: string;
  /** The games as read, by number (the tasks' data). */
  input: Map<number, string>;
  folded: Set<number>;
  status: AnalysisRunStatus;
}

const inputKey = (id: string) => `${serviceRunKeys(id).meta}:input`;
const zeroMarks = (): Record<Mark, number> => ({ inaccuracy: 0, mistake: 0, blunder: 0 });

export class AnalysisRuns extends RunCoordinator<AnalysisRunSpec, ActiveAnalysisRun, AnalysisTask> {
  constructor(redis: Redis, queue: Queue, private readonly dataDir: string, code: string, log: (line: string) => void) {
    super(redis, queue, "analysis", code, log);
  }

  /** The games analysed so far, annotated, in file order. */
  async pgn(id: string): Promise<string> {
    await this.lookUp(id);
    return joinPgnFiles(join(this.dataDir, id, "games"));
  }

  protected parseTask(data: unknown): AnalysisTask {
    return parseAnalysisTask(data);
  }

  protected numberOf(task: AnalysisTask): number {
    return task.game;
  }

  /** The result must be the task's game, every move of it annotated. */
  protected async checkResult(data: unknown, task: AnalysisTask): Promise<AnalysisResult> {
    const r = parseRecord(AnalysisResult, "analysis result", data);
    if (r.run !== task.run || r.game !== task.game) throw new Error(`the result is of game ${r.game} of ${r.run}, not game ${task.game} of ${task.run}`);
    if (r.code !== task.code) throw new Error(`the result was made by code ${r.code}, not ${task.code}`);
    if (r.pgn === undefined) throw new Error("the result has no game");
    const [annotated] = await parsePgn(r.pgn);
    const [original] = await parsePgn(task.pgn);
    const moves = (g: typeof annotated) => g.moves().map((m) => m.uci).join(" ");
    if (!annotated || annotated.error || moves(annotated) !== moves(original) || annotated.startFen !== original.startFen) {
      throw new Error(`the result is not game ${task.game}: its moves differ`);
    }
    const bare = annotated.moves().findIndex((m) => !/\[%eval [^\]]+\]|Checkmate\./.test(m.comment ?? ""));
    if (bare >= 0) throw new Error(`move ${bare + 1} of game ${task.game} has no evaluation`);
    return r;
  }

  protected async makeSpec(r: AnalysisRunRequest, id: string): Promise<AnalysisRunSpec> {
    if (!(await hasFile(this.redis, "engine", r.engine))) throw new RequestError(`engine: ${r.engine} is not held by the service (POST /api/engines first)`);
    if (r.network && !(await hasFile(this.redis, "network", r.network))) throw new RequestError(`network: ${r.network} is not held by the service (POST /api/networks first)`);
    const games = await parsePgn(r.pgn);
    const readable: number[] = [];
    const unreadable: AnalysisRunSpec["unreadable"] = [];
    let unreadableCount = 0;
    const input: Record<string, string> = {};
    games.forEach((g, i) => {
      const number = i + 1;
      if (g.error || g.length === 0) {
        unreadableCount++;
        if (unreadable.length < MAX_REPORTED) unreadable.push({ game: number, error: g.error?.message ?? "no moves" });
        return;
      }
      readable.push(number);
      input[String(number)] = g.toPgn();
    });
    if (readable.length === 0) {
      throw new RequestError(`pgn: no game could be read${unreadable.length ? ` (game ${unreadable[0].game}: ${unreadable[0].error})` : ""}`);
    }
    await this.redis.del(inputKey(id));
    await this.redis.hset(inputKey(id), input);
    return {
      engine: r.engine, network: r.network, nodes: r.nodes ?? DEFAULT_ANALYSIS_NODES, hashMb: r.hashMb ?? 16,
      total: games.length, readable, unreadable, unreadableCount, code: this.code,
    };
  }

  protected describe(run: ActiveAnalysisRun): string {
    const { spec, status: s } = run;
    const skipped = spec.unreadableCount ? `, ${spec.unreadableCount} that do not read (first: game ${spec.unreadable[0].game}: ${spec.unreadable[0].error})` : "";
    return `${s.analysed} of ${spec.readable.length} games analysed at ${spec.nodes} nodes a position${skipped}`;
  }

  protected async open(id: string, spec: AnalysisRunSpec): Promise<ActiveAnalysisRun> {
    if (spec.code !== this.code) throw new Error(`run ${id} is analysed by code ${spec.code}, this service runs ${this.code}: start a new run`);
    const dir = join(this.dataDir, id);
    mkdirSync(join(dir, "games"), { recursive: true });
    const input = new Map(Object.entries(await this.redis.hgetall(inputKey(id))).map(([n, pgn]) => [Number(n), pgn]));
    return {
      id, spec, dir, input, folded: new Set(), lastCheck: -Infinity, lastStatus: -Infinity,
      status: {
        games: spec.readable.length, analysed: 0, unreadable: spec.unreadableCount, marks: { white: zeroMarks(), black: zeroMarks() },
        positions: 0, nodes: 0, seconds: 0,
      },
    };
  }

  protected close(): void {}

  /** Writes the games whose results are in; true when every game is analysed. */
  protected async advance(run: ActiveAnalysisRun): Promise<boolean> {
    const { results } = serviceRunKeys(run.id);
    for (const [n, json] of await this.newResults(run, run.folded)) {
      const field = String(n);
      const result = AnalysisResult.parse(JSON.parse(json));
      if (result.pgn !== undefined) {
        writeFileSync(join(run.dir, "games", `${n}.pgn`), result.pgn);
        const written: Partial<AnalysisResult> = { ...result };
        delete written.pgn;
        await this.redis.hset(results, field, JSON.stringify(written));
      }
      run.folded.add(n);
      const s = run.status;
      s.analysed++;
      s.positions += result.positions;
      s.nodes += result.nodes;
      s.seconds += result.seconds;
      for (const side of ["white", "black"] as const) for (const m of ["inaccuracy", "mistake", "blunder"] as const) s.marks[side][m] += result.marks[side][m];
    }
    if (run.folded.size < run.spec.readable.length) return false;
    await this.redis.del(inputKey(run.id));
    return true;
  }

  /** The first games without a result, about two per live core. */
  protected async wanted(run: ActiveAnalysisRun, cores: number): Promise<number[]> {
    const ahead = Math.max(2, 2 * cores);
    const out: number[] = [];
    for (const n of run.spec.readable) {
      if (out.length >= ahead) break;
      if (!run.folded.has(n)) out.push(n);
    }
    return out;
  }

  protected taskData(run: ActiveAnalysisRun, game: number): AnalysisTask {
    const pgn = run.input.get(game);
    if (pgn === undefined) throw new Error(`run ${run.id} has lost game ${game} (its input is gone from Redis)`);
    const { engine, network, nodes, hashMb, code } = run.spec;
    return { v: ANALYSIS_RECORD_VERSION, code, run: run.id, game, engine, ...(network ? { network } : {}), nodes, hashMb, pgn };
  }

  protected status(run: ActiveAnalysisRun): AnalysisRunStatus {
    return run.status;
  }
}
