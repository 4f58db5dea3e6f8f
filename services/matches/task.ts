// The records of a test match on the service: the run a client asks for, a task (some game
// pairs of the match, the job's data) and its result (the games' outcomes and PGN, the job's
// return value). Each is validated where it is read. A task's games are the games the match
// runner (match/runner.ts) would play at those numbers: pair k plays opening k (in the run's
// order) twice with colours swapped, so a test through the service plays, in distribution,
// the games `bench/match.ts` plays.

import { z } from "zod";
import type { EndKind } from "../../match/game.js";
import type { Limits } from "../../match/clock.js";
import { parseTimeControl } from "../../match/clock.js";
import { FILE_HASH } from "../files.js";
import { RUN_ID } from "../perft/batch.js";
import { int, parseRecord } from "../schema.js";

export const MATCH_RECORD_VERSION = 1;

const hash = z.string().regex(FILE_HASH);
/** A UCI option's name or value as sent in `setoption`: one line, printable. */
const UCI_TEXT = /^[\x20-\x7e]{1,200}$/;

/** One engine of a test: a build the service holds, a network it holds (sent as EvalFile),
 *  and UCI options. Never a command line. */
export const EngineSpec = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9._+-]{1,40}$/, "1 to 40 letters, digits, '.', '_', '+' or '-'"),
    engine: hash,
    network: hash.optional(),
    options: z
      .record(z.string().regex(UCI_TEXT), z.union([z.string().regex(UCI_TEXT), z.number(), z.boolean()]))
      .refine((o) => !Object.keys(o).some((k) => k.toLowerCase() === "evalfile"), "EvalFile is set by the network field")
      .refine((o) => Object.keys(o).length <= 50, "at most 50 options")
      .optional(),
  })
  .strict();
export type EngineSpec = z.infer<typeof EngineSpec>;

/** How each move is limited (match/clock.ts Limits), as a client writes it. */
export const LimitsInput = z.union([
  z.object({ tc: z.string().max(40) }).strict(),
  z.object({ nodes: int(1, 1e9) }).strict(),
  z.object({ movetime: int(1, 600_000) }).strict(),
  z.object({ depth: int(1, 100) }).strict(),
]);

/** The match runner's limits from the client's form; throws an Error naming the field. */
export function toLimits(input: z.infer<typeof LimitsInput>): Limits {
  if ("tc" in input) {
    try {
      return parseTimeControl(input.tc);
    } catch (err) {
      throw new Error(`limits.tc: ${err instanceof Error ? err.message : err}`);
    }
  }
  if ("nodes" in input) return { kind: "nodes", nodes: input.nodes };
  if ("movetime" in input) return { kind: "movetime", ms: input.movetime };
  return { kind: "depth", depth: input.depth };
}

export const SprtInput = z
  .object({ elo0: z.number().min(-1000).max(1000), elo1: z.number().min(-1000).max(1000), alpha: z.number().gt(0).lt(0.5).optional(), beta: z.number().gt(0).lt(0.5).optional() })
  .strict()
  .refine((s) => s.elo0 < s.elo1, "elo0 must be below elo1");

export const AdjudicationInput = z
  .object({
    resign: z.object({ moveCount: int(1, 1000), scoreCp: int(1, 100_000) }).strict().optional(),
    draw: z.object({ moveNumber: int(1, 1000), moveCount: int(1, 1000), scoreCp: int(0, 100_000) }).strict().optional(),
    maxMoves: int(1, 10_000).optional(),
  })
  .strict();

export const MatchRunRequest = z
  .object({
    kind: z.literal("match"),
    id: z.string().regex(RUN_ID).optional(),
    /** Engine 1 (whose point of view the score takes) and engine 2. */
    engines: z.tuple([EngineSpec, EngineSpec]),
    limits: LimitsInput,
    /** The SHA-256 of an opening suite the service holds, or the runner's built-in lines. */
    openings: z.union([hash, z.literal("builtin")]),
    order: z.enum(["sequential", "random"]).optional(),
    seed: int(0, 2 ** 32 - 1).optional(),
    /** The most games; an SPRT may stop the test before. */
    games: int(2, 1_000_000),
    sprt: SprtInput.optional(),
    pairsPerTask: int(1, 1000).optional(),
    adjudication: AdjudicationInput.optional(),
    /** Tolerance beyond the clock before a time loss, ms. */
    marginMs: int(0, 60_000).optional(),
  })
  .strict();
export type MatchRunRequest = z.infer<typeof MatchRunRequest>;

const LimitsRecord = z.union([
  z.object({ kind: z.literal("tc"), baseMs: int(1, 1e9), incMs: int(0, 1e9), movesPerSession: int(1, 1000).optional() }).strict(),
  z.object({ kind: z.literal("nodes"), nodes: int(1, 1e9) }).strict(),
  z.object({ kind: z.literal("movetime"), ms: int(1, 600_000) }).strict(),
  z.object({ kind: z.literal("depth"), depth: int(1, 100) }).strict(),
]);

