// The records the distributed perft's queue carries: a batch (the job's data) and its result
// (the job's return value), each a versioned record checked field by field where it is read,
// since a queue is shared and a record may come from another program or version. Also the
// names a run uses in Redis: its queue (one per perft signature, so a worker of another
// engine version never takes a batch), its job ids and its keys.

import { KEY_PREFIX } from "../registry.js";

/** The version of the records below; a record of another version is refused. */
export const BATCH_RECORD_VERSION = 1;

/** A batch: unique positions `ply` plies below the run's root, each given by the first path
 *  that reached it (UCI moves, space-separated) and the number of paths that reach it. Its
 *  result is the sum over them of count × perft(depth) of the position. */
export interface PerftBatch {
  v: typeof BATCH_RECORD_VERSION;
  /** The perft signature of the engine that must count it. */
  signature: string;
  run: string;
  /** 1, or 2 for --verify's second pass (other Zobrist keys: keySeed). */
  pass: 1 | 2;
  keySeed: number;
  batch: number;
  /** The run's root position and whether it is read as Chess960. */
  fen: string;
  chess960: boolean;
  /** Depth below each position. */
  depth: number;
  paths: string[];
  /** Paths reaching each position, as decimal digits (counts are bigints). */
  counts: string[];
}

/** What a worker returns for a batch. */
export interface BatchResult {
  v: typeof BATCH_RECORD_VERSION;
  signature: string;
  run: string;
  pass: 1 | 2;
  batch: number;
  /** The batch's leaves, as decimal digits. */
  nodes: string;
  positions: number;
  seconds: number;
  /** The worker that counted it (its name). */
  worker: string;
}

/** Run ids: letters, digits, '.', '_', '-' (they name Redis keys and job ids). */
export const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const DIGITS = /^(0|[1-9][0-9]{0,25})$/;
const UCI_PATH = /^([a-h][1-8][a-h][1-8][nbrq]?( [a-h][1-8][a-h][1-8][nbrq]?)*)?$/;
/** Positions a batch may hold. */
export const MAX_BATCH_POSITIONS = 100_000;

function fail(what: string, why: string): never {
  throw new Error(`bad perft ${what}: ${why}`);
}

function record(what: string, data: unknown, keys: readonly string[]): Record<string, unknown> {
  if (typeof data !== "object" || data === null || Array.isArray(data)) fail(what, "not an object");
  const r = data as Record<string, unknown>;
  if (r.v !== BATCH_RECORD_VERSION) fail(what, `record version ${JSON.stringify(r.v)}, this worker reads version ${BATCH_RECORD_VERSION}`);
  const extra = Object.keys(r).filter((k) => !keys.includes(k));
  if (extra.length) fail(what, `unknown field ${JSON.stringify(extra[0])}`);
  return r;
}

function int(what: string, r: Record<string, unknown>, key: string, min: number, max: number): number {
  const n = r[key];
  if (typeof n !== "number" || !Number.isInteger(n) || n < min || n > max) fail(what, `${key} must be an integer from ${min} to ${max}`);
  return n;
}

function str(what: string, r: Record<string, unknown>, key: string, max = 200): string {
  const s = r[key];
  if (typeof s !== "string" || s.length === 0 || s.length > max) fail(what, `${key} must be a string of 1 to ${max} characters`);
  return s;
}

function pass(what: string, r: Record<string, unknown>): 1 | 2 {
  if (r.pass !== 1 && r.pass !== 2) fail(what, "pass must be 1 or 2");
  return r.pass;
}

function run(what: string, r: Record<string, unknown>): string {
  const id = str(what, r, "run");
  if (!RUN_ID.test(id)) fail(what, `run id ${JSON.stringify(id)}`);
  return id;
}

const BATCH_KEYS = ["v", "signature", "run", "pass", "keySeed", "batch", "fen", "chess960", "depth", "paths", "counts"];

/** The batch in a job's data, checked; throws an Error naming the bad field. */
export function parseBatch(data: unknown): PerftBatch {
  const what = "batch";
  const r = record(what, data, BATCH_KEYS);
  if (typeof r.chess960 !== "boolean") fail(what, "chess960 must be a boolean");
  const { paths, counts } = r;
  if (!Array.isArray(paths) || paths.length === 0 || paths.length > MAX_BATCH_POSITIONS) fail(what, `paths must be an array of 1 to ${MAX_BATCH_POSITIONS} move sequences`);
  if (!Array.isArray(counts) || counts.length !== paths.length) fail(what, "counts must be an array as long as paths");
  paths.forEach((p, i) => {
    if (typeof p !== "string" || p.length > 200 || !UCI_PATH.test(p)) fail(what, `paths[${i}] is not a sequence of UCI moves`);
  });
  counts.forEach((c, i) => {
    if (typeof c !== "string" || !DIGITS.test(c) || c === "0") fail(what, `counts[${i}] must be a positive integer's digits`);
  });
  return {
    v: BATCH_RECORD_VERSION,
    signature: str(what, r, "signature"),
    run: run(what, r),
    pass: pass(what, r),
    keySeed: int(what, r, "keySeed", 0, 2 ** 32 - 1),
    batch: int(what, r, "batch", 0, 10_000_000),
    fen: str(what, r, "fen"),
    chess960: r.chess960,
    depth: int(what, r, "depth", 0, 20),
    paths: paths as string[],
    counts: counts as string[],
  };
}

const RESULT_KEYS = ["v", "signature", "run", "pass", "batch", "nodes", "positions", "seconds", "worker"];

/** A batch's result as read back from the queue, checked. */
export function parseResult(data: unknown): BatchResult {
  const what = "batch result";
  const r = record(what, data, RESULT_KEYS);
  const nodes = str(what, r, "nodes", 30);
  if (!DIGITS.test(nodes)) fail(what, "nodes must be an integer's digits");
  const seconds = r.seconds;
  if (typeof seconds !== "number" || !(seconds >= 0)) fail(what, "seconds must be a number >= 0");
  return {
    v: BATCH_RECORD_VERSION,
    signature: str(what, r, "signature"),
    run: run(what, r),
    pass: pass(what, r),
    batch: int(what, r, "batch", 0, 10_000_000),
    nodes,
    positions: int(what, r, "positions", 1, MAX_BATCH_POSITIONS),
    seconds,
    worker: str(what, r, "worker"),
  };
}

/** The queue of one perft signature (BullMQ queue names cannot hold ':'). */
export function queueName(signature: string): string {
  return `perft-${signature.replace(/[^A-Za-z0-9._-]/g, "_")}`;
}

/** A batch's job id: the same batch queued twice is one job. */
export function jobId(run: string, pass: 1 | 2, batch: number): string {
  return `${run}.p${pass}.b${batch}`;
}

/** The field of a batch's result in the run's results hash. */
export function resultField(pass: 1 | 2, batch: number): string {
  return `${pass}:${batch}`;
}

/** Redis keys of a run: its definition and its results (one field per batch and pass). */
export function runKeys(run: string): { meta: string; results: string; retries: string } {
  const base = `${KEY_PREFIX}:perft-run:${run}`;
  return { meta: base, results: `${base}:results`, retries: `${base}:retries` };
}
