// What an Engine (caller's thread) and its worker (which owns the wasm) say to each other
// through a WorkerClient (worker-channel.ts has the envelope), and the shared control words
// through which `stop` and `ponderhit` reach a running search. The Engine keeps the position
// itself (see engine.ts): every request that depends on it carries it, so the worker holds no
// position state of its own.

import type { SearchLimits, SearchInfo, CurrMove } from "./search-types.js";
import type { EngineBuild } from "./wasm.js";

/** Core methods the worker runs on request (see bindings/core.ts). */
export type CoreMethod =
  | "perft" | "divide" | "bench" | "newGame"
  | "setHash" | "hashMb" | "clearHash" | "setMultiPv" | "setMoveOverhead" | "setSearchFeatures"
  | "searchParams" | "setSearchParam" | "setSearchMode"
  | "setSkillLevel" | "setElo" | "strength"
  | "info" | "loadNetwork" | "evaluate"
  | "setThreads" | "threadCount"
  | "setSyzygyPath" | "loadTablebases" | "setSyzygyOptions" | "probeTablebase"
  | "crashForTesting";

/** A position as the Engine keeps it: a FEN, the UCI moves played from it, and whether it is
 *  set up as Chess960 (castling fields and castling moves read the Chess960 way). */
export interface PositionRecord {
  fen: string;
  moves: string[];
  chess960: boolean;
}

/** The worker's start-up data: the shared control words (if any), the hash size and the build
 *  (or the URL of another engine module). */
export interface EngineInit {
  control?: SharedArrayBuffer;
  hashMb?: number;
  build?: EngineBuild;
  wasmUrl?: string;
}

/** Caller to worker (each sent with its call id; a search's id is the one the control words
 *  name). */
export type Request =
  | { kind: "call"; method: CoreMethod; args: unknown[]; position?: PositionRecord }
  | {
      kind: "search"; limits: SearchLimits; position: PositionRecord; multiPv?: number;
      /** When the caller asked (epoch milliseconds, performance.timeOrigin + now()): the
       *  worker takes the time the request waited off the clocks and the move time. */
      sentAt: number;
    };

/** Worker to caller, while a search runs: its info lines and the move it is on. */
export type SearchEvent =
  | { kind: "info"; info: SearchInfo }
  | { kind: "currmove"; current: CurrMove };

// The control words (Int32s in the shared buffer). Search ids only grow, so a stop never
// reaches a search started after it, and a ponderhit only the search it names.
/** Every search whose id is below this value must stop. */
export const CONTROL_STOP_BELOW = 0;
/** The id of the ponder search that has had its ponderhit (0: none). */
export const CONTROL_PONDERHIT = 1;
export const CONTROL_WORDS = 2;

/** A call to replay into a fresh wasm instance. */
export interface Call {
  method: CoreMethod;
  args: unknown[];
}

/** Methods whose calls set options that must be replayed after the wasm is re-created. */
const OPTION_METHODS: ReadonlySet<CoreMethod> = new Set<CoreMethod>([
  "setHash", "setMultiPv", "setMoveOverhead", "setSearchFeatures", "loadNetwork", "setSkillLevel", "setElo", "setSearchParam",
  "setThreads", "setSyzygyPath", "loadTablebases", "setSyzygyOptions", "setSearchMode",
]);

/** What one option call sets: the method, for setSearchParam the parameter's name, and one
 *  key for the two ways to give tables. */
function optionKey(method: CoreMethod, args: readonly unknown[]): string {
  if (method === "setSyzygyPath" || method === "loadTablebases") return "tablebases";
  return method === "setSearchParam" ? `${method}:${String(args[0]).toLowerCase()}` : method;
}

/** The replay list after `method(...args)` succeeded: the last call of each option (each
 *  search parameter is an option of its own). */
export function remember(replay: readonly Call[], method: CoreMethod, args: unknown[]): Call[] {
  if (!OPTION_METHODS.has(method)) return [...replay];
  const key = optionKey(method, args);
  return [...replay.filter((c) => optionKey(c.method, c.args) !== key), { method, args }];
}

/** True when two positions are the same FEN and moves. */
export function samePosition(a: PositionRecord | undefined, b: PositionRecord): boolean {
  return a !== undefined && a.fen === b.fen && a.chess960 === b.chess960 && a.moves.length === b.moves.length && a.moves.every((m, i) => m === b.moves[i]);
}

/** Milliseconds since the epoch with sub-millisecond precision, comparable across threads
 *  (the caller stamps a search request, the worker reads how long it waited). */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

/** The limits with the time the request waited (for the worker to start, or behind earlier
 *  requests) taken off the clocks and the move time: the caller's clock was running. */
export function lessWaited(limits: SearchLimits, waitedMs: number): SearchLimits {
  const w = Math.floor(waitedMs);
  if (!(w > 0) || limits.ponder || limits.infinite) return limits;
  const out = { ...limits };
  if (out.movetime !== undefined) out.movetime = Math.max(1, out.movetime - w);
  if (out.wtime !== undefined) out.wtime = Math.max(1, out.wtime - w);
  if (out.btime !== undefined) out.btime = Math.max(1, out.btime - w);
  return out;
}
