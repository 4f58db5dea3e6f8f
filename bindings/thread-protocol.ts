// What the main search thread (SearchThreads, search-threads.ts) and its helper threads
// (thread-worker.ts) say to each other: the helpers' start-up data and requests, and the
// layout of the control buffer they share, through which a helper says it is done without a
// message (the main thread waits on it with Atomics.wait while its own event loop is busy).

import type { EngineBuild } from "./wasm.js";
import type { TableBytes } from "./syzygy.js";
import type { SyzygyOptions } from "./engine-options.js";

/** The control buffer's Int32 words: how many helpers still run the current round, and that
 *  round's number (a request of an older round is skipped and counted by nobody). */
export const THREAD_CONTROL_RUNNING = 0;
export const THREAD_CONTROL_ROUND = 1;
export const THREAD_CONTROL_BYTES = 8;

/** A perft's work buffer (a SharedArrayBuffer of PERFT_WORK_AT + 8 bytes per unit): the Int32
 *  words PERFT_NEXT (the next unit to take: each thread takes one with Atomics.add) and
 *  PERFT_FINISHED (units counted so far), the leaves counted so far (a BigInt64 at byte
 *  PERFT_NODES_AT), then each unit's count (u64). */
export const PERFT_NEXT = 0;
export const PERFT_FINISHED = 1;
export const PERFT_NODES_AT = 8;
export const PERFT_WORK_AT = 16;

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
   *  ("param:<index>"), the network ("network", the file's bytes), the key seed
   *  ("keySeed"), or the Syzygy tables ("syzygyPath", or "syzygyBytes": the files) and their
   *  use ("syzygyOptions"). */
  | { kind: "option"; name: string; value: number | Uint8Array | string | TableBytes[] | Required<SyzygyOptions> }
  /** Forget the game (histories; the main thread clears the shared table). */
  | { kind: "newGame" }
  /** Search the position until the shared stop request (or to depth). */
  | { kind: "search"; round: number; position: ThreadPosition; depth?: number }
  /** Take units (move sequences from the position) from the work buffer until none is left,
   *  and count perft(depth) below each into its slot (hashed: through the shared table). */
  | { kind: "perft"; round: number; position: ThreadPosition; units: string[][]; depth: number; hashed: boolean; work: SharedArrayBuffer }
  /** Test hook: make the wasm trap (the helper re-creates its engine). */
  | { kind: "crashForTesting" };
