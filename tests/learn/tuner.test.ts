// The evaluation tuner: the trace reproduces the engine's evaluation, the analytic gradient
// agrees with finite differences, the loss falls, and params.ts is rewritten in place.
//
// tests/data/selfplay-16k.bin holds the first 16,384 records of
//   npm run datagen -- --out data/hce1 --positions 40000000 --seed 1 --threads 1
// (5,000 nodes per move, the hand-set evaluation of commit d5fff90).
import { describe, it, expect, beforeAll } from "vitest";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { TraceSet, Tracer } from "../../learn/trace-set.js";
import { readWeights, writeParamsText, PARAMS_FILE } from "../../learn/params-file.js";
import { evaluate, trainableMask, WeightLayout } from "../../learn/eval-model.js";
import { fitK, loss, lossGradient, tune } from "../../learn/texel.js";
import { readRecords } from "../../learn/records.js";
import { Rng } from "../../learn/rng.js";

const FIXTURE = fileURLToPath(new URL("../data/selfplay-16k.bin", import.meta.url));

let tracer: Tracer;
let layout: WeightLayout;
let theta0: Float64Array;
const set = new TraceSet();
const held = new TraceSet();

beforeAll(async () => {
  tracer = await Tracer.create();
  ({ layout, theta0 } = (({ layout, theta }) => ({ layout, theta0: theta }))(readWeights(tracer.core)));
  let i = 0;
  for (const chunk of readRecords([FIXTURE], 1024)) {
    tracer.trace(i++ % 8 === 7 ? held : set, chunk.bytes, chunk.count, { maxScore: 2000, quiet: true }, (r) => `${chunk.file}: record ${chunk.first + r}`);
  }
});

describe("evaluation trace", () => {
  it("covers the data and reproduces the engine's evaluation", () => {
    expect(set.count).toBeGreaterThan(10000);
    let worst = 0;
    for (let p = 0; p < set.count; p++) worst = Math.max(worst, Math.abs(evaluate(set, p, theta0, layout) - set.engineEval[p]));
    expect(worst).toBeLessThanOrEqual(3);
  });

  it("reproduces it also on positions whose pawn structure is not cached yet", async () => {
    const fresh = await Tracer.create();
    const cold = new TraceSet();
    const chunk = readRecords([FIXTURE], 2048).next().value!;
    fresh.trace(cold, chunk.bytes, chunk.count, { maxScore: 2000, quiet: false }, (r) => `record ${r}`);
    let worst = 0;
    for (let p = 0; p < cold.count; p++) worst = Math.max(worst, Math.abs(evaluate(cold, p, theta0, layout) - cold.engineEval[p]));
    expect(cold.count).toBeGreaterThan(1500);
    expect(worst).toBeLessThanOrEqual(3);
  });

  it("names every weight once, and the king attack units as plain weights", () => {
    expect(new Set(layout.names).size).toBe(layout.names.length);
    expect(layout.names[layout.kingAttackUnits + 5]).toBe("KING_ATTACK_UNITS[5]");
    expect(layout.kinds[layout.kingAttackUnits + 5]).toBe(1);
    expect(layout.names).toContain("TEMPO");
  });

  it("names a corrupted record's file and index", () => {
    const bytes = readFileSync(FIXTURE).subarray(0, 64);
    const bad = new Uint8Array(bytes);
    bad[32 + 30] = 9;
    expect(() => tracer.trace(new TraceSet(), bad, 2, { maxScore: 2000, quiet: true }, (i) => `fix.bin: record ${i}`)).toThrow(
      /^fix\.bin: record 1: result 9/,
    );
  });
});

describe("Texel tuning", () => {
  it("has an analytic gradient equal to finite differences, king attack units included", () => {
    const rng = new Rng(5);
    const theta = theta0.map((v) => v + rng.normal() * 3);
    const ps = Array.from({ length: 400 }, (_, i) => i * 7);
    const k = 1.1;
    const lossOn = (t: Float64Array) => {
      let sum = 0;
      for (const p of ps) {
        const s = 1 / (1 + Math.pow(10, (-k * evaluate(set, p, t, layout)) / 400));
        const y = 0.5 * set.result[p] + 0.5 / (1 + Math.pow(10, (-k * set.score[p]) / 400));
        sum += (s - y) ** 2;
      }
      return sum;
    };
    const grad = new Float64Array(theta.length);
    lossGradient(set, ps, theta, layout, k, 0.5, grad);
    // The weights with the largest gradients, and every king attack unit that moves.
    const order = [...grad.keys()].sort((a, b) => Math.abs(grad[b]) - Math.abs(grad[a])).slice(0, 25);
    for (let pt = 2; pt <= 5; pt++) order.push(2 * (layout.kingAttackUnits + pt));
    expect(order.some((i) => Math.abs(grad[i]) > 1e-4)).toBe(true);
    for (const i of order) {
      const h = 0.01;
      const plus = theta.slice();
      plus[i] += h;
      const minus = theta.slice();
      minus[i] -= h;
      const numeric = (lossOn(plus) - lossOn(minus)) / (2 * h);
      expect(Math.abs(numeric - grad[i])).toBeLessThanOrEqual(1e-3 * Math.max(1, Math.abs(numeric)) + 1e-7);
    }
  });

  it("lowers the training loss from the hand-set weights", () => {
    const theta = theta0.slice();
    const k = fitK(set, theta, layout, 0.5);
    expect(k).toBeGreaterThan(0.3);
    expect(k).toBeLessThan(3);
    const before = { train: loss(set, theta, layout, k, 0.5) };
    const after = tune(set, held, theta, trainableMask(layout), layout, k, { wdl: 0.5, epochs: 3, batchSize: 4096, lr: 1, lrEnd: 0.1, seed: 3 });
    // 16k positions are too few for a better held-out loss (the real runs show it on millions);
    // the training loss must fall.
    expect(after.train).toBeLessThan(before.train * 0.95);
    expect(Number.isFinite(after.validation)).toBe(true);
    // Plain weights have no endgame half to tune.
    expect(theta[2 * (layout.kingAttackUnits + 5) + 1]).toBe(0);
  });
});

