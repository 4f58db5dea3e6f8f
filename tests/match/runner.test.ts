// The match runner: statistics against independently computed values, clocks, CLI values,
// openings, PGN, losses by fault with a scriptable fake engine, and a short real match.
import { describe, it, expect, beforeAll } from "vitest";
import { fileURLToPath } from "node:url";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Core, START_FEN } from "../../bindings/core.js";
import { Game, parsePgn } from "../../bindings/index.js";
import {
  eloEstimate, eloToScore, erf, formatElo, los, normalQuantile, pentanomialDistribution, scoreToElo, sprtBounds,
  sprtDecision, sprtLlr, trinomialDistribution, SPRT_MIN_GAMES,
} from "../../match/stats.js";
import { GameClocks, parseTimeControl, pgnTimeControl } from "../../match/clock.js";
import { parseDraw, parseEngineSpec, parseKeyValues, parseResign, parseSprt } from "../../match/args.js";
import { builtinOpenings, parseOpenings, parsePositionLine, shuffled } from "../../match/openings.js";
import { formatPgn } from "../../match/pgn.js";
import { CommentedGame, lossGap, loserIndex, parseMoveComment, readCommentedGames } from "../../match/commented.js";
import { EngineConfig, formatScore, parseInfo } from "../../match/engine.js";
import { GameRecord, positionCommand } from "../../match/game.js";
import { Match, MatchOptions } from "../../match/runner.js";
import { MatchSummary, summaryLines } from "../../match/report.js";
import { findExecutable } from "../../match/uci-process.js";
import { describeWithOracle } from "../helpers/oracles.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const FAKE = join(ROOT, "tests/fixtures/fake-engine.mjs");
const STOCKFISH = findExecutable("stockfish");

let core: Core;
beforeAll(async () => {
  core = await Core.create();
  await Game.create(); // the package's rules, which write the match PGN
});

