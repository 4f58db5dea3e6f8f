// A match between two engines: game pairs over the openings with colours swapped, N games
// at once, the running score and SPRT after every game, PGN written as games finish; a match
// stopped part-way goes on from the games of its PGN (resume).

import { appendFileSync, writeFileSync } from "node:fs";
import { Core } from "../bindings/core.js";
import { Game } from "../bindings/index.js";
import { Limits, checkLimitsPair, describeLimits, pgnTimeControl } from "./clock.js";
import {
  Pentanomial, SprtParams, Trinomial, eloEstimate, los, pentanomialDistribution, sprtDecision, sprtLlr,
  trinomialDistribution, SPRT_MIN_GAMES,
} from "./stats.js";
import { EngineConfig, MatchEngine, engineLimits } from "./engine.js";
import { EndKind, GameRecord, GameSettings, playGame } from "./game.js";
import { Opening } from "./openings.js";
import { formatPgn } from "./pgn.js";
import { FAULTS, MatchSummary, scoreLine, sprtLine } from "./report.js";
import { PlayedGame } from "./resume.js";
import { Side } from "./clock.js";

export interface MatchOptions {
  /** Engine 1 (whose point of view the score takes) and engine 2. */
  engines: [EngineConfig, EngineConfig];
  openings: Opening[];
  /** Total games; game 2k and 2k+1 play opening k with colours swapped. */
  games: number;
  /** The first game this run plays (default 0): games firstGame to games - 1 are played, as
   *  they would be in the whole match (a part of a match handed to one worker, say). */
  firstGame?: number;
  settings: GameSettings;
  concurrency: number;
  sprt?: SprtParams;
  pgn?: { path: string; event: string; site: string; moveComments: boolean };
  /** Games an earlier run of this match played (read from its PGN by readPlayedGames): they
   *  count as played, are not played again, and the PGN file is appended to, not replaced.
   *  Their engine names, game numbers and openings must be this match's. */
  resume?: PlayedGame[];
  /** Timeout for the uci and isready handshakes. */
  handshakeMs: number;
  /** Progress output (a line at a time). */
  log: (line: string) => void;
}

/** One finished game from engine 1's point of view. */
export interface GameResult {
  /** 0-based game number (the PGN Round is index + 1). */
  index: number;
  record: GameRecord;
  engine1White: boolean;
  /** Engine 1's points: 1, 0.5 or 0. */
  points: number;
}

export class Match {
  private readonly pairs: [MatchEngine, MatchEngine][] = [];
  private next: number;
  private stopping = false;
  private aborted = false;
  private names: [string, string] = ["", ""];
  private readonly tri: Trinomial = { wins: 0, losses: 0, draws: 0 };
  private readonly penta: Pentanomial = [0, 0, 0, 0, 0];
  private readonly pairPoints = new Map<number, number[]>();
  private sprtState: MatchSummary["sprt"];
  private readonly endings: MatchSummary["endings"] = {};
  private readonly faults: MatchSummary["faults"] = [{}, {}];
  /** Game numbers already played: resumed ones, then those this run started. */
  private readonly taken = new Set<number>();
  /** Games counted: resumed and finished in this run. */
  private counted = 0;
  /** Engine 1's and engine 2's limits: their own (time odds), else the match's. */
  private readonly limits: readonly [Limits, Limits];
  /** Finished games of this run in the order they finished. */
  readonly results: GameResult[] = [];

  constructor(private readonly opts: MatchOptions) {
    if (opts.openings.length === 0) throw new Error("no openings");
    if (!(opts.games >= 1)) throw new Error("the match needs at least one game");
    this.next = opts.firstGame ?? 0;
    if (!Number.isInteger(this.next) || this.next < 0 || this.next >= opts.games) throw new Error(`the first game must be from 0 to ${opts.games - 1}`);
    const [e1, e2] = opts.engines;
    this.limits = checkLimitsPair([engineLimits(e1, opts.settings.limits), engineLimits(e2, opts.settings.limits)]);
  }

  /** Stops the match now: kills the engines; games in progress are abandoned uncounted. */
  stop(): void {
    this.stopping = true;
    this.aborted = true;
    for (const pair of this.pairs) for (const e of pair) e.kill();
  }

