// The options an Engine is created with (Engine.create, Engine.open), and their check: a
// TypeError for an unknown name or a wrong type, a RangeError for a number out of its range.

import type { EngineBuild } from "./wasm.js";
import { ELO_MIN, ELO_MAX, SKILL_MIN, SKILL_MAX } from "./strength.js";
import { HASH_MIN_MB, HASH_MAX_MB, THREADS_MAX, checkInteger, checkKeys, checkBoolean, checkSearchMode } from "./validate.js";
import type { SearchMode } from "./validate.js";
import { sharedMemorySupported } from "./wasm.js";

/** Checks a thread count: an integer from 1 to THREADS_MAX, and more than one only where
 *  threads can share memory (the error names cross-origin isolation, which browsers need). */
export function checkThreads(name: string, n: unknown): number {
  const count = checkInteger(name, n, 1, THREADS_MAX);
  if (count > 1 && !sharedMemorySupported()) {
    throw new Error(
      `${name}: ${count} threads need shared memory (SharedArrayBuffer), which a browser gives only to a cross-origin-isolated ` +
        "page (Cross-Origin-Opener-Policy: same-origin, Cross-Origin-Embedder-Policy: require-corp); this page is not, " +
        "so the engine searches on one thread",
    );
  }
  return count;
}

export interface EngineOptions {
  /** Transposition table size in MB: an integer from 1 to 2048 (default 16). */
  hashMb?: number;
  /** URL of engine-worker.js (default: next to this module). */
  workerUrl?: URL;
  /** Use a SharedArrayBuffer for stop/ponderhit (default: when the environment allows it).
   *  false forces the fallback that restarts the worker on stop. */
  sharedMemory?: boolean;
  /** "nnue" (the network build, the default where the host has wasm SIMD) or "classical"
   *  (the hand-crafted evaluation, the smaller module). */
  build?: EngineBuild;
  /** The engine module to run instead of the package's (a build of another commit, say: it
   *  must export what this package's bindings call). Overrides `build`. */
  wasmUrl?: URL;
  /** Chess960 mode for the positions set (default false): see Engine.setChess960. */
  chess960?: boolean;
  /** Play moves from the opening book (loadBook) when it has some (default false). */
  ownBook?: boolean;
  /** Seed of the book's random choice (an integer; default: a random seed). */
  bookSeed?: number;
  /** Skill Level 0-20 (default 20, full strength): see setSkillLevel. */
  skillLevel?: number;
  /** An Elo limit (1000-2100): see setElo. */
  elo?: number;
  /** Search threads (Lazy SMP): an integer from 1 (the default) to 256; see setThreads. */
  threads?: number;
  /** Syzygy tables: the directories they are in (Node), as setSyzygyPath. */
  syzygyPath?: string;
  /** "alphabeta" (the default) or "mcts": see setSearchMode. */
  searchMode?: SearchMode;
}

const ENGINE_OPTIONS = [
  "hashMb", "workerUrl", "sharedMemory", "build", "wasmUrl", "chess960", "ownBook", "bookSeed", "skillLevel", "elo", "threads", "syzygyPath", "searchMode",
];

/** How the search uses Syzygy tables, as Stockfish's UCI options. */
export interface SyzygyOptions {
  /** SyzygyProbeDepth (1 to 100, default 1): the least depth at which the search probes
   *  positions with as many pieces as probeLimit (fewer: at any depth). */
  probeDepth?: number;
  /** SyzygyProbeLimit (0 to 7, default 7): the most pieces of a position the search probes. */
  probeLimit?: number;
  /** Syzygy50MoveRule (default true): a win or loss the 50-move rule turns into a draw
   *  scores as a draw; false scores it as a win or loss. */
  rule50?: boolean;
}
export const SYZYGY_DEFAULTS: Required<SyzygyOptions> = { probeDepth: 1, probeLimit: 7, rule50: true };
export const SYZYGY_PROBE_DEPTH_MAX = 100;
export const SYZYGY_PROBE_LIMIT_MAX = 7;

/** The tablebase options given (those undefined left out); throws when one is unknown, of the
 *  wrong type or out of its range. */
export function checkSyzygyOptions(options: SyzygyOptions): SyzygyOptions {
  const { probeDepth, probeLimit, rule50 } = checkKeys("Syzygy option", options, ["probeDepth", "probeLimit", "rule50"]) as SyzygyOptions;
  const out: SyzygyOptions = {};
  if (probeDepth !== undefined) out.probeDepth = checkInteger("probeDepth", probeDepth, 1, SYZYGY_PROBE_DEPTH_MAX);
  if (probeLimit !== undefined) out.probeLimit = checkInteger("probeLimit", probeLimit, 0, SYZYGY_PROBE_LIMIT_MAX, "pieces");
  if (rule50 !== undefined) out.rule50 = checkBoolean("rule50", rule50);
  return out;
}

/** Throws when an option is unknown, of the wrong type or out of its range. */
export function checkEngineOptions(options: EngineOptions): void {
  checkKeys("Engine option", options, ENGINE_OPTIONS);
  if (options.hashMb !== undefined) checkInteger("hashMb", options.hashMb, HASH_MIN_MB, HASH_MAX_MB, "megabytes");
  if (options.workerUrl !== undefined && !(options.workerUrl instanceof URL)) throw new TypeError("workerUrl must be a URL");
  if (options.wasmUrl !== undefined && !(options.wasmUrl instanceof URL)) throw new TypeError("wasmUrl must be a URL");
  if (options.sharedMemory !== undefined) checkBoolean("sharedMemory", options.sharedMemory);
  if (options.chess960 !== undefined) checkBoolean("chess960", options.chess960);
  if (options.ownBook !== undefined) checkBoolean("ownBook", options.ownBook);
  if (options.bookSeed !== undefined) checkInteger("bookSeed", options.bookSeed, 0, 2 ** 32 - 1);
  if (options.skillLevel !== undefined) checkInteger("skillLevel", options.skillLevel, SKILL_MIN, SKILL_MAX);
  if (options.elo !== undefined) checkInteger("elo", options.elo, ELO_MIN, ELO_MAX);
  if (options.threads !== undefined) checkThreads("threads", options.threads);
  if (options.syzygyPath !== undefined && typeof options.syzygyPath !== "string") throw new TypeError("syzygyPath must be a string");
  if (options.searchMode !== undefined) checkSearchMode("searchMode", options.searchMode);
  if (options.build !== undefined && options.build !== "nnue" && options.build !== "classical") {
    throw new TypeError(`build must be "nnue" or "classical", got ${JSON.stringify(options.build)}`);
  }
}
