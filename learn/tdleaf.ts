// TD-Leaf(lambda), the method of KnightCap and of FUSc#/DarkFUSc#: the engine plays itself and
// after every game moves each weight along the gradient of the evaluation at the leaves of the
// principal variations, by the temporal differences that follow:
//
//   w += alpha * sum_t grad J(l_t) * sum_{j >= t} lambda^(j - t) * d_j,   d_t = J(l_{t+1}) - J(l_t)
//
// where l_t is the quiet leaf of the PV searched at ply t, J = winProbability(K * eval) from
// white's view, and J after the last position is the game's result (1, 1/2, 0). With the
// default optimizer alpha is a per-weight step: the accumulated update is normalised as Adam
// does, so that one learning rate (in centipawns per game) suits weights whose gradients
// differ by orders of magnitude. With `--optimizer sgd` the step is plain stochastic gradient
// descent, alpha times the update (the FUSc# paper's rule; docs/learning.md gives the reason
// to try it). The engine plays with the updated (rounded) weights from the next game on.
//
//   npm run tune -- --method tdleaf [--games 200 | --hours H] [--nodes 5000] [--lambda 0.7]
//       [--alpha 1] [--k 1] [--optimizer adam|sgd] [--seed 1] [--state FILE] [--dry-run]
//       [--params-out FILE]

import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { Rng } from "./rng.js";
import { TraceSet, Tracer } from "./trace-set.js";
import { WeightLayout, addGradient, evaluate, trainableMask, winProbability } from "./eval-model.js";
import { loadWeights, readWeights, writeParamsFile, paramsOut } from "./params-file.js";
import { Adjudicator, DEFAULT_SETTINGS, SelfPlaySettings, currentPly, ruleResult, startGame } from "./selfplay.js";
import type { Core } from "../bindings/core.js";

const MATE_BOUND = 32000 - 128;
const LN10_400 = Math.LN10 / 400;

export interface TdLeafOptions {
  nodes: number;
  lambda: number;
  /** Step: in centipawns per game (Adam-normalised), or the factor of the update (SGD). */
  alpha: number;
  optimizer: "adam" | "sgd";
  /** Scale of the evaluation in J. */
  k: number;
  seed: number;
}

/** The learner's state: weights, optimiser moments, games played; saved to resume. */
export interface TdLeafState {
  theta: number[];
  m: number[];
  v: number[];
  games: number;
  results: { white: number; draw: number; black: number };
  seconds: number;
}

/** One position of a game: the traced quiet PV leaf, or a mate score's certain outcome. */
interface Step {
  traced: boolean;
  /** J of a mate score (1 or 0, white's view). */
  certain: number;
}

/** Plays game `index` with the engine's current weights; returns the traced leaves and the
 *  result (white's view, 0 / 0.5 / 1). */
export function playLearningGame(core: Core, index: number, settings: SelfPlaySettings, o: TdLeafOptions): { leaves: TraceSet; steps: Step[]; result: number } {
  const rng = new Rng(o.seed, index);
  startGame(core, rng, settings);
  const leaves = new TraceSet();
  const steps: Step[] = [];
  const adjudicator = new Adjudicator(settings);
  let ply = currentPly(core);
  const w = core.exports;
  for (;;) {
    const status = core.status();
    if (status !== "ongoing") return { leaves, steps, result: ruleResult(core, status) / 2 };
    const search = core.search({ nodes: o.nodes });
    const raw = w.resultScore();
    const white = core.sideToMove() === "w" ? raw : -raw;
    if (Math.abs(raw) >= MATE_BOUND) {
      steps.push({ traced: false, certain: white > 0 ? 1 : 0 });
    } else {
      const used = w.tracePrincipalLeaf();
      const words = new Int32Array(w.memory.buffer, w.traceBuffer(), used);
      if (words[0] === 0) {
        leaves.add(words, 0, white, 1);
        steps.push({ traced: true, certain: 0 });
      } else {
        // A leaf the weights do not describe (a dead draw, a lone king being mated).
        steps.push({ traced: false, certain: winProbability(white, o.k) });
      }
    }
    const verdict = adjudicator.add(white, ply);
    if (verdict) return { leaves, steps, result: verdict.result / 2 };
    if (!core.playMove(search.bestmove)) throw new Error(`illegal move ${search.bestmove} in ${core.fen()}`);
    ply++;
  }
}

/** The TD-Leaf update direction of one game (to be added to theta, before normalising). */
export function tdLeafUpdate(game: { leaves: TraceSet; steps: Step[]; result: number }, theta: Float64Array, layout: WeightLayout, o: TdLeafOptions): Float64Array {
  const { leaves, steps, result } = game;
  const n = steps.length;
  const J = new Float64Array(n + 1);
  const leafOf = new Int32Array(n).fill(-1);
  let p = 0;
  for (let t = 0; t < n; t++) {
    if (steps[t].traced) {
      leafOf[t] = p;
      J[t] = winProbability(evaluate(leaves, p++, theta, layout), o.k);
    } else {
      J[t] = steps[t].certain;
    }
  }
  J[n] = result;
  const update = new Float64Array(theta.length);
  let trace = 0; // sum_{j >= t} lambda^(j - t) d_j, built backwards
  for (let t = n - 1; t >= 0; t--) {
    trace = J[t + 1] - J[t] + o.lambda * trace;
    if (leafOf[t] < 0) continue;
    const g = J[t] * (1 - J[t]) * o.k * LN10_400 * trace;
    addGradient(leaves, leafOf[t], theta, layout, g, update);
  }
  return update;
}

