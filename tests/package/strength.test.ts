// Strength levels: Skill Level and the Elo limit through Core, Engine and UCI; the weakened
// search stops at the skill's depth and plays one of its best lines (never a move outside
// them, a mate it sees always), strays from the best line less as the level rises, is
// reproducible with a seed, and leaves infinite (analysis) searches at full strength.
import { describe, it, expect, beforeAll } from "vitest";
import { Core } from "../../bindings/core.js";
import { Engine } from "../../bindings/engine.js";
import { eloToSkill, ELO_MIN, ELO_MAX, SKILL_ELO } from "../../bindings/strength.js";
import { startCli } from "../helpers/cli.js";

/** Positions from seeded random playouts of the start position. */
function positions(core: Core, count: number): string[] {
  let seed = 99;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const out: string[] = [];
  while (out.length < count) {
    core.setPosition("startpos");
    const plies = 6 + rnd(30);
    for (let p = 0; p < plies; p++) {
      const moves = core.legalMoves();
      if (moves.length === 0) break;
      core.playMove(moves[rnd(moves.length)]);
    }
    if (core.legalMoves().length >= 4) out.push(core.fen());
  }
  return out;
}

/** The full-strength MultiPV-4 lines of a search to depth d: their first moves, best first. */
function bestLines(core: Core, fen: string, depth: number): string[] {
  core.setSkillLevel(20);
  core.setMultiPv(4);
  core.newGame();
  core.setPosition(fen);
  const lines = new Map<number, string>();
  core.search({ depth }, { onInfo: (i) => i.depth === depth && !i.bound && lines.set(i.multipv, i.pv[0]) });
  core.setMultiPv(1);
  return [...lines.keys()].sort().map((k) => lines.get(k)!);
}

describe("skill levels", () => {
  let core: Core;
  let sample: string[];
  beforeAll(async () => {
    core = await Core.create({ build: "classical" });
    sample = positions(core, 60);
  });

  it("stop at the skill's depth and play one of the best four lines of that depth", () => {
    let notBest = 0;
    for (const fen of sample) {
      const lines = bestLines(core, fen, 1);
      core.setSkillLevel(0);
      core.newGame();
      core.setPosition(fen);
      const r = core.search({ depth: 30 });
      expect(r.depth).toBe(1);
      expect(lines, fen).toContain(r.bestmove);
      if (r.bestmove !== lines[0]) notBest++;
    }
    // Level 0 strays from the best line often, yet never outside the four best.
    expect(notBest).toBeGreaterThan(sample.length / 4);
    core.setSkillLevel(20);
  });

  it("stray less as the level rises", () => {
    const strays = (level: number) => {
      core.setSkillLevel(level);
      core.setSkillSeed(12345);
      let n = 0;
      for (const fen of sample) {
        const best = bestLines(core, fen, 1 + Math.floor(level / 2))[0];
        core.setSkillLevel(level);
        core.newGame();
        core.setPosition(fen);
        if (core.search({ depth: 30 }).bestmove !== best) n++;
      }
      return n;
    };
    const low = strays(1);
    const high = strays(9);
    expect(high).toBeLessThan(low);
    core.setSkillLevel(20);
  });

  it("never miss a mate in one that the search sees", () => {
    core.setSkillLevel(0);
    for (let seed = 1; seed <= 20; seed++) {
      core.setSkillSeed(seed);
      core.setPosition("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3");
      expect(core.search({ depth: 5 }).bestmove).toBe("f3f7");
    }
    core.setSkillLevel(20);
  });

  it("choose the same with the same seed, and leave infinite searches at full strength", () => {
    const run = () => {
      core.setSkillLevel(2);
      core.setSkillSeed(777);
      return sample.slice(0, 20).map((fen) => {
        core.newGame();
        core.setPosition(fen);
        return core.search({ depth: 30 }).bestmove;
      });
    };
    expect(run()).toEqual(run());
    core.setSkillLevel(0);
    core.setPosition("startpos");
    const started = performance.now();
    let polls = 0;
    const r = core.search({ infinite: true }, { poll: () => (++polls > 10 || performance.now() - started > 300 ? 1 : 0) });
    expect(r.depth).toBeGreaterThan(3);
    core.setSkillLevel(20);
  });

  it("the Elo limit overrides the skill level and maps onto the measured scale", () => {
    core.setSkillLevel(5);
    expect(core.strength()).toEqual({ skillLevel: 5, elo: null, level: 5 });
    core.setElo(ELO_MIN);
    expect(core.strength().level).toBeCloseTo(eloToSkill(ELO_MIN), 6);
    core.setElo(null);
    expect(core.strength().level).toBe(5);
    for (let elo = ELO_MIN; elo < ELO_MAX; elo += 50) expect(eloToSkill(elo + 50)).toBeGreaterThan(eloToSkill(elo));
    expect(eloToSkill(ELO_MAX)).toBeLessThan(20);
    expect(SKILL_ELO.length).toBeGreaterThanOrEqual(4);
    expect(() => core.setSkillLevel(21)).toThrow(RangeError);
    expect(() => core.setSkillLevel(1.5)).toThrow(/setSkillLevel: level must be an integer from 0 to 20/);
    expect(() => core.setElo(ELO_MAX + 1)).toThrow(new RegExp(`setElo: elo must be an integer from ${ELO_MIN} to ${ELO_MAX}`));
    expect(() => core.setElo("1500" as never)).toThrow(TypeError);
    core.setSkillLevel(20);
  });
});

