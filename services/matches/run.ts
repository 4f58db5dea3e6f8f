// Test matches on the service: the coordinator's side of the match job kind, as fishtest's
// server is for its tests. A run is two engines (builds and networks the service holds, by
// hash, with UCI options), limits, openings and a number of games, optionally with an SPRT.
// Its games are handed out in tasks of game pairs; each task's result is stored once, and the
// run's W/D/L, pentanomial pairs, faults per engine and LLR are those of the stored tasks
// (computed again from them after a restart, so nothing is counted twice). The coordinator
// decides the SPRT as the match runner does (the GSPRT on per-game scores, no decision
// before SPRT_MIN_GAMES games) and stops the run when it decides or has its games. The games'
// PGN goes to <data dir>/<run>/pgn/<task>.pgn.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { FAULTS } from "../../match/report.js";
import {
  SPRT_MIN_GAMES, eloEstimate, los, pentanomialDistribution, sprtBounds, sprtDecision, sprtLlr, trinomialDistribution,
} from "../../match/stats.js";
import type { EloEstimate, Pentanomial, SprtParams, Trinomial } from "../../match/stats.js";
import { hasFile } from "../files.js";
import { RequestError, RunCoordinator, joinPgnFiles } from "../run-coordinator.js";
import type { ActiveRun } from "../run-coordinator.js";
import { serviceRunKeys } from "../runs.js";
import { MATCH_RECORD_VERSION, TaskResult, checkTaskResult, parseTask, toLimits } from "./task.js";
import type { MatchRunRequest, MatchSettings, MatchTask } from "./task.js";

/** The queue of one code signature (BullMQ queue names cannot hold ':'). */
export function matchQueueName(code: string): string {
  return `match-${code.replace(/[^A-Za-z0-9._-]/g, "_")}`;
}

/** Game pairs per task unless a run says (fishtest's tasks are some hundreds of games on many
 *  cores; here a task is one core's some minutes at 10+0.1). */
export const DEFAULT_PAIRS_PER_TASK = 4;

export interface MatchRunSpec {
  settings: MatchSettings;
  games: number;
  pairsPerTask: number;
  sprt?: SprtParams;
  code: string;
}

export interface MatchRunStatus {
  names: [string, string];
  games: number;
  maxGames: number;
  tasks: number;
  tri: Trinomial;
  penta: Pentanomial;
  elo: EloEstimate;
  pentaElo?: EloEstimate;
  los: number;
  sprt?: { params: SprtParams; llr: number; lower: number; upper: number; decision?: "H0" | "H1"; decidedAtGame?: number };
  /** The LLR after each task taken in from SPRT_MIN_GAMES games on, as [games, LLR]. */
  llrHistory: [number, number][];
  endings: Record<string, number>;
  /** Games lost by a fault, per engine. */
  faults: [Record<string, number>, Record<string, number>];
  /** Tasks by worker. */
  workers: Record<string, number>;
}

interface ActiveMatchRun extends ActiveRun<MatchRunSpec> {
  dir: string;
  /** Tasks taken in, and the totals over them. */
  folded: Set<number>;
  status: MatchRunStatus;
}

export class MatchRuns extends RunCoordinator<MatchRunSpec, ActiveMatchRun, MatchTask> {
  constructor(redis: Redis, queue: Queue, private readonly dataDir: string, code: string, log: (line: string) => void) {
    super(redis, queue, "match", code, log);
  }

  /** The run's games so far, in PGN, in task order. */
  async pgn(id: string): Promise<string> {
    await this.lookUp(id);
    return joinPgnFiles(join(this.dataDir, id, "pgn"));
  }

  protected parseTask(data: unknown): MatchTask {
    return parseTask(data);
  }

  protected numberOf(task: MatchTask): number {
    return task.task;
  }

  protected checkResult(data: unknown, task: MatchTask): TaskResult {
    return checkTaskResult(data, task);
  }

  protected async makeSpec(r: MatchRunRequest): Promise<MatchRunSpec> {
    for (const [i, e] of r.engines.entries()) {
      if (!(await hasFile(this.redis, "engine", e.engine))) throw new RequestError(`engines.${i}.engine: ${e.engine} is not held by the service (POST /api/engines first)`);
      if (e.network && !(await hasFile(this.redis, "network", e.network))) throw new RequestError(`engines.${i}.network: ${e.network} is not held by the service (POST /api/networks first)`);
    }
    if (r.engines[0].name === r.engines[1].name) throw new RequestError("engines.1.name: the two engines need two names");
    if (r.openings !== "builtin" && !(await hasFile(this.redis, "openings", r.openings))) throw new RequestError(`openings: ${r.openings} is not held by the service (POST /api/openings first)`);
    let limits;
    try {
      limits = toLimits(r.limits);
    } catch (err) {
      throw new RequestError(err instanceof Error ? err.message : String(err));
    }
    if (r.games % 2) throw new RequestError("games: an even number (games are played in pairs)");
    return {
      settings: {
        engines: r.engines, limits, openings: r.openings, order: r.order ?? "random", seed: r.seed ?? 1,
        adjudication: r.adjudication ?? {}, marginMs: r.marginMs ?? 100,
      },
      games: r.games,
      pairsPerTask: r.pairsPerTask ?? DEFAULT_PAIRS_PER_TASK,
      sprt: r.sprt ? { elo0: r.sprt.elo0, elo1: r.sprt.elo1, alpha: r.sprt.alpha ?? 0.05, beta: r.sprt.beta ?? 0.05 } : undefined,
      code: this.code,
    };
  }

