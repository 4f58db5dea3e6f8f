// The match runner (match/runner.ts): losses by fault and adjudication with a scriptable fake
// engine, concurrency, the SPRT stop, the command line (bench/match.ts), and a short real match
// against Stockfish.
import { describe, it, expect, beforeAll } from "vitest";
import { fileURLToPath } from "node:url";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Core, START_FEN } from "../../bindings/core.js";
import { SPRT_MIN_GAMES } from "../../match/stats.js";
import { builtinOpenings } from "../../match/openings.js";
import { EngineConfig } from "../../match/engine.js";
import { Match, MatchOptions } from "../../match/runner.js";
import { MatchSummary, summaryLines } from "../../match/report.js";
import { findExecutable } from "../../match/uci-process.js";
import { endKindOf, readPlayedGames } from "../../match/resume.js";
import { describeWithOracle } from "../helpers/oracles.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const FAKE = join(ROOT, "tests/fixtures/fake-engine.mjs");
const STOCKFISH = findExecutable("stockfish");

let core: Core;
beforeAll(async () => {
  core = await Core.create();
});

function fake(name: string, ...args: (string | number)[]): EngineConfig {
  return { name, command: process.execPath, args: [FAKE, "--name", name, ...args.map(String)], options: [] };
}

const START_OPENING = { name: "start", fen: START_FEN, moves: [] as string[] };

/** Two games from the start position at 1 node a move, drawn after 30 moves. */
const BASE: Omit<MatchOptions, "engines" | "log"> = {
  openings: [START_OPENING],
  games: 2,
  concurrency: 1,
  settings: { limits: { kind: "nodes", nodes: 1 }, marginMs: 50, stopGraceMs: 300, replyTimeoutMs: 2000, adjudication: { maxMoves: 30 } },
  handshakeMs: 5000,
};