/** Moves the trainable weights (mask) of theta by one game's update u: alpha times u (SGD), or
 *  Adam's step from the moments m and v, updated with u, after t games. */
export function applyUpdate(theta: Float64Array, m: Float64Array, v: Float64Array, u: Float64Array, mask: ArrayLike<boolean | number>, t: number, o: Pick<TdLeafOptions, "alpha" | "optimizer">): void {
  for (let i = 0; i < theta.length; i++) {
    if (!mask[i]) continue;
    if (o.optimizer === "sgd") {
      theta[i] += o.alpha * u[i];
      continue;
    }
    m[i] = 0.9 * m[i] + 0.1 * u[i];
    v[i] = 0.999 * v[i] + 0.001 * u[i] * u[i];
    theta[i] += (o.alpha * (m[i] / (1 - 0.9 ** t))) / (Math.sqrt(v[i] / (1 - 0.999 ** t)) + 1e-12);
  }
}

function readState(file: string | undefined, theta: Float64Array): TdLeafState {
  if (file && existsSync(file)) {
    const s = JSON.parse(readFileSync(file, "utf8")) as TdLeafState;
    if (s.theta.length !== theta.length) throw new Error(`${file}: ${s.theta.length} weights, the engine has ${theta.length}`);
    return s;
  }
  return { theta: [...theta], m: new Array(theta.length).fill(0), v: new Array(theta.length).fill(0), games: 0, results: { white: 0, draw: 0, black: 0 }, seconds: 0 };
}

export async function runTdLeaf(values: Record<string, string | boolean | string[] | undefined>, command: string): Promise<void> {
  const num = (name: string, fallback: number) => (values[name] === undefined ? fallback : Number(values[name]));
  const optimizer = (values.optimizer ?? "adam") as string;
  if (optimizer !== "adam" && optimizer !== "sgd") throw new Error(`--optimizer must be adam or sgd, not ${JSON.stringify(optimizer)}`);
  const o: TdLeafOptions = {
    nodes: num("nodes", 5000), lambda: num("lambda", 0.7), alpha: num("alpha", 1), k: num("k", 1), seed: num("seed", 1), optimizer,
  };
  const gamesWanted = num("games", 200);
  const hours = values.hours === undefined ? Infinity : Number(values.hours);
  const stateFile = values.state as string | undefined;
  const tracer = await Tracer.create();
  const core = tracer.core;
  core.setHash(8);
  const { layout, theta: initial } = readWeights(core);
  const state = readState(stateFile, initial);
  const theta = Float64Array.from(state.theta);
  const m = Float64Array.from(state.m);
  const v = Float64Array.from(state.v);
  const mask = trainableMask(layout);
  loadWeights(core, layout, theta);
  const settings: SelfPlaySettings = { ...DEFAULT_SETTINGS, nodes: o.nodes, openingNodes: o.nodes, seed: o.seed };
  const began = performance.now();
  const startSeconds = state.seconds;
  let stopping = false;
  process.on("SIGINT", () => (stopping = true));
  const save = () => {
    state.theta = [...theta];
    state.m = [...m];
    state.v = [...v];
    state.seconds = startSeconds + (performance.now() - began) / 1000;
    if (stateFile) {
      writeFileSync(stateFile + ".tmp", JSON.stringify(state));
      renameSync(stateFile + ".tmp", stateFile);
    }
  };
  while (state.games < gamesWanted && state.seconds < hours * 3600 && !stopping) {
    const game = playLearningGame(core, state.games, settings, o);
    const u = tdLeafUpdate(game, theta, layout, o);
    state.games++;
    const t = state.games;
    applyUpdate(theta, m, v, u, mask, t, o);
    loadWeights(core, layout, theta);
    if (game.result === 1) state.results.white++;
    else if (game.result === 0) state.results.black++;
    else state.results.draw++;
    state.seconds = startSeconds + (performance.now() - began) / 1000;
    if (t % 10 === 0) {
      save();
      const r = state.results;
      console.log(`games ${t}  (white ${r.white} draw ${r.draw} black ${r.black})  ${(state.seconds / t).toFixed(2)} s/game  ${(state.seconds / 3600).toFixed(2)} h`);
    }
  }
  save();
  const header = [
    `\`${command}\` (learn/tdleaf.ts, TD-Leaf(lambda)):`,
    `${state.games} self-play games at ${o.nodes} nodes per move in ${(state.seconds / 3600).toFixed(2)} h, lambda ${o.lambda}, alpha ${o.alpha} (${o.optimizer}), K ${o.k}, seed ${o.seed}.`,
  ];
  if (values["dry-run"]) {
    console.log("dry run: params.ts unchanged");
    return;
  }
  writeParamsFile(layout, theta, header, paramsOut(values["params-out"] as string | undefined));
  console.log(`${values["params-out"] ?? "assembly/params.ts"} written after ${state.games} games; rebuild and run \`npm run bench\` for the new signature`);
}
