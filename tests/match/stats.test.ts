// The match library's statistics (match/stats.ts): Elo, error bars, LOS and the SPRT against
// independently computed values.
import { describe, it, expect } from "vitest";
import {
  eloEstimate, eloFromJson, eloToScore, erf, formatElo, los, normalQuantile, pentanomialDistribution, scoreToElo, sprtBounds,
  sprtDecision, sprtLlr, trinomialDistribution,
} from "../../match/stats.js";


// Expected values below were computed separately with Python and SciPy (norm.ppf, norm.cdf,
// math.erf), implementing the formulas from their definitions.
describe("match statistics", () => {
  it("reads an estimate back from JSON, which writes infinite values as null", () => {
    const e = eloEstimate(trinomialDistribution({ wins: 3, losses: 0, draws: 0 }));
    const back = eloFromJson(JSON.parse(JSON.stringify(e)));
    expect(back).toEqual(e);
    expect(back.elo).toBe(Infinity);
    const some = eloEstimate(trinomialDistribution({ wins: 5, losses: 3, draws: 4 }));
    expect(eloFromJson(JSON.parse(JSON.stringify(some)))).toEqual(some);
  });

  it("converts between score and Elo with the logistic model", () => {
    expect(scoreToElo(0.75)).toBeCloseTo(190.8485, 3);
    expect(scoreToElo(0.5)).toBeCloseTo(0, 12);
    expect(eloToScore(100)).toBeCloseTo(0.640065, 6);
    expect(scoreToElo(eloToScore(-250))).toBeCloseTo(-250, 9);
    expect(scoreToElo(1)).toBe(Infinity);
    expect(scoreToElo(0)).toBe(-Infinity);
  });

  it("has an accurate erf and normal quantile", () => {
    expect(erf(0.5)).toBeCloseTo(0.5204998778, 6);
    expect(erf(-1.7)).toBeCloseTo(-0.9837904586, 6);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963985, 7);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232306, 7);
    expect(normalQuantile(0.5)).toBeCloseTo(0, 9);
  });

  it("gives Elo with a 95% error bar from per-game and per-pair variance", () => {
    const tri = eloEstimate(trinomialDistribution({ wins: 30, losses: 20, draws: 50 }));
    expect(tri.score).toBeCloseTo(0.55, 12);
    expect(tri.elo).toBeCloseTo(34.86007, 4);
    expect(tri.margin).toBeCloseTo(48.47023, 3);
    const penta = eloEstimate(pentanomialDistribution([2, 10, 20, 12, 6]));
    expect(penta.elo).toBeCloseTo(34.86007, 4);
    expect(penta.margin).toBeCloseTo(49.95251, 3);
    // All wins: the interval reaches a score of 1, so the margin is unbounded.
    expect(eloEstimate(trinomialDistribution({ wins: 3, losses: 0, draws: 0 })).margin).toBe(Infinity);
  });

  it("computes LOS from wins and losses", () => {
    expect(los({ wins: 30, losses: 20, draws: 50 })).toBeCloseTo(0.92135, 4);
    expect(los({ wins: 20, losses: 30, draws: 0 })).toBeCloseTo(1 - 0.92135, 4);
    expect(los({ wins: 0, losses: 0, draws: 9 })).toBe(0.5);
  });

  it("computes the SPRT LLR, bounds and decision", () => {
    const p = { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05 };
    const b = sprtBounds(p);
    expect(b.lower).toBeCloseTo(-2.944439, 6);
    expect(b.upper).toBeCloseTo(2.944439, 6);
    expect(sprtLlr(trinomialDistribution({ wins: 60, losses: 40, draws: 100 }), p)).toBeCloseTo(0.545093, 5);
    expect(sprtLlr(pentanomialDistribution([2, 10, 20, 12, 6]), p)).toBeCloseTo(0.256823, 5);
    expect(sprtLlr(trinomialDistribution({ wins: 10, losses: 0, draws: 0 }), p)).toBeCloseTo(285.8119, 2);
    // A score below elo0's expectation drives the LLR down.
    expect(sprtLlr(trinomialDistribution({ wins: 40, losses: 60, draws: 100 }), p)).toBeCloseTo(-0.629614, 5);
    expect(sprtDecision(sprtLlr(trinomialDistribution({ wins: 400, losses: 600, draws: 1000 }), p), p)).toBe("H0");
    expect(sprtLlr(trinomialDistribution({ wins: 0, losses: 0, draws: 0 }), p)).toBe(0);
    expect(sprtDecision(3, p)).toBe("H1");
    expect(sprtDecision(-3, p)).toBe("H0");
    expect(sprtDecision(0.5, p)).toBeUndefined();
  });

  it("formats Elo with a sign", () => {
    expect(formatElo(190.8485)).toBe("+190.8");
    expect(formatElo(-12.34)).toBe("-12.3");
    expect(formatElo(-0.01)).toBe("+0.0");
    expect(formatElo(-Infinity)).toBe("-inf");
  });
});