  /** Plays the match and returns the summary. Throws if the engines cannot be started. */
  async run(): Promise<MatchSummary> {
    const { opts } = this;
    const started = performance.now();
    const workers = Math.max(1, Math.min(opts.concurrency, opts.games - this.next));
    await Game.create(); // loads the package's rules, which write the PGN and check resumed games
    if (opts.pgn && !opts.resume) writeFileSync(opts.pgn.path, "");
    if (opts.sprt) this.sprtState = { params: opts.sprt, llr: 0 };
    try {
      await this.startEngines(workers);
      const cores = await Promise.all(this.pairs.map(() => Core.create()));
      const tb = opts.settings.adjudication.tablebase;
      if (tb) {
        for (const core of cores) {
          const load = core.setSyzygyPath(tb.path);
          if (load.files === 0) throw new Error(`--tb ${tb.path}: no tablebase files there${load.errors.length ? ` (${load.errors[0]})` : ""}`);
        }
      }
      const [l1, l2] = this.limits.map(describeLimits);
      const limits = l1 === l2 ? l1 : `${l1} against ${l2} (time odds)`;
      opts.log(`${this.names[0]} vs ${this.names[1]}: ${opts.games} games, ${limits}, ` +
        `${opts.openings.length} openings, concurrency ${workers}`);
      if (opts.resume) this.restore(opts.resume);
      await Promise.all(this.pairs.map((pair, w) => this.worker(pair, cores[w])));
    } finally {
      await Promise.all(this.pairs.flat().map((e) => e.quit()));
    }
    return this.summary(performance.now() - started);
  }

  private async startEngines(workers: number): Promise<void> {
    const make = () => this.opts.engines.map((c) => new MatchEngine(c, this.opts.handshakeMs)) as [MatchEngine, MatchEngine];
    const first = make();
    this.pairs.push(first);
    try {
      await Promise.all(first.map((e) => e.start()));
    } catch (err) {
      for (const e of first) e.kill();
      throw err;
    }
    this.names = [first[0].name, first[1].name];
    if (this.names[0] === this.names[1]) this.names = [`${this.names[0]}-1`, `${this.names[1]}-2`];
    first.forEach((e, i) => {
      e.name = this.names[i];
      if (e.unknownOptions.length) this.opts.log(`warning: ${e.name} declares no option ${e.unknownOptions.map((n) => JSON.stringify(n)).join(", ")}`);
    });
    for (let w = 1; w < workers; w++) {
      const pair = make();
      pair.forEach((e, i) => (e.name = this.names[i]));
      this.pairs.push(pair);
    }
    await Promise.all(this.pairs.slice(1).flat().map((e) => e.start()));
  }

  private async worker(pair: [MatchEngine, MatchEngine], core: Core): Promise<void> {
    const { opts } = this;
    for (;;) {
      while (this.taken.has(this.next)) this.next++;
      if (this.stopping || this.next >= opts.games) break;
      const index = this.next++;
      this.taken.add(index);
      const opening = this.opening(index);
      const engine1White = index % 2 === 0;
      const engines = engine1White ? pair : ([pair[1], pair[0]] as const);
      const record = await playGame(core, engines, opening, opts.settings, () => this.aborted);
      if (record.end.result === "*") continue;
      this.record({ index, record, engine1White, points: engine1Points(record, engine1White) });
    }
  }

  /** Game k's opening: pair k/2's, round the openings. */
  private opening(index: number): Opening {
    return this.opts.openings[Math.floor(index / 2) % this.opts.openings.length];
  }

  /** Counts the games of an earlier run, after checking that they belong to this match. */
  private restore(played: PlayedGame[]): void {
    const { opts } = this;
    for (const g of played) {
      const where = `resume: game ${g.index + 1} of the PGN`;
      if (g.index >= opts.games) throw new Error(`${where} is beyond this match's ${opts.games} games`);
      if (this.taken.has(g.index)) throw new Error(`${where} is in the file twice`);
      const engine1White = g.index % 2 === 0;
      const [white, black] = engine1White ? this.names : [this.names[1], this.names[0]];
      if (g.white !== white || g.black !== black) {
        throw new Error(`${where} is ${g.white} vs ${g.black}, where this match plays ${white} vs ${black}`);
      }
      const opening = this.opening(g.index);
      if (g.startFen !== new Game(opening.fen).startFen || opening.moves.some((m, i) => g.moves[i] !== m)) {
        throw new Error(`${where} started from another position than this match's opening (the same --openings, --order and --seed?)`);
      }
      this.taken.add(g.index);
      const points = g.result === "1/2-1/2" ? 0.5 : (g.result === "1-0") === engine1White ? 1 : 0;
      this.count(g.index, points, engine1White, g.kind, g.loser);
    }
    opts.log(`Resumed after ${played.length} games of ${opts.pgn?.path ?? "an earlier run"}`);
    if (played.length) this.report();
  }

