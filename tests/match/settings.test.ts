// What sets a match up (match/clock.ts, match/args.ts, match/openings.ts): clocks, the CLI's
// structured values, the built-in openings and opening files.
import { describe, it, expect, beforeAll } from "vitest";
import { Core, START_FEN } from "../../bindings/core.js";
import { GameClocks, parseTimeControl, pgnTimeControl } from "../../match/clock.js";
import { parseDraw, parseEngineSpec, parseKeyValues, parseResign, parseSprt } from "../../match/args.js";
import { builtinOpenings, parseOpenings, parsePositionLine, shuffled } from "../../match/openings.js";

let core: Core;
beforeAll(async () => {
  core = await Core.create();
});

describe("match clocks", () => {
  it("parses time controls", () => {
    expect(parseTimeControl("10+0.1")).toEqual({ kind: "tc", baseMs: 10_000, incMs: 100 });
    expect(parseTimeControl("40/60")).toEqual({ kind: "tc", baseMs: 60_000, incMs: 0, movesPerSession: 40 });
    expect(pgnTimeControl(parseTimeControl("5+0.05"))).toBe("5+0.05");
    expect(pgnTimeControl({ kind: "movetime", ms: 20 })).toBe("0.02/move");
    expect(() => parseTimeControl("ten")).toThrow(/bad time control/);
    expect(() => parseTimeControl("0+1")).toThrow(/positive/);
  });

  it("charges the time used, adds the increment, and flags beyond the margin", () => {
    const c = new GameClocks({ kind: "tc", baseMs: 1000, incMs: 100 }, 50, 5000);
    expect(c.goCommand(0)).toBe("go wtime 1000 btime 1000 winc 100 binc 100");
    expect(c.allowedMs(0)).toBe(1050);
    expect(c.charge(0, 400)).toBe(true);
    expect(c.remainingMs).toEqual([700, 1000]);
    expect(c.goCommand(1)).toBe("go wtime 700 btime 1000 winc 100 binc 100");
    expect(c.charge(0, 740)).toBe(true); // 40 ms over, inside the 50 ms margin
    expect(c.remainingMs[0]).toBe(60);
    expect(c.charge(0, 211)).toBe(false); // 60 - 211 < -50
  });

  it("handles moves per session and fixed limits", () => {
    const c = new GameClocks({ kind: "tc", baseMs: 1000, incMs: 0, movesPerSession: 2 }, 0, 5000);
    expect(c.goCommand(0)).toMatch(/movestogo 2$/);
    c.charge(0, 100);
    expect(c.goCommand(0)).toMatch(/movestogo 1$/);
    c.charge(0, 100);
    expect(c.remainingMs[0]).toBe(1800);
    expect(c.goCommand(0)).toMatch(/^go wtime 1800 .* movestogo 2$/);
    const m = new GameClocks({ kind: "movetime", ms: 20 }, 10, 5000);
    expect(m.goCommand(1)).toBe("go movetime 20");
    expect(m.charge(1, 29)).toBe(true);
    expect(m.charge(1, 31)).toBe(false);
    const n = new GameClocks({ kind: "nodes", nodes: 200 }, 10, 5000);
    expect(n.goCommand(0)).toBe("go nodes 200");
    expect(n.allowedMs(0)).toBe(5000);
    expect(n.charge(0, 99_999)).toBe(true);
  });

  it("gives each side its own time control with time odds", () => {
    // White on 10+0.1, Black on a tenth of it.
    const c = new GameClocks([parseTimeControl("10+0.1"), parseTimeControl("1+0.01")], 50, 5000);
    expect(c.goCommand(0)).toBe("go wtime 10000 btime 1000 winc 100 binc 10");
    expect(c.allowedMs(1)).toBe(1050);
    expect(c.charge(1, 400)).toBe(true);
    expect(c.remainingMs).toEqual([10_000, 610]);
    expect(c.charge(0, 400)).toBe(true);
    expect(c.remainingMs).toEqual([9_700, 610]);
    expect(c.charge(1, 700)).toBe(false); // 610 - 700 < -50: Black's own clock runs out
    expect(() => new GameClocks([parseTimeControl("10+0.1"), { kind: "nodes", nodes: 100 }], 0, 0)).toThrow(/of one kind/);
  });
});

