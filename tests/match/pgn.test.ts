// Match PGN (match/pgn.ts through the package's writer) and reading its move comments back
// (match/commented.ts); the engines' info lines and the position command (match/engine.ts,
// match/game.ts).
import { describe, it, expect, beforeAll } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Core, START_FEN } from "../../bindings/core.js";
import { Game, parsePgn } from "../../bindings/index.js";
import { formatPgn } from "../../match/pgn.js";
import { CommentedGame, lossGap, loserIndex, parseMoveComment, readCommentedGames } from "../../match/commented.js";
import { formatScore, parseInfo } from "../../match/engine.js";
import { speedLines } from "../../match/report.js";
import { GameRecord, positionCommand } from "../../match/game.js";

let core: Core;
beforeAll(async () => {
  core = await Core.create();
  await Game.create(); // the package's rules, which write the match PGN
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

  it("writes White's and Black's time controls when they differ (time odds)", () => {
    const record = game(START_FEN, ["f3", "e5", "g4", "Qh4#"]);
    const text = formatPgn(record, { ...ctx, timeControl: ["10+0.1", "1+0.01"] });
    expect(text).toContain('[Opening "Test"]\n[WhiteTimeControl "10+0.1"]\n[BlackTimeControl "1+0.01"]\n[Termination');
    expect(text).not.toContain("[TimeControl");
    expect(formatPgn(record, { ...ctx, timeControl: ["5+0.05", "5+0.05"] })).toContain('[TimeControl "5+0.05"]');
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
    record.moves[0] = { ...record.moves[0], score: { kind: "cp", value: -35 }, depth: 12, timeMs: 377, nodes: 51_200, tbhits: 3 };
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
      { side: 1, moveNumber: 1, cp: -35, depth: 12, seconds: 0.377, nodes: 51_200, tbhits: 3 },
      { side: 0, moveNumber: 1, cp: 100_000 - 3, depth: 20, seconds: 1.25 },
      { side: 1, moveNumber: 2 },
    ]);
    expect(parseMoveComment("-M2/9 0.010s")).toEqual({ cp: -100_000 + 2, depth: 9, seconds: 0.01 });
    // fastchess's form, and a game's last move with the reason after it.
    expect(parseMoveComment("+0.10/5 0.020s, n=5120,\ntbhits=0 White mates")).toEqual({ cp: 10, depth: 5, seconds: 0.02, nodes: 5120, tbhits: 0 });
  });

  it("sums each engine's nodes, search time and tbhits over the games", () => {
    const game = (players: [string, string], moves: CommentedGame["moves"]): CommentedGame => ({ players, result: "1/2-1/2", round: "1", moves });
    const lines = speedLines([
      game(["tables", "none"], [
        { side: 0, moveNumber: 1, seconds: 0.5, nodes: 1_000_000, tbhits: 40 },
        { side: 1, moveNumber: 1, seconds: 0.5, nodes: 1_500_000 },
        { side: 0, moveNumber: 2, cp: 30 }, // no nodes: not counted
      ]),
      game(["none", "tables"], [
        { side: 0, moveNumber: 1, seconds: 1.5, nodes: 4_500_000 },
        { side: 1, moveNumber: 1, seconds: 1.5, nodes: 2_000_000, tbhits: 2 },
      ]),
    ], ["tables", "none"]);
    expect(lines).toEqual([
      "tables: 1,500,000 nodes/s (3,000,000 nodes in 2.0 s of search, 2 moves), 42 tbhits",
      "none: 3,000,000 nodes/s (6,000,000 nodes in 2.0 s of search, 2 moves), 0 tbhits",
      "nodes/s ratio tables / none: 0.500",
    ]);
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
    expect(parseInfo("info depth 12 seldepth 15 score cp -34 nodes 100 nps 2000 tbhits 7 pv e2e4 e7e5"))
      .toEqual({ depth: 12, score: { kind: "cp", value: -34 }, bound: false, nodes: 100, tbhits: 7 });
    expect(parseInfo("info depth 9 score mate -3 lowerbound nodes 1")).toEqual({ depth: 9, score: { kind: "mate", value: -3 }, bound: true, nodes: 1 });
    expect(parseInfo("info string score cp 5")).toEqual({ bound: false });
    expect(formatScore({ kind: "cp", value: -120 })).toBe("-1.20");
    expect(formatScore({ kind: "mate", value: 3 })).toBe("+M3");
    expect(positionCommand(START_FEN, [])).toBe("position startpos");
    expect(positionCommand("8/8/8/8/8/8/8/K1k5 w - - 0 1", ["a1a2"])).toBe("position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1 moves a1a2");
  });
});
