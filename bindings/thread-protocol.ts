// What the main search thread (SearchThreads, search-threads.ts) and its helper threads
// (thread-worker.ts) say to each other: the helpers' start-up data and requests, and the
// layout of the control buffer they share, through which a helper says it is done without a
// message (the main thread waits on it with Atomics.wait while its own event loop is busy).

import type { EngineBuild } from "./wasm.js";

/** The control buffer's Int32 words: how many helpers still run the current round, and that
 *  round's number (a request of an older round is skipped and counted by nobody). */
export const THREAD_CONTROL_RUNNING = 0;
export const THREAD_CONTROL_ROUND = 1;
/** Byte offset of the perft counts (u64 slots, one per root move) in the control buffer. */
export const PERFT_SLOTS_AT = 8;
/** Root moves a position can have at most (one slot each). */
export const PERFT_SLOTS = 256;
export const THREAD_CONTROL_BYTES = PERFT_SLOTS_AT + PERFT_SLOTS * 8;

/** A helper's start-up data. */
export interface ThreadInit {
  /** Its number (1 and up; 0 is the main thread). */
  index: number;
  /** The memory of the shared module: the transposition table and the header. */
  memory: WebAssembly.Memory;
  /** The control buffer (THREAD_CONTROL_BYTES). */
  control: SharedArrayBuffer;
  build: EngineBuild;
  /** Another module than the build's (a test's), as a URL string. */
  wasmUrl?: string;
}

/** A position: a FEN, the UCI moves from it, and whether it is Chess960. */
export interface ThreadPosition {
  fen: string;
  moves: readonly string[];
  chess960: boolean;
}

/** Main thread to helper. */
export type ThreadRequest =
  /** An option every thread must share: the selectivity features, a search parameter
   *  ("param:<index>") or the network ("network", the file's bytes). */
  | { kind: "option"; name: string; value: number | Uint8Array }
  /** Forget the game (histories; the main thread clears the shared table). */
  | { kind: "newGame" }
  /** Search the position until the shared stop request (or to depth). */
  | { kind: "search"; round: number; position: ThreadPosition; depth?: number }
  /** Count perft(depth - 1) below each of these root moves into its slot (hashed: through
   *  the shared table). */
  | { kind: "perft"; round: number; position: ThreadPosition; depth: number; hashed: boolean; moves: { move: string; slot: number }[] }
  /** Test hook: make the wasm trap (the helper re-creates its engine). */
  | { kind: "crashForTesting" };
