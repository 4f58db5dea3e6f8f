// Messages between an Engine (caller's thread) and its worker (which owns the wasm), and the
// shared control word through which `stop` and `ponderhit` reach a running search.

import type { SearchLimits, SearchInfo, CurrMove } from "./search-types.js";

/** Core methods the worker runs on request (see bindings/core.ts). */
export type CoreMethod =
  | "setPosition" | "playMove" | "playMoves" | "fen" | "key" | "sideToMove" | "legalMoves" | "status" | "inCheck"
  | "perft" | "divide" | "toSan" | "fromSan" | "evaluate" | "bench" | "newGame"
  | "setHash" | "hashMb" | "clearHash" | "setMultiPv" | "setMoveOverhead" | "setSearchFeatures"
  | "checkers" | "crashForTesting";

/** Caller to worker. */
export type Request =
  | { kind: "init"; control?: SharedArrayBuffer; hashMb?: number }
  | { kind: "call"; id: number; method: CoreMethod; args: unknown[] }
  | { kind: "search"; id: number; limits: SearchLimits };

/** Worker to caller. */
export type Reply =
  | { kind: "ready" }
  | { kind: "result"; id: number; value: unknown }
  | { kind: "error"; id: number; message: string; crashed: boolean }
  | { kind: "started"; id: number; fallback: string; white: boolean }
  | { kind: "info"; id: number; info: SearchInfo }
  | { kind: "currmove"; id: number; current: CurrMove };

/** The Engine's handle on its worker (see spawn-worker-node.ts and spawn-worker-browser.ts). */
export interface WorkerHandle {
  post(message: Request): void;
  terminate(): void;
  /** Node: whether the worker keeps the process alive (only while requests are pending). */
  keepAlive(on: boolean): void;
}

/** The worker's side of the channel (see worker-port-node.ts and worker-port-browser.ts). */
export interface WorkerPort {
  post(message: Reply): void;
  listen(handler: (message: Request) => void): void;
}

// The control word (Int32 at index 0 of the shared buffer).
export const CONTROL_RUN = 0;
export const CONTROL_STOP = 1;
export const CONTROL_PONDERHIT = 2;

/** A call to replay into a fresh wasm instance. */
export interface Call {
  method: CoreMethod;
  args: unknown[];
}

/** Methods whose calls set state that must be replayed after the wasm is re-created. */
const STATE_METHODS: ReadonlySet<CoreMethod> = new Set<CoreMethod>([
  "setPosition", "playMove", "playMoves", "setHash", "setMultiPv", "setMoveOverhead", "setSearchFeatures",
]);
/** Moves on top of the last setPosition: every one of them is replayed, in order. */
const MOVE_METHODS: ReadonlySet<CoreMethod> = new Set<CoreMethod>(["playMove", "playMoves"]);

/** The replay list after `method(...args)` succeeded: the last call of each state method,
 *  and the moves played since the last setPosition. */
export function remember(replay: readonly Call[], method: CoreMethod, args: unknown[]): Call[] {
  if (!STATE_METHODS.has(method)) return [...replay];
  const kept = MOVE_METHODS.has(method)
    ? replay
    : replay.filter((c) => c.method !== method && !(method === "setPosition" && MOVE_METHODS.has(c.method)));
  return [...kept, { method, args }];
}