describe("params.ts", () => {
  it("is rewritten in place: the same values give the same text under a new header", () => {
    const text = readFileSync(PARAMS_FILE, "utf8");
    const out = writeParamsText(text, layout, theta0, ["a test", "second line"]);
    const strip = (t: string) => t.split("\n").filter((l) => !l.startsWith("// Tuned by") && !l.startsWith("//   ")).join("\n");
    expect(strip(out)).toBe(strip(text));
    expect(out).toContain("// Tuned by a test\n//   second line\n");
  });

  it("takes new values at the right places", () => {
    const text = readFileSync(PARAMS_FILE, "utf8");
    const theta = theta0.slice();
    const i = layout.names.indexOf("TEMPO");
    theta[2 * i] = 17;
    theta[2 * i + 1] = -3;
    const j = layout.names.indexOf("KNIGHT_PSQ[5]");
    theta[2 * j] = 42;
    const u = layout.kingAttackUnits + 4;
    theta[2 * u] = 13;
    const out = writeParamsText(text, layout, theta, ["x"]);
    expect(out).toMatch(/export let TEMPO: i32 = S\(17, -3\);/);
    const knight = /export const KNIGHT_PSQ: StaticArray<i32> = \[([^\]]*)\]/.exec(out)![1];
    expect(knight.match(/S\([^)]*\)/g)![5].replace(/\s/g, "")).toMatch(/^S\(42,/);
    expect(/export const KING_ATTACK_UNITS: StaticArray<i32> = \[([^\]]*)\]/.exec(out)![1].split(",").map(Number)[4]).toBe(13);
  });
});

describe("TD-Leaf(lambda)", () => {
  it("plays a game whose PV leaves are traced, and with lambda = 1 moves the weights down the gradient of the squared prediction errors", async () => {
    const { playLearningGame, tdLeafUpdate } = await import("../../learn/tdleaf.js");
    const { DEFAULT_SETTINGS } = await import("../../learn/selfplay.js");
    const o = { nodes: 300, lambda: 1, alpha: 1, k: 1, seed: 9, optimizer: "adam" as const };
    const game = playLearningGame(tracer.core, 2, { ...DEFAULT_SETTINGS, nodes: 300, openingNodes: 300, seed: 9 }, o);
    expect(game.leaves.count).toBeGreaterThan(10);
    expect([0, 0.5, 1]).toContain(game.result);
    const update = tdLeafUpdate(game, theta0, layout, o);
    // With lambda = 1 the update is -grad of 1/2 * sum_t (result - J_t)^2 over the traced leaves
    // (positions with a certain J add no gradient).
    const objective = (t: Float64Array) => {
      let sum = 0;
      for (let p = 0; p < game.leaves.count; p++) {
        const j = 1 / (1 + Math.pow(10, -evaluate(game.leaves, p, t, layout) / 400));
        sum += 0.5 * (game.result - j) ** 2;
      }
      return sum;
    };
    const order = [...update.keys()].sort((a, b) => Math.abs(update[b]) - Math.abs(update[a])).slice(0, 15);
    expect(Math.abs(update[order[0]])).toBeGreaterThan(1e-6);
    for (const i of order) {
      const h = 0.01;
      const plus = theta0.slice();
      plus[i] += h;
      const minus = theta0.slice();
      minus[i] -= h;
      const numeric = -(objective(plus) - objective(minus)) / (2 * h);
      expect(Math.abs(numeric - update[i])).toBeLessThanOrEqual(1e-3 * Math.max(1e-3, Math.abs(numeric)) + 1e-8);
    }
  });

  it("steps by alpha times the update with plain SGD, by the update's sign and a normalised size with Adam, trainable weights only", async () => {
    const { applyUpdate } = await import("../../learn/tdleaf.js");
    const u = Float64Array.from([0.002, -0.0005, 0.3, 0]);
    const mask = [1, 1, 0, 1];
    const sgd = Float64Array.from([10, 20, 30, 40]);
    applyUpdate(sgd, new Float64Array(4), new Float64Array(4), u, mask, 1, { alpha: 1000, optimizer: "sgd" });
    expect([...sgd]).toEqual([12, 19.5, 30, 40]);
    const adam = Float64Array.from([10, 20, 30, 40]);
    applyUpdate(adam, new Float64Array(4), new Float64Array(4), u, mask, 1, { alpha: 1, optimizer: "adam" });
    // Adam's first step is alpha times the sign of the update, whatever its size.
    expect([...adam].map((x) => Math.round(x * 1e6) / 1e6)).toEqual([11, 19, 30, 40]);
  });
});
