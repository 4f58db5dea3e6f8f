// The search's tunable parameters (assembly/search-params.ts): each one reaches the search,
// the bindings check names and ranges, the Engine keeps them through a worker restart, and
// the CLI offers them as UCI options only with --tune. Each search feature switch reaches
// the search too.

import { describe, it, expect, afterEach } from "vitest";
import { Core, Engine, START_FEN } from "../../build/index.js";
import { UciProcess } from "../../match/uci-process.js";
import { CLI, exitCode, startCli } from "../helpers/cli.js";

describe("search parameters", () => {
  const engines: Engine[] = [];
  afterEach(async () => {
    for (const e of engines.splice(0)) await e.dispose();
  });

  it("start at their defaults, within their ranges", async () => {
    const params = (await Core.create()).searchParams();
    expect(params.length).toBe(24);
    expect(new Set(params.map((p) => p.name.toLowerCase())).size).toBe(params.length);
    for (const p of params) {
      expect(p.value, p.name).toBe(p.default);
      expect(p.min, p.name).toBeLessThanOrEqual(p.default);
      expect(p.max, p.name).toBeGreaterThanOrEqual(p.default);
    }
  });

  it("each one changes the search, and the defaults give the same search back", async () => {
    const core = await Core.create();
    // Depth 7 reaches every parameter but the double extension's, which needs the singular
    // extension's depth 8 and a deeper bench.
    const base = new Map<number, number>();
    const benchNodes = (depth: number) => core.bench(depth).nodes;
    const baseAt = (depth: number) => base.get(depth) ?? base.set(depth, benchNodes(depth)).get(depth)!;
    // The Monte Carlo search's parameters change its search instead (300 visits of a middlegame).
    const mcts = () => {
      core.setSearchMode("mcts");
      core.newGame();
      core.setPosition("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8");
      const r = core.search({ nodes: 300 });
      core.setSearchMode("alphabeta");
      return `${r.bestmove} ${JSON.stringify(r.score)} ${r.pv.join(" ")} ${r.seldepth}`;
    };
    const mctsBase = mcts();
    for (const p of core.searchParams().filter((q) => q.name.startsWith("MCTS"))) {
      let changed = false;
      for (const v of [p.min, p.max]) {
        core.setSearchParam(p.name, v);
        changed ||= mcts() !== mctsBase;
      }
      core.setSearchParam(p.name, p.default);
      expect(changed, `${p.name} at ${p.min} and ${p.max}`).toBe(true);
    }
    expect(mcts()).toBe(mctsBase);
    // The time allocation's parameters change the budgets of a timed search instead
    // (tests/assembly/timeman.spec.ts).
    for (const p of core.searchParams().filter((q) => !q.name.startsWith("MCTS") && !q.name.startsWith("Time "))) {
      let changed = false;
      for (const depth of [7, 9]) {
        const reference = baseAt(depth);
        for (const v of [p.min, p.max]) {
          core.setSearchParam(p.name, v);
          expect(core.searchParams().find((q) => q.name === p.name)!.value).toBe(v);
          changed ||= benchNodes(depth) !== reference;
        }
        core.setSearchParam(p.name, p.default);
        if (changed) break;
      }
      expect(changed, `${p.name} at ${p.min} and ${p.max}`).toBe(true);
    }
    for (const [depth, nodes] of base) expect(benchNodes(depth)).toBe(nodes);
  });

  it("refuses unknown names and values out of range, and takes names in any case", async () => {
    const core = await Core.create();
    expect(() => core.setSearchParam("RFP Margin ", 80)).toThrow(/^setSearchParam: no search parameter named "RFP Margin "$/);
    expect(() => core.setSearchParam("RFP Margin", 19)).toThrow(/^setSearchParam: RFP Margin must be an integer from 20 to 200, got 19$/);
    expect(() => core.setSearchParam("RFP Margin", 80.5)).toThrow(RangeError);
    core.setSearchParam("rfp margin", 80);
    expect(core.searchParams().find((p) => p.name === "RFP Margin")!.value).toBe(80);
  });

  it("stay set in the Engine's worker through a restart after a trap", async () => {
    const e = await Engine.create();
    engines.push(e);
    await e.setSearchParam("LMR Divisor", 300);
    await e.setSearchParam("RFP Margin", 90);
    await expect(e.setSearchParam("No Such", 1)).rejects.toThrow(/no search parameter named "No Such"/);
    await expect(e.crashForTesting()).rejects.toThrow(/engine crashed/);
    const values = Object.fromEntries((await e.searchParams()).map((p) => [p.name, p.value]));
    expect(values["LMR Divisor"]).toBe(300);
    expect(values["RFP Margin"]).toBe(90);
    await e.setPosition(START_FEN);
    expect((await e.search({ depth: 4 })).bestmove).toMatch(/^[a-h][1-8]/);
  });
});

describe("search features", () => {
  it("switching any one off changes the search", async () => {
    const core = await Core.create();
    const all = 65535;
    const unused = 8192; // razoring's bit, free since it was removed
    const base = new Map<number, number>();
    const benchNodes = (depth: number) => core.bench(depth).nodes;
    const baseAt = (depth: number) => base.get(depth) ?? base.set(depth, benchNodes(depth)).get(depth)!;
    for (let bit = 1; bit <= all; bit *= 2) {
      if (bit === unused) continue;
      let changed = false;
      // Singular and double extensions start at depth 8.
      for (const depth of [7, 9]) {
        const reference = baseAt(depth);
        core.setSearchFeatures(all & ~bit);
        changed = benchNodes(depth) !== reference;
        core.setSearchFeatures(all);
        if (changed) break;
      }
      expect(changed, `feature bit ${bit}`).toBe(true);
    }
  });
});

describe("the CLI's --tune", () => {
  const procs: UciProcess[] = [];
  afterEach(async () => {
    for (const p of procs.splice(0)) await p.quit();
  });

  it("offers the parameters as spin options only with --tune", async () => {
    const plain = startCli();
    procs.push(plain.engine);
    await plain.engine.init();
    expect(plain.engine.optionNames).not.toContain("RFP Margin");
    plain.engine.setOption("RFP Margin", "80");
    await plain.engine.isReady();
    expect(plain.out).toContain("info string error: unknown option 'RFP Margin'");

    const tune = new UciProcess(process.execPath, [CLI, "--tune"]);
    procs.push(tune);
    const out: string[] = [];
    tune.listeners.push((l) => out.push(l));
    await tune.init();
    expect(tune.spins.get("RFP Margin")).toEqual({ default: 75, min: 20, max: 200 });
    expect(tune.spins.size).toBeGreaterThanOrEqual(14 + 5);
    tune.setOption("RFP Margin", "500");
    tune.setOption("LMR Divisor", "260");
    await tune.isReady();
    expect(out).toContain("info string RFP Margin clamped to 200 (range 20..200)");
    expect(out.filter((l) => l.startsWith("info string error"))).toEqual([]);
  });

  it("refuses other arguments", async () => {
    const p = new UciProcess(process.execPath, [CLI, "--tuning"]);
    expect(await exitCode(p)).toBe(2);
    expect(p.stderr.trim()).toMatch(/^wasmchess: unknown option '--tuning' \(Did you mean --tune\?\)$/);
  });
});
