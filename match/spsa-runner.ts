// An SPSA tuning run by games (spsa.ts holds the algorithm): one engine configuration started
// twice per worker, θ+ and θ−, each iteration a game pair between them from one opening with
// colours swapped, the parameters moved by the pair's result. The caller keeps the state
// (and saves it after every pair to resume); this module plays.

import { Core } from "../bindings/core.js";
import { EngineConfig, MatchEngine } from "./engine.js";
import { GameSettings, playGame } from "./game.js";
import { Opening } from "./openings.js";
import { engine1Points } from "./runner.js";
import { SpsaState, openingIndex, perturbation, perturbed, update } from "./spsa.js";

export interface SpsaRunOptions {
  /** The engine; it must declare every tuned parameter as a spin option. */
  engine: EngineConfig;
  openings: Opening[];
  settings: GameSettings;
  /** Pairs at once, each with its own two engine processes. */
  concurrency: number;
  /** Called after every finished pair, once the state has been updated. */
  onPair?: (pair: SpsaPair) => void;
}

/** One finished iteration. */
export interface SpsaPair {
  /** The iteration, 1-based. */
  k: number;
  /** θ+'s points of 2. */
  points: number;
  opening: Opening;
}

/** Plays the iterations from state.done to the run's end, updating state as pairs finish. */
export class SpsaRun {
  private readonly pairs: [MatchEngine, MatchEngine][] = [];
  private stopping = false;
  private next: number;

  constructor(
    readonly state: SpsaState,
    private readonly opts: SpsaRunOptions,
  ) {
    this.next = state.done;
  }

  /** Stops now: kills the engines; the pairs in progress are dropped (not counted). */
  stop(): void {
    this.stopping = true;
    for (const p of this.pairs) for (const e of p) e.kill();
  }

  /** Starts the engines, plays until the run's last iteration (or stop()), and quits them.
   *  Throws when an engine cannot start or lacks a tuned parameter. */
  async run(): Promise<SpsaState> {
    const { state, opts } = this;
    try {
      for (let w = 0; w < Math.max(1, opts.concurrency); w++) {
        const pair: [MatchEngine, MatchEngine] = [
          new MatchEngine({ ...opts.engine, name: "plus" }), new MatchEngine({ ...opts.engine, name: "minus" }),
        ];
        this.pairs.push(pair);
        await Promise.all(pair.map((e) => e.start()));
        const missing = state.params.filter((p) => !pair[0].spins.has(p.name));
        if (missing.length) throw new Error(`the engine declares no option ${missing.map((p) => p.name).join(", ")} (is --tune in its args?)`);
      }
      const rules = await Promise.all(this.pairs.map(() => Core.create()));
      await Promise.all(this.pairs.map((p, w) => this.worker(p, rules[w])));
    } finally {
      await Promise.all(this.pairs.flat().map((e) => e.quit()));
    }
    return state;
  }

  private async worker(pair: [MatchEngine, MatchEngine], rules: Core): Promise<void> {
    const { state, opts } = this;
    while (!this.stopping && this.next < state.settings.iterations) {
      const k = ++this.next;
      const delta = perturbation(state.settings.seed, k, state.params.length);
      const { plus, minus } = perturbed(state, k, delta);
      pair[0].setOptions(state.params.map((p, i) => [p.name, String(plus[i])]));
      pair[1].setOptions(state.params.map((p, i) => [p.name, String(minus[i])]));
      const opening = opts.openings[openingIndex(state.settings.seed, k, opts.openings.length)];
      const scores: number[] = [];
      for (const plusWhite of [true, false]) {
        const record = await playGame(rules, plusWhite ? pair : [pair[1], pair[0]], opening, opts.settings, () => this.stopping);
        if (record.end.result === "*" || this.stopping) return;
        scores.push(engine1Points(record, plusWhite));
      }
      for (const p of scores) state.games[p === 1 ? "wins" : p === 0 ? "losses" : "draws"]++;
      const points = scores[0] + scores[1];
      update(state, k, delta, points - (2 - points));
      opts.onPair?.({ k, points, opening });
    }
  }
}