async function play(over: Partial<MatchOptions> & Pick<MatchOptions, "engines">): Promise<{ match: Match; log: string[]; summary: MatchSummary }> {
  const log: string[] = [];
  const match = new Match({ ...BASE, log: (l) => log.push(l), ...over });
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

  it("time odds: each engine plays on its own clock, with either colour", async () => {
    // Both take 60 ms a move; "short" has 250 ms for the game (its fourth move at most is too
    // late), "long" the match's 5 s.
    const dir = mkdtempSync(join(tmpdir(), "match-"));
    const pgn = join(dir, "odds.pgn");
    const { match, log } = await play({
      engines: [{ ...fake("short", "--sleep", 60), limits: { kind: "tc", baseMs: 250, incMs: 0 } }, fake("long", "--sleep", 60)],
      settings: { limits: { kind: "tc", baseMs: 5000, incMs: 0 }, marginMs: 30, stopGraceMs: 1000, replyTimeoutMs: 2000, adjudication: {} },
      pgn: { path: pgn, event: "odds", site: "here", moveComments: false },
    });
    expect(log[0]).toMatch(/^short vs long: 2 games, 0\.25 against 5 \(time odds\),/);
    expect(match.results.map((r) => r.points)).toEqual([0, 0]);
    for (const r of match.results) {
      expect(r.record.end.kind).toBe("time-forfeit");
      expect(r.record.end.reason).toMatch(new RegExp(`^${r.engine1White ? "White" : "Black"} loses on time`));
    }
    const text = readFileSync(pgn, "utf8");
    expect(text).toContain('[WhiteTimeControl "0.25"]\n[BlackTimeControl "5"]');
    expect(text).toContain('[WhiteTimeControl "5"]\n[BlackTimeControl "0.25"]');
    // An engine's own time control in a match at fixed nodes is refused before any game.
    const ownTc = { ...fake("a"), limits: { kind: "tc", baseMs: 1000, incMs: 0 } } as const;
    expect(() => new Match({ ...BASE, log: () => {}, engines: [ownTc, fake("b")] })).toThrow(/limits must be of one kind, not 1 against nodes 1/);
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

  it("adjudicates by the tablebases once few pieces are left, as the tables say", async () => {
    const tables = join(ROOT, "app/public/syzygy/3-4");
    const openings = [
      { name: "KQvK", fen: "8/8/8/8/8/8/1k6/3KQ3 w - - 0 1", moves: [] as string[] },
      { name: "KRvKR", fen: "8/8/3k4/8/3r4/8/8/R3K3 w - - 0 1", moves: [] as string[] },
    ];
    const { match } = await play({
      engines: [fake("a"), fake("b")], openings, games: 2,
      settings: { limits: { kind: "nodes", nodes: 1 }, marginMs: 50, stopGraceMs: 300, replyTimeoutMs: 2000, adjudication: { tablebase: { path: tables, pieces: 4 }, maxMoves: 30 } },
    });
    const probe = await Core.create({ build: "classical" });
    probe.setSyzygyPath(tables);
    for (const r of match.results) {
      const game = r.record;
      // Decided after the first move, by what the tables say of the position it leads to.
      expect(game.moves.length, game.opening.name).toBe(1);
      probe.setPosition(game.opening.fen, [game.moves[0].uci]);
      const category = probe.probeTablebase().category;
      const blackToMove = probe.fen().split(" ")[1] === "b";
      const expected = category === "win" ? (blackToMove ? "0-1" : "1-0") : category === "loss" ? (blackToMove ? "1-0" : "0-1") : "1/2-1/2";
      expect(game.end).toMatchObject({ result: expected, kind: "tablebase-adjudication", termination: "adjudication" });
      expect(game.end.reason).toMatch(/ by the tablebases$/);
    }
    probe.dispose();
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

describe("resuming a match from its PGN", () => {
  it("counts the games of the earlier run, plays only the rest and appends them", async () => {
    const pgn = join(mkdtempSync(join(tmpdir(), "match-resume-")), "games.pgn");
    const pgnOptions = { path: pgn, event: "resume test", site: "?", moveComments: true };
    const engines = (): [EngineConfig, EngineConfig] => [fake("good"), fake("bad", "--mode", "illegal", "--after", 1)];
    const openings = builtinOpenings(core).slice(0, 3);
    await play({ engines: engines(), openings, games: 2, pgn: pgnOptions });
    const { match, summary, log } = await play({
      engines: engines(), openings, games: 6, pgn: pgnOptions, resume: await readPlayedGames(pgn),
    });
    expect(log).toContain(`Resumed after 2 games of ${pgn}`);
    expect(match.results.map((r) => r.index)).toEqual([2, 3, 4, 5]);
    expect(summary.games).toBe(6);
    expect(summary.tri).toEqual({ wins: 6, losses: 0, draws: 0 });
    expect(summary.penta).toEqual([0, 0, 0, 0, 3]);
    expect(summary.faults).toEqual([{}, { "illegal-move": 6 }]);
    const again = await readPlayedGames(pgn);
    expect(again.map((g) => g.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(again.every((g) => g.kind === "illegal-move")).toBe(true);
  });

  it("reads back how every game ended, and refuses the games of another match", async () => {
    const pgn = join(mkdtempSync(join(tmpdir(), "match-resume-")), "games.pgn");
    const pgnOptions = { path: pgn, event: "resume test", site: "?", moveComments: false };
    const first = await play({ engines: [fake("one"), fake("two")], games: 2, pgn: pgnOptions });
    const played = await readPlayedGames(pgn);
    expect(played.map((g) => [g.index, g.white, g.black, g.result, g.kind]))
      .toEqual(first.match.results.map((r) => [r.index, r.record.white, r.record.black, r.record.end.result, r.record.end.kind]));
    expect(played[0].kind).toBe("threefold"); // the fake engines repeat moves
    await expect(play({ engines: [fake("two"), fake("one")], games: 4, pgn: pgnOptions, resume: played }))
      .rejects.toThrow("resume: game 1 of the PGN is one vs two, where this match plays two vs one");
    await expect(play({ engines: [fake("one"), fake("two")], games: 4, pgn: pgnOptions, resume: played, openings: builtinOpenings(core).slice(0, 1) }))
      .rejects.toThrow(/resume: game 1 of the PGN started from another position than this match's opening/);
    await expect(play({ engines: [fake("one"), fake("two")], games: 1, pgn: pgnOptions, resume: played }))
      .rejects.toThrow("resume: game 2 of the PGN is beyond this match's 1 games");
  });

  it("names each way a game ends from the tags and reasons the runner writes", () => {
    const cases: [string, string, "1-0" | "0-1" | "1/2-1/2", string][] = [
      ["normal", "+M1/9 0.010s White mates", "1-0", "checkmate"],
      ["normal", "Draw by 3-fold repetition", "1/2-1/2", "threefold"],
      ["normal", "Draw by fifty moves rule", "1/2-1/2", "fifty-moves"],
      ["normal", "Draw by stalemate", "1/2-1/2", "stalemate"],
      ["normal", "Draw by insufficient mating material", "1/2-1/2", "insufficient-material"],
      ["adjudication", "Draw by adjudication: 30 moves played", "1/2-1/2", "max-moves"],
      ["adjudication", "Draw by adjudication", "1/2-1/2", "draw-adjudication"],
      ["adjudication", "White resigns by adjudication", "0-1", "resign-adjudication"],
      ["time forfeit", "Black loses on time", "1-0", "time-forfeit"],
      ["stalled connection", "White's engine does not reply", "0-1", "no-reply"],
      ["abandoned", "Black's engine crashed: process ended", "1-0", "crash"],
      ["abandoned", "White's engine could not be started: ENOENT", "0-1", "start-failure"],
    ];
    for (const [termination, reason, result, kind] of cases) expect(endKindOf(termination, reason, result), reason).toBe(kind);
    expect(() => endKindOf("normal", "Black resigns", "1-0")).toThrow(/does not write/);
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
      // A first start reads Stockfish's binary from disk, which took over 5 s on a machine
      // whose page cache had dropped it (a virtual disk at about 15 MB/s).
      handshakeMs: 30_000,
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