  protected describe(run: ActiveMatchRun): string {
    const { spec, status: s } = run;
    const [a, b] = s.names;
    const sprt = spec.sprt ? `, SPRT [${spec.sprt.elo0}, ${spec.sprt.elo1}] LLR ${s.sprt?.llr.toFixed(2)}` : "";
    return `${a} vs ${b}: ${s.tri.wins}-${s.tri.losses}-${s.tri.draws} after ${s.games} of ${spec.games} games${sprt}${s.sprt?.decision ? `, ${s.sprt.decision} accepted` : ""}`;
  }

  protected async open(id: string, spec: MatchRunSpec): Promise<ActiveMatchRun> {
    if (spec.code !== this.code) throw new Error(`run ${id} is played by code ${spec.code}, this service runs ${this.code}: start a new run`);
    const dir = join(this.dataDir, id);
    mkdirSync(join(dir, "pgn"), { recursive: true });
    const names = spec.settings.engines.map((e) => e.name) as [string, string];
    const tri: Trinomial = { wins: 0, losses: 0, draws: 0 };
    const run: ActiveMatchRun = {
      id, spec, dir, lastCheck: -Infinity, lastStatus: -Infinity, folded: new Set(),
      status: {
        names, games: 0, maxGames: spec.games, tasks: 0, tri, penta: [0, 0, 0, 0, 0], elo: eloEstimate(trinomialDistribution(tri)), los: 0.5,
        llrHistory: [], endings: {}, faults: [{}, {}], workers: {},
      },
    };
    return run;
  }

  protected close(): void {}

  /** Takes in the tasks whose results are stored, in task order; true when the SPRT has
   *  decided or the run has its games. */
  protected async advance(run: ActiveMatchRun): Promise<boolean> {
    const { results } = serviceRunKeys(run.id);
    for (const [n, json] of await this.newResults(run, run.folded)) {
      if (this.over(run)) break;
      const result = TaskResult.parse(JSON.parse(json));
      if (result.pgn !== undefined) {
        writeFileSync(join(run.dir, "pgn", `${n}.pgn`), result.pgn);
        const written: Partial<TaskResult> = { ...result };
        delete written.pgn;
        await this.redis.hset(results, String(n), JSON.stringify(written));
      }
      this.fold(run, n, result);
    }
    return this.over(run);
  }

  private over(run: ActiveMatchRun): boolean {
    return run.status.sprt?.decision !== undefined || run.status.games >= run.spec.games;
  }

  /** Adds a task's games to the run's totals. */
  private fold(run: ActiveMatchRun, n: number, result: TaskResult): void {
    const s = run.status;
    run.folded.add(n);
    s.tasks++;
    s.workers[result.worker] = (s.workers[result.worker] ?? 0) + 1;
    for (let i = 0; i < result.games.length; i++) {
      const g = result.games[i];
      s.games++;
      if (g.points === 1) s.tri.wins++;
      else if (g.points === 0) s.tri.losses++;
      else s.tri.draws++;
      if (i % 2 === 1) s.penta[(result.games[i - 1].points + g.points) * 2]++;
      s.endings[g.kind] = (s.endings[g.kind] ?? 0) + 1;
      if (g.loser !== undefined && FAULTS.includes(g.kind)) {
        const f = s.faults[(g.loser === 0) === g.engine1White ? 0 : 1];
        f[g.kind] = (f[g.kind] ?? 0) + 1;
      }
    }
    s.elo = eloEstimate(trinomialDistribution(s.tri));
    s.pentaElo = eloEstimate(pentanomialDistribution(s.penta));
    s.los = los(s.tri);
    const params = run.spec.sprt;
    if (params) {
      const llr = sprtLlr(trinomialDistribution(s.tri), params);
      const decision = s.games >= SPRT_MIN_GAMES ? sprtDecision(llr, params) : undefined;
      s.sprt = { params, llr, ...sprtBounds(params), ...(decision ? { decision, decidedAtGame: s.games } : {}) };
      // Before SPRT_MIN_GAMES the LLR's normal approximation means nothing (one game can give
      // hundreds): the history starts there.
      if (s.games >= SPRT_MIN_GAMES) s.llrHistory.push([s.games, Number(llr.toFixed(3))]);
    }
  }

  /** The lowest task numbers not yet taken in, about two per live core, within the run's games. */
  protected async wanted(run: ActiveMatchRun, cores: number): Promise<number[]> {
    const tasks = Math.ceil(run.spec.games / 2 / run.spec.pairsPerTask);
    const ahead = Math.max(2, 2 * cores);
    const out: number[] = [];
    for (let n = 0; n < tasks && out.length < ahead; n++) if (!run.folded.has(n)) out.push(n);
    return out;
  }

  protected taskData(run: ActiveMatchRun, task: number): MatchTask {
    const pairs = Math.min(run.spec.pairsPerTask, run.spec.games / 2 - task * run.spec.pairsPerTask);
    return { v: MATCH_RECORD_VERSION, code: run.spec.code, run: run.id, task, firstPair: task * run.spec.pairsPerTask, pairs, settings: run.spec.settings };
  }

  protected status(run: ActiveMatchRun): MatchRunStatus {
    return run.status;
  }
}