describe("strength through the Engine and UCI", () => {
  it("Engine: options, setters, and the strength kept through a worker restart", async () => {
    const engine = await Engine.create({ build: "classical", skillLevel: 3 });
    try {
      expect(await engine.strength()).toEqual({ skillLevel: 3, elo: null, level: 3 });
      await engine.setElo(1600);
      const { level } = await engine.strength();
      expect(level).toBeCloseTo(eloToSkill(1600), 6);
      await expect(engine.crashForTesting()).rejects.toThrow();
      expect((await engine.strength()).level).toBeCloseTo(eloToSkill(1600), 6);
      const r = await engine.search({ depth: 40 });
      expect(r.depth).toBe(1 + Math.floor(level / 2));
      await expect(engine.setSkillLevel(-1)).rejects.toThrow(RangeError);
      await expect(Engine.create({ elo: 999 })).rejects.toThrow(RangeError);
    } finally {
      await engine.dispose();
    }
  });

  it("UCI: Skill Level, UCI_LimitStrength and UCI_Elo", async () => {
    const { engine, out } = startCli();
    try {
      await engine.init();
      expect(out).toContain("option name Skill Level type spin default 20 min 0 max 20");
      expect(out).toContain("option name UCI_LimitStrength type check default false");
      expect(out).toContain(`option name UCI_Elo type spin default 1500 min ${ELO_MIN} max ${ELO_MAX}`);
      engine.send("setoption name Skill Level value 0");
      engine.send("position startpos");
      let from = out.length;
      engine.send("go depth 30");
      await engine.waitFor((l) => l.startsWith("bestmove"));
      expect(out.slice(from).filter((l) => l.startsWith("info depth"))).toEqual([expect.stringMatching(/^info depth 1 seldepth 1 multipv 1 /), expect.stringMatching(/^info depth 1 /)]);
      // The Elo limit overrides the skill level; UCI_Elo alone changes nothing.
      engine.send("setoption name UCI_Elo value 2100");
      engine.send("setoption name UCI_LimitStrength value true");
      from = out.length;
      engine.send("go depth 30");
      await engine.waitFor((l) => l.startsWith("bestmove"));
      const depths = out.slice(from).flatMap((l) => /^info depth (\d+) seldepth \d+ multipv/.exec(l)?.[1] ?? []).map(Number);
      expect(Math.max(...depths)).toBe(1 + Math.floor(eloToSkill(2100) / 2));
      engine.send("setoption name UCI_Elo value 5000");
      const line = await engine.waitFor((l) => l.startsWith("info string UCI_Elo"));
      expect(line).toBe(`info string UCI_Elo clamped to ${ELO_MAX} (range ${ELO_MIN}..${ELO_MAX})`);
    } finally {
      await engine.quit();
    }
  });
});