/** What every task of a run repeats: the games' settings. */
export const MatchSettings = z
  .object({
    engines: z.tuple([EngineSpec, EngineSpec]),
    limits: LimitsRecord,
    openings: z.union([hash, z.literal("builtin")]),
    order: z.enum(["sequential", "random"]),
    seed: int(0, 2 ** 32 - 1),
    adjudication: AdjudicationInput,
    marginMs: int(0, 60_000),
  })
  .strict();
export type MatchSettings = z.infer<typeof MatchSettings>;

export const MatchTask = z
  .object({
    v: z.literal(MATCH_RECORD_VERSION),
    code: z.string().min(1).max(100),
    run: z.string().regex(RUN_ID),
    task: int(0, 100_000_000),
    /** Pairs firstPair to firstPair + pairs - 1: games 2·firstPair to 2·(firstPair + pairs) - 1. */
    firstPair: int(0, 1e9),
    pairs: int(1, 1000),
    settings: MatchSettings,
  })
  .strict();
export type MatchTask = z.infer<typeof MatchTask>;

/** The cores a task's games take: the larger `Threads` of its two engines (they think in
 *  turn), 1 when neither sets it or the job is not a task (its processor fails it, saying why). */
export function taskCores(data: unknown): number {
  const parsed = MatchTask.safeParse(data);
  if (!parsed.success) return 1;
  const threads = parsed.data.settings.engines.map((e) =>
    Number(Object.entries(e.options ?? {}).find(([k]) => k.toLowerCase() === "threads")?.[1] ?? 1));
  return Math.max(1, ...threads.filter((t) => Number.isInteger(t)));
}

const END_KINDS = [
  "checkmate", "stalemate", "threefold", "fifty-moves", "insufficient-material", "resign-adjudication", "draw-adjudication", "max-moves",
  "tablebase-adjudication", "illegal-move", "time-forfeit", "no-reply", "crash", "start-failure",
] as const satisfies readonly EndKind[];

export const GameOutcome = z
  .object({
    index: int(0, 2e9),
    result: z.enum(["1-0", "0-1", "1/2-1/2"]),
    engine1White: z.boolean(),
    /** Engine 1's points. */
    points: z.union([z.literal(0), z.literal(0.5), z.literal(1)]),
    kind: z.enum(END_KINDS),
    /** The side that lost (0 white, 1 black), for decisive games. */
    loser: z.union([z.literal(0), z.literal(1)]).optional(),
  })
  .strict();
export type GameOutcome = z.infer<typeof GameOutcome>;

export const TaskResult = z
  .object({
    v: z.literal(MATCH_RECORD_VERSION),
    code: z.string().min(1).max(100),
    run: z.string().regex(RUN_ID),
    task: int(0, 100_000_000),
    worker: z.string().min(1).max(200),
    seconds: z.number().min(0),
    games: z.array(GameOutcome).min(1).max(2000),
    /** The games in PGN, in game order (dropped once the coordinator has written them). */
    pgn: z.string().max(50_000_000).optional(),
  })
  .strict();
export type TaskResult = z.infer<typeof TaskResult>;

export function parseTask(data: unknown): MatchTask {
  return parseRecord(MatchTask, "match task", data);
}

/** A task's result checked against its task: every game of its pairs once, in order, each
 *  outcome consistent (points from the result and colours, a loser only for a decisive game,
 *  the right one). Throws an Error that says what is impossible about it. */
export function checkTaskResult(data: unknown, task: Pick<MatchTask, "run" | "task" | "code" | "firstPair" | "pairs">): TaskResult {
  const r = parseRecord(TaskResult, "task result", data);
  if (r.run !== task.run || r.task !== task.task) throw new Error(`the result is of task ${r.run}.t${r.task}, not ${task.run}.t${task.task}`);
  if (r.code !== task.code) throw new Error(`the result was played by code ${r.code}, not ${task.code}`);
  if (r.games.length !== 2 * task.pairs) throw new Error(`the result has ${r.games.length} games, the task ${2 * task.pairs}`);
  r.games.forEach((g, i) => {
    const index = 2 * task.firstPair + i;
    if (g.index !== index) throw new Error(`game ${i} of the result is game ${g.index}, not ${index}`);
    if (g.engine1White !== (index % 2 === 0)) throw new Error(`game ${index}: engine 1 has the wrong colour`);
    const points = g.result === "1/2-1/2" ? 0.5 : (g.result === "1-0") === g.engine1White ? 1 : 0;
    if (g.points !== points) throw new Error(`game ${index}: ${g.points} points for engine 1 in a ${g.result} game`);
    const loser = g.result === "1-0" ? 1 : g.result === "0-1" ? 0 : undefined;
    if (g.loser !== loser) throw new Error(`game ${index}: the loser does not match the result ${g.result}`);
  });
  return r;
}