describe("match CLI values", () => {
  it("parses engine specs with options, arguments and escapes", () => {
    const e = parseEngineSpec("cmd=/usr/games/stockfish,name=sf2000,option.UCI_LimitStrength=true,option.UCI_Elo=2000", "option.Hash=16");
    expect(e).toEqual({
      name: "sf2000", command: "/usr/games/stockfish", args: [],
      options: [["Hash", "16"], ["UCI_LimitStrength", "true"], ["UCI_Elo", "2000"]],
    });
    const o = parseEngineSpec("cmd=node,args=build/cli.js --x,arg=a b,option.Skill Level=3,option.hash=64,dir=/tmp", "option.Hash=16");
    expect(o.args).toEqual(["build/cli.js", "--x", "a b"]);
    expect(o.options).toEqual([["Skill Level", "3"], ["hash", "64"]]);
    expect(o.cwd).toBe("/tmp");
    expect(parseKeyValues("a=1\\,2,b=x=y", "t")).toEqual([["a", "1,2"], ["b", "x=y"]]);
    expect(() => parseEngineSpec("name=x")).toThrow(/cmd=/);
    expect(() => parseEngineSpec("cmd=x,colour=red")).toThrow(/unknown key "colour"/);
    expect(parseEngineSpec("cmd=stockfish,tc=1+0.01").limits).toEqual({ kind: "tc", baseMs: 1000, incMs: 10 });
    expect(parseEngineSpec("cmd=stockfish").limits).toBeUndefined();
    expect(() => parseEngineSpec("cmd=x,tc=fast")).toThrow(/bad time control "fast"/);
  });

  it("parses SPRT and adjudication parameters", () => {
    expect(parseSprt("elo0=0,elo1=5")).toEqual({ elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05 });
    expect(parseSprt("elo0=-1,elo1=3,alpha=0.1,beta=0.02")).toEqual({ elo0: -1, elo1: 3, alpha: 0.1, beta: 0.02 });
    expect(() => parseSprt("elo0=5,elo1=0")).toThrow(/greater/);
    expect(() => parseSprt("elo0=0,elo1=x")).toThrow(/number/);
    expect(parseResign("movecount=3,score=600")).toEqual({ moveCount: 3, scoreCp: 600 });
    expect(parseDraw("movenumber=40,movecount=8,score=10")).toEqual({ moveNumber: 40, moveCount: 8, scoreCp: 10 });
    expect(() => parseDraw("score=10")).toThrow(/movecount/);
  });
});

describe("match openings", () => {
  it("has about 50 built-in lines, all legal and distinct", () => {
    const list = builtinOpenings(core);
    expect(list.length).toBeGreaterThanOrEqual(50);
    const finals = new Set<string>();
    for (const o of list) {
      expect(o.fen).toBe(START_FEN);
      expect(o.moves.length).toBeGreaterThanOrEqual(4);
      core.setPosition(o.fen, o.moves); // throws on an illegal move
      expect(core.status()).toBe("ongoing");
      finals.add(core.fen());
    }
    expect(finals.size).toBe(list.length);
  });

  it("reads the position part of FEN and EPD lines", () => {
    expect(parsePositionLine("  # comment")).toBeUndefined();
    expect(parsePositionLine("")).toBeUndefined();
    expect(parsePositionLine("4k3/8/8/8/8/8/8/4K2R w K - 3 40")).toEqual({ fen: "4k3/8/8/8/8/8/8/4K2R w K - 3 40" });
    expect(parsePositionLine('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 bm e5; id "open; e4";')).toEqual({
      fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", name: "open; e4",
    });
    expect(parsePositionLine("4k3/8/8/8/8/8/8/4K2R w K - hmvc 7; fmvn 33; c0 \"x\";")?.fen).toBe("4k3/8/8/8/8/8/8/4K2R w K - 7 33");
    expect(() => parsePositionLine("8/8/8")).toThrow(/FEN or EPD/);
  });

  it("checks each file position and names the bad line", () => {
    const good = parseOpenings("# two lines\n4k3/8/8/8/8/8/8/4K2R w K - 0 1\nr3k3/8/8/8/8/8/8/4K3 b q - bm Kd7;\n", core, "book.epd");
    expect(good.map((o) => o.fen)).toEqual(["4k3/8/8/8/8/8/8/4K2R w K - 0 1", "r3k3/8/8/8/8/8/8/4K3 b q - 0 1"]);
    expect(good[1].name).toBe("book.epd:3");
    expect(() => parseOpenings("4k3/8/8/8/8/8/8/4K2R w K - 0 1\n4k3/8/8/8/8/8/8/4K2R w K - 0 1 x\n9k/8/8/8/8/8/8/K7 w - -\n", core, "f"))
      .toThrow(/^f:3: invalid FEN/);
    expect(() => parseOpenings("k7/8/8/8/8/8/8/K7 w - - 0 1\n", core, "f")).toThrow(/f:1: .*insufficient-material/);
    expect(() => parseOpenings("# nothing\n", core, "f")).toThrow(/no positions/);
  });

  it("shuffles reproducibly", () => {
    const xs = Array.from({ length: 20 }, (_, i) => i);
    expect(shuffled(xs, 7)).toEqual(shuffled(xs, 7));
    expect(shuffled(xs, 7)).not.toEqual(xs);
    expect([...shuffled(xs, 7)].sort((a, b) => a - b)).toEqual(xs);
  });
});