  private count(index: number, points: number, engine1White: boolean, kind: EndKind, loser: Side | undefined): void {
    this.counted++;
    if (points === 1) this.tri.wins++;
    else if (points === 0) this.tri.losses++;
    else this.tri.draws++;
    const pair = Math.floor(index / 2);
    const pp = [...(this.pairPoints.get(pair) ?? []), points];
    this.pairPoints.set(pair, pp);
    if (pp.length === 2) this.penta[(pp[0] + pp[1]) * 2]++;
    this.endings[kind] = (this.endings[kind] ?? 0) + 1;
    if (loser !== undefined && FAULTS.includes(kind)) {
      const loserIsEngine1 = (loser === 0) === engine1White;
      const f = this.faults[loserIsEngine1 ? 0 : 1];
      f[kind] = (f[kind] ?? 0) + 1;
    }
  }

  private record(result: GameResult): void {
    const { opts } = this;
    const { record } = result;
    this.results.push(result);
    const end = record.end;
    this.count(result.index, result.points, result.engine1White, end.kind, end.loser);
    if (opts.pgn) {
      appendFileSync(opts.pgn.path, formatPgn(record, {
        event: opts.pgn.event, site: opts.pgn.site, round: String(result.index + 1),
        timeControl: result.engine1White
          ? [pgnTimeControl(this.limits[0]), pgnTimeControl(this.limits[1])]
          : [pgnTimeControl(this.limits[1]), pgnTimeControl(this.limits[0])],
        moveComments: opts.pgn.moveComments,
      }));
    }
    opts.log(`Game ${result.index + 1}/${opts.games} (${record.white} vs ${record.black}, ${record.opening.name}): ${end.result} {${end.reason}}`);
    this.report();
  }

  /** The score line and the SPRT line after a game; stops the match when the SPRT decides. */
  private report(): void {
    const { opts } = this;
    opts.log(scoreLine(this.names, this.tri, eloEstimate(trinomialDistribution(this.tri))));
    const sprt = this.sprtState;
    if (sprt) {
      sprt.llr = sprtLlr(trinomialDistribution(this.tri), sprt.params);
      opts.log(sprtLine(sprt.llr, sprt.params, this.counted));
      // The normal approximation behind the LLR needs a sample: no decision before SPRT_MIN_GAMES.
      const decision = sprt.decision || this.counted < SPRT_MIN_GAMES ? undefined : sprtDecision(sprt.llr, sprt.params);
      if (decision) {
        sprt.decision = decision;
        sprt.decidedAtGame = this.counted;
        this.stopping = true;
        opts.log(`SPRT: ${decision} accepted after ${this.counted} games`);
      }
    }
  }

  private summary(elapsedMs: number): MatchSummary {
    const pairs = this.penta.reduce((a, b) => a + b, 0);
    return {
      names: this.names,
      games: this.counted,
      tri: { ...this.tri },
      penta: [...this.penta],
      elo: eloEstimate(trinomialDistribution(this.tri)),
      pentaElo: pairs ? eloEstimate(pentanomialDistribution(this.penta)) : undefined,
      los: los(this.tri),
      sprt: this.sprtState,
      endings: { ...this.endings },
      faults: [{ ...this.faults[0] }, { ...this.faults[1] }],
      restarts: [0, 1].map((i) => this.pairs.reduce((s, p) => s + p[i].restarts, 0)) as [number, number],
      elapsedMs,
      interrupted: this.aborted || (this.counted < this.opts.games - (this.opts.firstGame ?? 0) && !this.sprtState?.decision),
    };
  }
}

/** Engine 1's points in a finished game. */
export function engine1Points(record: GameRecord, engine1White: boolean): number {
  const r = record.end.result;
  if (r === "1/2-1/2") return 0.5;
  return (r === "1-0") === engine1White ? 1 : 0;
}
