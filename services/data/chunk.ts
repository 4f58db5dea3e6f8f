// The records a self-play data run's queue carries: a chunk of games (the job's data) and the
// games played (its return value), each a versioned record validated where it is read (a
// queue is shared, a record may come from another program). A chunk is games firstGame to
// firstGame + games - 1 of the run, each played from its own seed (learn/selfplay.ts), so
// the same chunk gives the same records on any machine.

import { z } from "zod";
import { DEFAULT_SETTINGS } from "../../learn/selfplay.js";
import type { Ending, SelfPlaySettings } from "../../learn/selfplay.js";
import { RECORD_BYTES, recordResult } from "../../learn/records.js";
import { FILE_HASH } from "../files.js";
import { RUN_ID } from "../perft/batch.js";
import { int, parseRecord } from "../schema.js";

export const CHUNK_RECORD_VERSION = 1;

const FEN = z.string().min(1).max(100);

/** Self-play settings as a run gives them (every field optional: learn/selfplay.ts's
 *  DEFAULT_SETTINGS for the rest). */
export const SettingsInput = z
  .object({
    hashMb: int(1, 1024),
    nodes: int(1, 10_000_000),
    seed: int(0, 2 ** 32 - 1),
    randomPlies: z.tuple([int(0, 100), int(0, 100)]).refine(([lo, hi]) => lo <= hi, "the first number must not be larger than the second"),
    book: z.array(FEN).max(100_000),
    openingNodes: int(1, 10_000_000),
    openingMaxCp: int(0, 32000),
    winScore: int(1, 32000),
    winPlies: int(1, 1000),
    drawMoveNumber: int(1, 10_000),
    drawScore: int(0, 32000),
    drawPlies: int(1, 1000),
    skipInCheck: z.boolean(),
    skipNoisy: z.boolean(),
    minPly: int(0, 10_000),
  })
  .strict()
  .partial();

/** The settings of a run, complete. */
export function completeSettings(given: z.infer<typeof SettingsInput>): SelfPlaySettings {
  return { ...DEFAULT_SETTINGS, ...given } as SelfPlaySettings;
}

const Settings = SettingsInput.required();

export const DataChunk = z
  .object({
    v: z.literal(CHUNK_RECORD_VERSION),
    /** The code signature of the worker that must play it (code-signature.ts). */
    code: z.string().min(1).max(100),
    run: z.string().regex(RUN_ID),
    chunk: int(0, 100_000_000),
    firstGame: int(0, 2 ** 40),
    games: int(1, 10_000),
    /** The engine's SHA-256 (files.ts). */
    engine: z.string().regex(FILE_HASH),
    settings: Settings,
  })
  .strict();
export type DataChunk = z.infer<typeof DataChunk>;

const ENDINGS = ["checkmate", "stalemate", "threefold", "fifty-moves", "insufficient-material", "adjudicated-win", "adjudicated-draw"] as const satisfies readonly Ending[];

export const GameSummary = z
  .object({
    index: int(0, 2 ** 40),
    positions: int(0, 100_000),
    /** learn/records.ts: 0 black won, 1 draw, 2 white won. */
    result: int(0, 2),
    ending: z.enum(ENDINGS),
    plies: int(0, 100_000),
    discardedOpenings: int(0, 1000),
    nodes: z.number().int().min(0),
  })
  .strict();
export type GameSummary = z.infer<typeof GameSummary>;

export const ChunkResult = z
  .object({
    v: z.literal(CHUNK_RECORD_VERSION),
    code: z.string().min(1).max(100),
    run: z.string().regex(RUN_ID),
    chunk: int(0, 100_000_000),
    worker: z.string().min(1).max(200),
    seconds: z.number().min(0),
    games: z.array(GameSummary).min(1).max(10_000),
    /** The games' records, RECORD_BYTES each, in game order, base64. */
    records: z.string().max(400_000_000),
  })
  .strict();
export type ChunkResult = z.infer<typeof ChunkResult>;

/** The chunk in a job's data, checked; throws an Error naming the bad field. */
export function parseChunk(data: unknown): DataChunk {
  return parseRecord(DataChunk, "data chunk", data);
}

/** A chunk's result checked against the chunk it answers: the games it was given, in order,
 *  and records that add up (as many as the games say, each with its game's result). Returns
 *  the records' bytes; throws an Error that says what is impossible about it. */
export function checkResult(data: unknown, chunk: Pick<DataChunk, "run" | "chunk" | "firstGame" | "games" | "code">): { result: ChunkResult; records: Buffer } {
  const r = parseRecord(ChunkResult, "chunk result", data);
  if (r.run !== chunk.run || r.chunk !== chunk.chunk) throw new Error(`the result is of chunk ${r.run}.c${r.chunk}, not ${chunk.run}.c${chunk.chunk}`);
  if (r.code !== chunk.code) throw new Error(`the result was played by code ${r.code}, not ${chunk.code}`);
  if (r.games.length !== chunk.games) throw new Error(`the result has ${r.games.length} games, the chunk ${chunk.games}`);
  r.games.forEach((g, i) => {
    if (g.index !== chunk.firstGame + i) throw new Error(`game ${i} of the result is game ${g.index}, not ${chunk.firstGame + i}`);
  });
  const records = Buffer.from(r.records, "base64");
  const positions = r.games.reduce((a, g) => a + g.positions, 0);
  if (records.length !== positions * RECORD_BYTES) throw new Error(`the result has ${records.length} bytes of records for ${positions} positions`);
  let at = 0;
  for (const g of r.games) {
    for (let i = 0; i < g.positions; i++, at++) {
      if (recordResult(records, at) !== g.result) throw new Error(`record ${at} has result ${recordResult(records, at)}, its game ${g.index} ended ${g.result}`);
    }
  }
  return { result: r, records };
}
