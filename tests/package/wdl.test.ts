// The win/draw/loss model (assembly/wdl.ts): sensible probabilities on search info records and
// in UCI with UCI_ShowWDL.
import { describe, it, expect } from "vitest";
import { fileURLToPath } from "node:url";
import { Core } from "../../bindings/core.js";
import { UciProcess } from "../../match/uci-process.js";
import type { SearchInfo } from "../../bindings/search-types.js";

const CLI = fileURLToPath(new URL("../../build/cli.js", import.meta.url));

describe("win/draw/loss model", () => {
  it("gives probabilities that sum to 1000, grow with the score and mirror for the other side", async () => {
    const core = await Core.create({ build: "classical" });
    const w = core.exports;
    core.setPosition("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let lastWin = -1;
    for (const x of [-900, -300, -100, 0, 100, 300, 900]) {
      const [win, draw, loss] = [0, 1, 2].map((p) => w.scoreWdl(x, p));
      expect(win + draw + loss).toBe(1000);
      expect(Math.min(win, draw, loss)).toBeGreaterThanOrEqual(0);
      expect(win).toBeGreaterThan(lastWin);
      lastWin = win;
      expect(w.scoreWdl(-x, 2)).toBe(win);
    }
    expect(w.scoreWdl(0, 0)).toBe(w.scoreWdl(0, 2));
    expect(w.scoreWdl(32000 - 5, 0)).toBe(1000);
    expect(w.scoreWdl(-32000 + 4, 2)).toBe(1000);
    // Fewer pieces, fewer draws for the same advantage? The model decides; only check that an
    // endgame score of +300 wins more often than not.
    core.setPosition("8/5k2/8/3P4/8/8/5K2/8 w - - 0 1");
    expect(w.scoreWdl(300, 0)).toBeGreaterThan(500);
  });

  it("comes with every search info record, the root's view", async () => {
    const core = await Core.create({ build: "classical" });
    core.setPosition("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    const infos: SearchInfo[] = [];
    core.search({ depth: 6 }, { onInfo: (i) => infos.push(i) });
    const last = infos[infos.length - 1];
    expect(last.score).toEqual({ mate: 1 });
    expect(last.wdl).toEqual([1000, 0, 0]);
    for (const i of infos) expect(i.wdl.reduce((a, b) => a + b, 0)).toBe(1000);
  });

  it("is printed on UCI info lines with UCI_ShowWDL", async () => {
    const uci = new UciProcess(process.execPath, [CLI]);
    const out: string[] = [];
    uci.listeners.push((l) => out.push(l));
    try {
      uci.send("uci");
      await uci.waitFor((l) => l === "uciok");
      expect(out).toContain("option name UCI_ShowWDL type check default false");
      uci.send("position startpos moves e2e4");
      uci.send("go depth 5");
      await uci.waitFor((l) => l.startsWith("bestmove"));
      expect(out.filter((l) => l.startsWith("info depth")).some((l) => l.includes(" wdl "))).toBe(false);
      uci.send("setoption name UCI_ShowWDL value true");
      uci.send("go depth 5");
      await uci.waitFor((l) => l.startsWith("bestmove") && out.filter((x) => x.startsWith("bestmove")).length === 2);
      const line = out.filter((l) => l.startsWith("info depth 5 ")).pop()!;
      const m = / score cp -?\d+ wdl (\d+) (\d+) (\d+) /.exec(line);
      expect(m, line).not.toBeNull();
      expect(Number(m![1]) + Number(m![2]) + Number(m![3])).toBe(1000);
      uci.send("setoption name UCI_ShowWDL value maybe");
      expect(await uci.waitFor((l) => l.startsWith("info string error"))).toMatch(/UCI_ShowWDL needs true or false/);
    } finally {
      uci.kill();
    }
  });
});
