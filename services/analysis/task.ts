// The records of a game analysis run on the service: the run a client asks for (a PGN file,
// an engine and a search budget), a task (one game, the job's data) and its result (the
// annotated game, the job's return value), each validated where it is read.

import { z } from "zod";
import { FILE_HASH } from "../files.js";
import { RUN_ID } from "../perft/batch.js";
import { int, parseRecord } from "../schema.js";

export const ANALYSIS_RECORD_VERSION = 1;

const hash = z.string().regex(FILE_HASH);
/** The largest PGN a run takes, and the largest game. */
export const MAX_PGN_CHARS = 16 * 1024 * 1024;
const MAX_GAME_CHARS = 1024 * 1024;

export const AnalysisRunRequest = z
  .object({
    kind: z.literal("analysis"),
    id: z.string().regex(RUN_ID).optional(),
    /** The engine (and network) that analyses, held by the service. */
    engine: hash,
    network: hash.optional(),
    /** The games. */
    pgn: z.string().min(1).max(MAX_PGN_CHARS),
    /** Nodes searched in every position (default 200,000). */
    nodes: int(1, 1e9).optional(),
    hashMb: int(1, 1024).optional(),
  })
  .strict();
export type AnalysisRunRequest = z.infer<typeof AnalysisRunRequest>;

const Marks = z.object({ inaccuracy: int(0, 10_000), mistake: int(0, 10_000), blunder: int(0, 10_000) }).strict();

export const AnalysisTask = z
  .object({
    v: z.literal(ANALYSIS_RECORD_VERSION),
    code: z.string().min(1).max(100),
    run: z.string().regex(RUN_ID),
    /** The game's number in the file (1 for the first). */
    game: int(1, 10_000_000),
    engine: hash,
    network: hash.optional(),
    nodes: int(1, 1e9),
    hashMb: int(1, 1024),
    /** The game as the service read it (export format). */
    pgn: z.string().min(1).max(MAX_GAME_CHARS),
  })
  .strict();
export type AnalysisTask = z.infer<typeof AnalysisTask>;

export const AnalysisResult = z
  .object({
    v: z.literal(ANALYSIS_RECORD_VERSION),
    code: z.string().min(1).max(100),
    run: z.string().regex(RUN_ID),
    game: int(1, 10_000_000),
    worker: z.string().min(1).max(200),
    seconds: z.number().min(0),
    /** Positions searched, and nodes. */
    positions: int(0, 100_000),
    nodes: z.number().int().min(0),
    marks: z.object({ white: Marks, black: Marks }).strict(),
    acpl: z.object({ white: int(0, 2000), black: int(0, 2000) }).strict(),
    /** The annotated game (dropped once the coordinator has written it). */
    pgn: z.string().max(4 * MAX_GAME_CHARS).optional(),
  })
  .strict();
export type AnalysisResult = z.infer<typeof AnalysisResult>;

export function parseAnalysisTask(data: unknown): AnalysisTask {
  return parseRecord(AnalysisTask, "analysis task", data);
}
