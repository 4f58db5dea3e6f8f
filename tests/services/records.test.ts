// The service's records and checks without a server: lichess's winning chances and marks, a
// game annotated from given evaluations, and the results a coordinator refuses (a match task's
// impossible outcomes, a data chunk's records that do not add up).
import { beforeAll, describe, expect, it } from "vitest";
import { Game } from "../../bindings/game.js";
import { annotate, evalText, markOf, winningChances } from "../../services/analysis/annotate.js";
import { checkTaskResult } from "../../services/matches/task.js";
import { checkResult as checkChunkResult } from "../../services/data/chunk.js";

beforeAll(async () => {
  await Game.create();
});

describe("lichess's computer analysis", () => {
  it("winning chances are 0 at equality, symmetric, and about 0.95 at the cap", () => {
    expect(winningChances(0)).toBe(0);
    expect(winningChances(300)).toBeCloseTo(-winningChances(-300), 12);
    expect(winningChances(1000)).toBeCloseTo(0.9509, 3);
  });

  it("marks a loss of 0.1, 0.2, 0.3 in winning chances as inaccuracy, mistake, blunder", () => {
    expect(markOf(0.5, 0.45)).toBeUndefined();
    expect(markOf(0.5, 0.39)).toBe("inaccuracy");
    expect(markOf(0.5, 0.29)).toBe("mistake");
    expect(markOf(0.5, 0.19)).toBe("blunder");
    expect(markOf(-0.2, 0.4)).toBeUndefined(); // a gain is no mistake
  });

  it("writes the evaluation after every move, the marks as NAGs with the best line, Checkmate at the end", () => {
    const game = new Game();
    for (const m of ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]) game.play(m);
    game.moves()[1].comment = "the usual";
    const evals = [
      { cp: 30, wdl: [300, 500, 200] as [number, number, number] }, { cp: 40 }, { cp: 20 }, { cp: 30 }, { cp: 10 },
      { cp: 0, best: ["g6", "Qf3", "Nf6"] }, { mate: 1 }, { checkmated: true },
    ];
    const a = annotate(game, evals);
    const moves = game.moves();
    expect(moves[0].comment).toBe("[%eval 0.40]");
    expect(moves[1].comment).toBe("the usual [%eval 0.20]");
    expect(moves[5].comment).toBe("[%eval #1] Blunder. g6 was best: g6 Qf3 Nf6.");
    expect(moves[5].nags).toEqual([4]);
    expect(moves[6].comment).toBe("Checkmate.");
    expect(a.marks.black).toEqual({ inaccuracy: 0, mistake: 0, blunder: 1 });
    expect(a.marks.white).toEqual({ inaccuracy: 0, mistake: 0, blunder: 0 });
    expect(game.toPgn()).toMatch(/Nf6 \$4/);
    expect(evalText({ mate: -3 })).toBe("#-3");
    expect(() => annotate(new Game(), [])).toThrow(/0 evaluations for 0 moves/);
  });
});

describe("results a coordinator refuses", () => {
  const task = { run: "r", task: 3, code: "c", firstPair: 6, pairs: 1 };
  const game = (index: number, result: "1-0" | "0-1" | "1/2-1/2", engine1White: boolean) => {
    const points = result === "1/2-1/2" ? 0.5 : (result === "1-0") === engine1White ? 1 : 0;
    const loser = result === "1-0" ? 1 : result === "0-1" ? 0 : undefined;
    return { index, result, engine1White, points, kind: result === "1/2-1/2" ? "threefold" : "checkmate", ...(loser === undefined ? {} : { loser }) };
  };
  const result = (games: object[]) => ({ v: 1, code: "c", run: "r", task: 3, worker: "w", seconds: 1, games });

  it("takes a match task's two games, and refuses missing games, wrong points, a wrong loser, another task's games", () => {
    expect(checkTaskResult(result([game(12, "1-0", true), game(13, "1/2-1/2", false)]), task).games).toHaveLength(2);
    expect(() => checkTaskResult(result([game(12, "1-0", true)]), task)).toThrow(/has 1 games, the task 2/);
    expect(() => checkTaskResult(result([{ ...game(12, "1-0", true), points: 0 }, game(13, "0-1", false)]), task)).toThrow(/0 points for engine 1 in a 1-0 game/);
    expect(() => checkTaskResult(result([{ ...game(12, "1-0", true), loser: 0 }, game(13, "0-1", false)]), task)).toThrow(/loser does not match/);
    expect(() => checkTaskResult(result([game(10, "1-0", true), game(11, "0-1", false)]), task)).toThrow(/is game 10, not 12/);
    expect(() => checkTaskResult({ ...result([game(12, "1-0", true), game(13, "0-1", false)]), task: 4 }, task)).toThrow(/of task r\.t4/);
  });

  it("refuses a data chunk whose records do not add up to its games' positions or results", () => {
    const chunk = { run: "r", chunk: 0, firstGame: 0, games: 1, code: "c" };
    const summary = { index: 0, positions: 2, result: 2, ending: "checkmate", plies: 40, discardedOpenings: 0, nodes: 1000 };
    const records = Buffer.alloc(64);
    records[30] = 2;
    records[62] = 2;
    const ok = { v: 1, code: "c", run: "r", chunk: 0, worker: "w", seconds: 1, games: [summary], records: records.toString("base64") };
    expect(checkChunkResult(ok, chunk).records.length).toBe(64);
    expect(() => checkChunkResult({ ...ok, records: records.subarray(0, 32).toString("base64") }, chunk)).toThrow(/32 bytes of records for 2 positions/);
    records[62] = 1;
    expect(() => checkChunkResult({ ...ok, records: records.toString("base64") }, chunk)).toThrow(/record 1 has result 1, its game 0 ended 2/);
    expect(() => checkChunkResult({ ...ok, games: [{ ...summary, index: 5 }] }, chunk)).toThrow(/is game 5, not 0/);
    expect(() => checkChunkResult({ ...ok, extra: 1 }, chunk)).toThrow(/bad chunk result: the record: Unrecognized key/);
  });
});
