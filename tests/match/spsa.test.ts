// The SPSA tuner (bench/spsa.ts, match/spsa.ts): fishtest's schedule, deterministic
// perturbations, the update's direction and bounds, and a short resumable run of real games.

import { describe, it, expect } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SpsaSettings, newState, openingIndex, perturbation, perturbed, schedule, update } from "../../match/spsa.js";

const SETTINGS: SpsaSettings = { iterations: 1000, rEnd: 0.002, A: 100, alpha: 0.602, gamma: 0.101, seed: 5 };
const PARAMS = [
  { name: "A", default: 75, min: 20, max: 200 },
  { name: "B", default: 3, min: 1, max: 10 },
];

describe("SPSA", () => {
  it("follows fishtest's schedule: c_k falls to c_end and R_k to r_end at the last iteration", () => {
    const end = schedule(SETTINGS, 9, SETTINGS.iterations);
    expect(end.c).toBeCloseTo(9, 12);
    expect(end.r).toBeCloseTo(0.002, 12);
    const first = schedule(SETTINGS, 9, 1);
    expect(first.c).toBeCloseTo(9 * Math.pow(1000, 0.101), 9);
    expect(first.r * first.c * first.c).toBeCloseTo(0.002 * 81 * Math.pow(1100 / 101, 0.602), 9);
  });

  it("starts at the defaults with c_end a twentieth of the range, at least half a unit", () => {
    const s = newState(PARAMS, SETTINGS, "setup");
    expect(s.params.map((p) => [p.value, p.cEnd])).toEqual([[75, 9], [3, 0.5]]);
  });

  it("perturbs deterministically, both ways about equally, and picks openings in range", () => {
    expect(perturbation(5, 17, 8)).toEqual(perturbation(5, 17, 8));
    expect(perturbation(5, 17, 8)).not.toEqual(perturbation(5, 18, 8));
    const all = Array.from({ length: 500 }, (_, k) => perturbation(5, k + 1, 4)).flat();
    expect(all.every((d) => d === 1 || d === -1)).toBe(true);
    expect(Math.abs(all.reduce((a, b) => a + b, 0))).toBeLessThan(150);
    const openings = Array.from({ length: 300 }, (_, k) => openingIndex(5, k + 1, 7));
    expect(Math.min(...openings)).toBe(0);
    expect(Math.max(...openings)).toBe(6);
  });

  it("plays θ ± c_k·Δ and moves θ towards the side that scored", () => {
    const s = newState(PARAMS, SETTINGS, "setup");
    const delta = [1, -1];
    const { plus, minus } = perturbed(s, 1, delta);
    const c = schedule(SETTINGS, 9, 1).c;
    expect(plus).toEqual([Math.round(75 + c), Math.round(3 - schedule(SETTINGS, 0.5, 1).c)]);
    expect(minus).toEqual([Math.round(75 - c), Math.round(3 + schedule(SETTINGS, 0.5, 1).c)]);
    update(s, 1, delta, 2); // θ+ won both games
    expect(s.params[0].value).toBeGreaterThan(75);
    expect(s.params[1].value).toBeLessThan(3);
    expect(s.done).toBe(1);
    const before = s.params.map((p) => p.value);
    update(s, 2, delta, 0); // a drawn pair says nothing
    expect(s.params.map((p) => p.value)).toEqual(before);
  });

  it("keeps θ within the ranges", () => {
    const s = newState(PARAMS, { ...SETTINGS, rEnd: 1000 }, "setup");
    update(s, 1, [1, 1], 2);
    expect(s.params.map((p) => p.value)).toEqual([200, 10]);
    expect(perturbed(s, 1, [1, 1]).plus).toEqual([200, 10]);
  });

  it("runs game pairs against itself with --tune and resumes from its state", () => {
    const dir = mkdtempSync(join(tmpdir(), "spsa-"));
    const state = join(dir, "state.json");
    const run = (iterations: number) => execFileSync(process.execPath, [
      "--import", "tsx", "bench/spsa.ts", "--engine", "cmd=node,args=build/cli.js --tune", "--each", "option.Hash=1",
      "--state", state, "--iterations", String(iterations), "--depth", "1", "--maxmoves", "30", "--params", "RFP Margin,LMR Base",
    ], { encoding: "utf8", timeout: 120_000 });
    const first = run(2);
    expect(first).toMatch(/pair 2\/2: θ\+ [0-9.]+ of 2/);
    const saved = JSON.parse(readFileSync(state, "utf8"));
    expect(saved.done).toBe(2);
    expect(saved.games.wins + saved.games.losses + saved.games.draws).toBe(4);
    expect(saved.params.map((p: { name: string }) => p.name)).toEqual(["RFP Margin", "LMR Base"]);
    const second = run(2);
    expect(second).toMatch(/resuming .* after 2 of 2 pairs/);
    expect(second).not.toMatch(/pair \d/);
    expect(second).toMatch(/options: option\.RFP Margin=\d+,option\.LMR Base=\d+/);
  }, 150_000);
});