// Expected values below were computed separately with Python and SciPy (norm.ppf, norm.cdf,
// math.erf), implementing the formulas from their definitions.
describe("match statistics", () => {
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

describe("match PGN", () => {
  /** A finished game from fen with the SAN moves (made UCI by the engine's rules). */
  const game = (fen: string, sans: string[], over: Partial<GameRecord> = {}): GameRecord => {
    core.setPosition(fen);
    const moves = sans.map((san) => {
      const uci = core.fromSan(san);
      core.playMove(uci);
      return { uci, san, book: false };
    });
    return {
      white: "Alpha", black: 'Be"ta',
      opening: { name: "Test", fen, moves: [] },
      moves,
      end: { result: "0-1", kind: "checkmate", termination: "normal", reason: "Black mates", loser: 0 },
      startedAt: new Date(2026, 0, 5),
      ...over,
    };
  };
  const ctx = { event: "Test", site: "here", round: "3", timeControl: "10+0.1" };

  it("writes the tags and the movetext", () => {
    const text = formatPgn(game(START_FEN, ["f3", "e5", "g4", "Qh4#"]), ctx);
    expect(text).toBe([
      '[Event "Test"]', '[Site "here"]', '[Date "2026.01.05"]', '[Round "3"]', '[White "Alpha"]', '[Black "Be\\"ta"]',
      '[Result "0-1"]', '[Opening "Test"]', '[TimeControl "10+0.1"]', '[Termination "normal"]', '[PlyCount "4"]', "",
      "1. f3 e5 2. g4 Qh4# {Black mates} 0-1", "", "",
    ].join("\n"));
  });

  it("adds SetUp, FEN and ECO and numbers a game that starts with Black", () => {
    const fen = "4k3/8/8/8/8/8/8/R3K3 b Q - 0 30";
    const record = game(fen, ["Kd7", "Ra7+", "Kc6"], { end: { result: "1/2-1/2", kind: "max-moves", termination: "adjudication", reason: "Draw" } });
    record.opening.eco = "A00";
    const text = formatPgn(record, ctx);
    expect(text).toContain(`[Result "1/2-1/2"]\n[SetUp "1"]\n[FEN "${fen}"]\n[ECO "A00"]\n[Opening "Test"]`);
    expect(text).toContain("\n30... Kd7 31. Ra7+ Kc6 {Draw} 1/2-1/2\n");
  });

  it("puts the reason in the first comment of a game without moves", () => {
    const text = formatPgn(game(START_FEN, [], { end: { result: "1-0", kind: "start-failure", termination: "abandoned", reason: "Black's engine could not be started" } }), ctx);
    expect(text.endsWith('[PlyCount "0"]\n\n{Black\'s engine could not be started} 1-0\n\n')).toBe(true);
  });

  it("wraps movetext at 79 characters, keeps comments well-formed, and reads back the same", async () => {
    const sans = Array.from({ length: 60 }, (_, i) => ["Nf3", "Nf6", "Ng1", "Ng8"][i % 4]);
    const record = game(START_FEN, sans, { end: { result: "1/2-1/2", kind: "max-moves", termination: "adjudication", reason: "a { b } c" } });
    for (const m of record.moves) Object.assign(m, { score: { kind: "cp", value: 35 }, depth: 12, timeMs: 105 });
    const text = formatPgn(record, { ...ctx, moveComments: true });
    const movetext = text.split("\n\n")[1].split("\n");
    expect(movetext.length).toBeGreaterThan(5);
    for (const l of movetext) expect(l.length).toBeLessThanOrEqual(79);
    expect(movetext.join(" ")).toMatch(/ \{\+0\.35\/12 0\.105s a \{ b \) c\} 1\/2-1\/2$/);
    const [back] = await parsePgn(text);
    expect(back.error).toBeUndefined();
    expect(back.moves().map((m) => m.san)).toEqual(sans);
    expect(back.moves().map((m) => m.comment)).toEqual([...sans.slice(1).map(() => "+0.35/12 0.105s"), "+0.35/12 0.105s a { b ) c"]);
  });

  it("reads back the move comments it writes: mover, score, depth and time", async () => {
    const record = game("4k3/8/8/8/8/8/8/R3K3 b Q - 0 30", ["Kd7", "Ra7+", "Kc6"]);
    record.moves[0] = { ...record.moves[0], score: { kind: "cp", value: -35 }, depth: 12, timeMs: 377 };
    record.moves[1] = { ...record.moves[1], score: { kind: "mate", value: 3 }, depth: 20, timeMs: 1250 };
    record.moves[2] = { ...record.moves[2], book: true };
    const dir = mkdtempSync(join(tmpdir(), "match-"));
    const file = join(dir, "games.pgn");
    writeFileSync(file, formatPgn(record, { ...ctx, moveComments: true }));
    const games = [];
    for await (const g of readCommentedGames([file])) games.push(g);
    rmSync(dir, { recursive: true });
    expect(games).toHaveLength(1);
    expect(games[0].players).toEqual(["Alpha", 'Be"ta']);
    expect(games[0].timeControl).toEqual({ base: 10, inc: 0.1 });
    expect(games[0].moves).toEqual([
      { side: 1, moveNumber: 1, cp: -35, depth: 12, seconds: 0.377 },
      { side: 0, moveNumber: 1, cp: 100_000 - 3, depth: 20, seconds: 1.25 },
      { side: 1, moveNumber: 2 },
    ]);
    expect(parseMoveComment("-M2/9 0.010s")).toEqual({ cp: -100_000 + 2, depth: 9, seconds: 0.01 });
  });

  it("finds the loser and the moment the winner's score first reached the threshold", () => {
    const g: CommentedGame = {
      players: ["Alpha", "Beta"],
      result: "0-1",
      round: "1",
      moves: [
        { side: 0, moveNumber: 1, cp: 20 },
        { side: 1, moveNumber: 1, cp: 160 },
        { side: 0, moveNumber: 2, cp: -90 },
        { side: 1, moveNumber: 2, cp: 200 },
      ],
    };
    expect(loserIndex(g, "Alpha")).toBe(0);
    expect(loserIndex(g, "Beta")).toBeUndefined();
    expect(loserIndex(g, "Gamma")).toBeUndefined();
    expect(lossGap(g, 0, 150)).toEqual({ ply: 1, ours: 20 });
    expect(lossGap(g, 0, 180)).toEqual({ ply: 3, ours: -90 });
    expect(lossGap(g, 0, 300)).toBeUndefined();
    // The winner's scores before the loser's first one do not count.
    expect(lossGap({ ...g, moves: [{ side: 1, moveNumber: 1, cp: 500 }, ...g.moves] }, 0, 150)).toEqual({ ply: 2, ours: 20 });
  });

  it("parses info lines and formats scores", () => {
    expect(parseInfo("info depth 12 seldepth 15 score cp -34 nodes 100 pv e2e4 e7e5")).toEqual({ depth: 12, score: { kind: "cp", value: -34 }, bound: false });
    expect(parseInfo("info depth 9 score mate -3 lowerbound nodes 1")).toEqual({ depth: 9, score: { kind: "mate", value: -3 }, bound: true });
    expect(parseInfo("info string score cp 5")).toEqual({ bound: false });
    expect(formatScore({ kind: "cp", value: -120 })).toBe("-1.20");
    expect(formatScore({ kind: "mate", value: 3 })).toBe("+M3");
    expect(positionCommand(START_FEN, [])).toBe("position startpos");
    expect(positionCommand("8/8/8/8/8/8/8/K1k5 w - - 0 1", ["a1a2"])).toBe("position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1 moves a1a2");
  });
});

function fake(name: string, ...args: (string | number)[]): EngineConfig {
  return { name, command: process.execPath, args: [FAKE, "--name", name, ...args.map(String)], options: [] };
}

const START_OPENING = { name: "start", fen: START_FEN, moves: [] as string[] };

async function play(over: Partial<MatchOptions> & Pick<MatchOptions, "engines">): Promise<{ match: Match; log: string[]; summary: MatchSummary }> {
  const log: string[] = [];
  const match = new Match({
    openings: [START_OPENING],
    games: 2,
    concurrency: 1,
    settings: { limits: { kind: "nodes", nodes: 1 }, marginMs: 50, stopGraceMs: 300, replyTimeoutMs: 2000, adjudication: { maxMoves: 30 } },
    handshakeMs: 5000,
    log: (l) => log.push(l),
    ...over,
  });
  const summary = await match.run();
  return { match, log, summary };
}

describe("match faults and adjudication (fake engines)", () => {
  it("an illegal move loses, with the move in the reason", async () => {
    const { match } = await play({ engines: [fake("good"), fake("bad", "--mode", "illegal", "--after", 2)] });
    expect(match.results.map((r) => r.points)).toEqual([1, 1]);
    for (const r of match.results) {
      expect(r.record.end.kind).toBe("illegal-move");
      expect(r.record.end.termination).toBe("rules infraction");
      expect(r.record.end.reason).toMatch(/^(White|Black) makes an illegal move: a1b4$/);
    }
    // The bad engine plays two good moves in its first game; the same process (not restarted
    // after an illegal move) goes on misbehaving at once in the second.
    const badMoves = match.results.map((r) => r.record.moves.filter((_, i) => (i % 2 === 0) !== r.engine1White).length);
    expect(badMoves).toEqual([2, 0]);
  });

  it("a crash loses and the engine is restarted for the next game", async () => {
    const log: string[] = [];
    const match = new Match({
      engines: [fake("crashy", "--mode", "crash", "--after", 1), fake("good")],
      openings: [START_OPENING], games: 2, concurrency: 1, handshakeMs: 5000, log: (l) => log.push(l),
      settings: { limits: { kind: "nodes", nodes: 1 }, marginMs: 50, stopGraceMs: 300, replyTimeoutMs: 2000, adjudication: {} },
    });
    const summary = await match.run();
    expect(match.results.map((r) => r.points)).toEqual([0, 0]);
    for (const r of match.results) {
      expect(r.record.end.kind).toBe("crash");
      expect(r.record.end.reason).toMatch(/crashed: process ended \(exit code 3\); stderr: fake engine: crashing on purpose/);
    }
    expect(summary.restarts).toEqual([1, 0]);
    expect(summary.faults[0]).toEqual({ crash: 2 });
    expect(summaryLines(summary).join("\n")).toMatch(/crashy: losses by fault: crash 2; restarts: 1/);
  });

  it("an engine that never answers go loses by no reply, then is restarted", async () => {
    const { match, summary } = await play({
      engines: [fake("good"), fake("mute", "--mode", "silent", "--after", 1)],
      settings: { limits: { kind: "tc", baseMs: 300, incMs: 0 }, marginMs: 50, stopGraceMs: 200, replyTimeoutMs: 2000, adjudication: {} },
    });
    expect(match.results.map((r) => r.points)).toEqual([1, 1]);
    for (const r of match.results) {
      expect(r.record.end.kind).toBe("no-reply");
      expect(r.record.end.termination).toBe("stalled connection");
      expect(r.record.end.reason).toMatch(/did not reply to "go wtime \d+ btime \d+ winc 0 binc 0" within \d+ ms, nor 200 ms after stop/);
    }
    // Killed after the first game's hang, the new process plays its one good move again.
    expect(summary.restarts).toEqual([0, 1]);
    expect(match.results.map((r) => r.record.moves.length)).toEqual([3, 2]);
  });

  it("a nodes search that takes too long counts as no reply", async () => {
    const { match } = await play({
      engines: [fake("good"), fake("slow", "--sleep", 400)],
      games: 1,
      settings: { limits: { kind: "nodes", nodes: 1 }, marginMs: 50, stopGraceMs: 500, replyTimeoutMs: 150, adjudication: {} },
    });
    expect(match.results[0].record.end.kind).toBe("no-reply");
    expect(match.results[0].record.end.reason).toMatch(/^Black did not reply to "go nodes 1" within 150 ms \(answered only after stop\)/);
  });

  it("the runner's own clock makes a slow engine lose on time", async () => {
    // 100 ms a move on a 350 ms clock with a 30 ms margin: the fourth move is too late.
    const { match } = await play({
      engines: [fake("slow", "--sleep", 100), fake("good")],
      games: 1,
      settings: { limits: { kind: "tc", baseMs: 350, incMs: 0 }, marginMs: 30, stopGraceMs: 1000, replyTimeoutMs: 2000, adjudication: {} },
    });
    const r = match.results[0];
    expect(r.record.end.kind).toBe("time-forfeit");
    expect(r.record.end.termination).toBe("time forfeit");
    expect(r.record.end.reason).toMatch(/^White loses on time/);
    const whiteMoves = r.record.moves.filter((_, i) => i % 2 === 0);
    expect(whiteMoves.length).toBeGreaterThanOrEqual(2);
    expect(whiteMoves.length).toBeLessThanOrEqual(4);
    for (const m of whiteMoves) expect(m.timeMs!).toBeGreaterThanOrEqual(95);
  });

  it("overrunning a fixed movetime loses on time", async () => {
    const { match } = await play({
      engines: [fake("good"), fake("slow", "--sleep", 150)],
      games: 1,
      settings: { limits: { kind: "movetime", ms: 20 }, marginMs: 20, stopGraceMs: 1000, replyTimeoutMs: 2000, adjudication: {} },
    });
    expect(match.results[0].record.end).toMatchObject({ kind: "time-forfeit", loser: 1 });
    expect(match.results[0].record.end.reason).toMatch(/^Black loses on time \(no bestmove within 40 ms; it came after 1\d\d ms\)$/);
    expect(match.results[0].record.moves.length).toBe(1);
  });

  it("an engine that does not finish the handshake stops the match with a reason", async () => {
    // Generous for the good engine on a loaded machine (a node process can take a second to start).
    await expect(play({ engines: [fake("good"), fake("dumb", "--mode", "no-uciok")], handshakeMs: 2500 }))
      .rejects.toThrow(/dumb did not start: timed out after 2500 ms/);
    await expect(play({ engines: [fake("good"), { name: "nope", command: "/nonexistent/engine", args: [], options: [] }] }))
      .rejects.toThrow(/nope did not start: .*ENOENT/);
  });

  it("adjudicates resignation when both engines agree on the score", async () => {
    const { match } = await play({
      engines: [fake("loser", "--score", -900), fake("winner", "--score", 900)],
      settings: { limits: { kind: "nodes", nodes: 1 }, marginMs: 50, stopGraceMs: 300, replyTimeoutMs: 2000, adjudication: { resign: { moveCount: 3, scoreCp: 500 } } },
    });
    expect(match.results.map((r) => r.points)).toEqual([0, 0]);
    for (const r of match.results) {
      expect(r.record.end.kind).toBe("resign-adjudication");
      expect(r.record.end.termination).toBe("adjudication");
      expect(r.record.moves.length).toBeGreaterThanOrEqual(5);
      expect(r.record.moves.length).toBeLessThanOrEqual(6);
    }
  });

  it("does not adjudicate a resignation that only one engine reports", async () => {
    const { match } = await play({
      engines: [fake("gloomy", "--score", -900), fake("calm", "--score", 0)],
      games: 1,
      settings: { limits: { kind: "nodes", nodes: 1 }, marginMs: 50, stopGraceMs: 300, replyTimeoutMs: 2000, adjudication: { resign: { moveCount: 2, scoreCp: 500 }, maxMoves: 8 } },
    });
    expect(match.results[0].record.end.kind).not.toBe("resign-adjudication");
  });

  it("adjudicates a draw after move K and stops at the move limit", async () => {
    const { match } = await play({
      engines: [fake("a", "--score", 5), fake("b", "--score", -5)],
      games: 1,
      settings: { limits: { kind: "nodes", nodes: 1 }, marginMs: 50, stopGraceMs: 300, replyTimeoutMs: 2000, adjudication: { draw: { moveNumber: 4, moveCount: 2, scoreCp: 10 } } },
    });
    const r = match.results[0].record;
    expect(r.end).toMatchObject({ result: "1/2-1/2", kind: "draw-adjudication" });
    core.setPosition(START_FEN, r.moves.map((m) => m.uci));
    expect(Number(core.fen().split(" ")[5])).toBe(4);
    const capped = await play({ engines: [fake("a"), fake("b")], games: 1, settings: { limits: { kind: "nodes", nodes: 1 }, marginMs: 50, stopGraceMs: 300, replyTimeoutMs: 2000, adjudication: { maxMoves: 3 } } });
    // Without the cap these two engines draw by repetition after 34 plies.
    const end = capped.match.results[0].record;
    expect(end.end).toMatchObject({ result: "1/2-1/2", kind: "max-moves", termination: "adjudication" });
    expect(end.moves.length).toBe(6);
  });

  it("runs games concurrently, each pair with colours swapped", async () => {
    const { match, summary } = await play({
      engines: [fake("good"), fake("bad", "--mode", "illegal", "--after", 1)],
      openings: builtinOpenings(core).slice(0, 2),
      games: 4,
      concurrency: 2,
    });
    expect(match.results.map((r) => r.index).sort()).toEqual([0, 1, 2, 3]);
    for (const r of match.results) {
      expect(r.engine1White).toBe(r.index % 2 === 0);
      expect(r.record.white).toBe(r.engine1White ? "good" : "bad");
      expect(r.record.opening.name).toBe(r.index < 2 ? "Sicilian, Najdorf" : "Sicilian, Dragon");
    }
    expect(summary.tri).toEqual({ wins: 4, losses: 0, draws: 0 });
    expect(summary.penta).toEqual([0, 0, 0, 0, 2]);
  });

  it("stops when the SPRT accepts a hypothesis", async () => {
    const { match, log } = await play({
      engines: [fake("good"), fake("bad", "--mode", "illegal")],
      games: 40,
      sprt: { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05 },
    });
    // The LLR crosses the bound at once, but no decision comes before SPRT_MIN_GAMES.
    expect(match.results.length).toBe(SPRT_MIN_GAMES);
    expect(log.some((l) => /^SPRT: H1 accepted after \d+ games$/.test(l))).toBe(true);
    const llrLines = log.filter((l) => l.startsWith("SPRT: LLR"));
    expect(llrLines.length).toBe(match.results.length);
    // Every line before the last says that no decision can come yet.
    expect(llrLines.slice(0, -1).every((l) => l.endsWith(`(no decision before ${SPRT_MIN_GAMES} games)`))).toBe(true);
    expect(llrLines[llrLines.length - 1]).not.toMatch(/no decision before/);
  });
});

describe("match CLI", () => {
  it("plays a short match from the command line and writes PGN", async () => {
    const dir = mkdtempSync(join(tmpdir(), "match-"));
    const pgn = join(dir, "out.pgn");
    const epd = join(dir, "book.epd");
    writeFileSync(epd, 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - id "open game";\n');
    const engine = (name: string) => `cmd=${process.execPath},arg=${FAKE},args=--name ${name} --score 0`;
    const out = await new Promise<string>((resolve, reject) => {
      execFile(join(ROOT, "node_modules/.bin/tsx"), [
        "bench/match.ts", "--engine", engine("one"), "--engine", engine("two"), "--games", "2", "--nodes", "1",
        "--maxmoves", "20", "--openings", epd, "--pgn", pgn, "--sprt", "elo0=0,elo1=10",
      ], { cwd: ROOT }, (err, stdout, stderr) => (err ? reject(new Error(stderr || err.message)) : resolve(stdout)));
    });
    expect(out).toMatch(/^one vs two: 2 games, nodes 1, 1 openings, concurrency 1$/m);
    expect(out).toMatch(/^Game 2\/2 \(two vs one, open game\): /m);
    expect(out).toMatch(/^Elo difference: [+-]\d+\.\d \+\/- (\d+\.\d|inf) \(95%, per-game variance\), LOS: \d+\.\d%, draw ratio: \d+\.\d%$/m);
    expect(out).toMatch(/^SPRT: no decision yet$/m);
    const text = readFileSync(pgn, "utf8");
    expect(text.match(/^\[Event /gm)?.length).toBe(2);
    expect(text).toContain('[FEN "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1"]');
    expect(text).toContain('[White "two"]');
  });
});

describeWithOracle("stockfish", STOCKFISH !== undefined, "match against Stockfish", () => {
  it("plays Stockfish against itself at a tiny node count, with legal, replayable PGN", async () => {
    const dir = mkdtempSync(join(tmpdir(), "match-"));
    const pgn = join(dir, "sf.pgn");
    const sf = (name: string): EngineConfig => ({ name, command: STOCKFISH!, args: [], options: [["Threads", "1"], ["Hash", "1"]] });
    const { match } = await play({
      engines: [sf("sf-a"), sf("sf-b")],
      openings: builtinOpenings(core).slice(0, 2),
      games: 4,
      settings: { limits: { kind: "nodes", nodes: 200 }, marginMs: 100, stopGraceMs: 1000, replyTimeoutMs: 5000, adjudication: {} },
      pgn: { path: pgn, event: "sf test", site: "?", moveComments: true },
    });
    expect(match.results.length).toBe(4);
    const games = readFileSync(pgn, "utf8").trim().split(/\n\n(?=\[Event)/);
    expect(games.length).toBe(4);
    for (const r of match.results) {
      expect(["checkmate", "stalemate", "threefold", "fifty-moves", "insufficient-material"]).toContain(r.record.end.kind);
      const engineMoves = r.record.moves.filter((m) => !m.book);
      expect(engineMoves.every((m) => m.score !== undefined && m.depth !== undefined)).toBe(true);
      // Replay the PGN's SAN with our move generator: same moves, and the final position
      // agrees with the recorded ending.
      const text = games[r.index];
      const movetext = text.split("\n\n")[1].replace(/\{[^}]*\}/g, " ");
      const sans = movetext.split(/\s+/).filter((t) => t && !/^\d+\.+$/.test(t) && !/^(1-0|0-1|1\/2-1\/2|\*)$/.test(t));
      core.setPosition(START_FEN);
      const ucis = sans.map((s) => {
        const u = core.fromSan(s);
        core.playMove(u);
        return u;
      });
      expect(ucis).toEqual(r.record.moves.map((m) => m.uci));
      expect(core.status()).toBe(r.record.end.kind);
      expect(text).toContain(`[Result "${r.record.end.result}"]`);
    }
  });
});
