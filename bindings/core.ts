// A synchronous, validated wrapper around one engine instance: positions, move lists,
// notation and perft. Bad input throws an Error that names the problem.

import { createInstance, EngineExports, EngineBuild, buildUrl, defaultBuild, NO_SHARED_TABLE } from "./wasm.js";
import { checkThreads, checkSyzygyOptions, SYZYGY_DEFAULTS } from "./engine-options.js";
import type { SyzygyOptions } from "./engine-options.js";
import { SearchThreads } from "./search-threads.js";
import type { SearchLimits, SearchInfo, SearchResult, CurrMove, Evaluation } from "./search-types.js";
import { networkName, readInfo, readResult, readEvaluation } from "./search-records.js";
import {
  HASH_MIN_MB, HASH_MAX_MB, MULTIPV_MAX, MULTIPV_DEFAULT, MOVE_OVERHEAD_MAX_MS, SEARCH_FEATURES_MAX, THREADS_MAX, checkInteger, checkKeys, checkLimits,
  checkBoolean, SEARCH_MODES, checkSearchMode,
} from "./validate.js";
import type { SearchMode } from "./validate.js";
import { chess960StartFen } from "./chess960.js";
import { SyzygyFiles, tableFilesFromBytes } from "./syzygy.js";
import type { SyzygyLoad, TableBytes } from "./syzygy.js";
import { probePosition } from "./tablebase-probe.js";
import type { TablebaseProbe } from "./tablebase-probe.js";
import { ELO_MIN, ELO_MAX, SKILL_MIN, SKILL_MAX, eloToSkill } from "./strength.js";

export { HASH_MIN_MB, HASH_MAX_MB, MULTIPV_MAX, MOVE_OVERHEAD_MAX_MS, THREADS_MAX };

/** Depth from which perft and divide are split into units, the positions two plies down,
 *  which the threads take in turn. */
const THREADED_PERFT_DEPTH = 4;

/** The standard start position. Also the engine's export START_FEN, restated for use before
 *  an instance exists (tests/package/constants.test.ts checks that they agree). */
export const START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/** A move in UCI notation: from and to squares and an optional promotion piece. */
const UCI_MOVE = /^[a-h][1-8][a-h][1-8][nbrqNBRQ]?$/;

/** Deepest perft the bindings accept. */
export const MAX_PERFT_DEPTH = 20;

/** What the rules say about the current position. */
export type GameStatus = "ongoing" | "checkmate" | "stalemate" | "threefold" | "fifty-moves" | "insufficient-material";

/** Options of perft and divide. */
export interface PerftOptions {
  /** Hashed perft: subtrees are counted once and looked up after that, in a table of this
   *  many megabytes (HASH_MIN_MB to HASH_MAX_MB) that lives in the transposition table's memory.
   *  The table is cleared before, and after it the search's table is back at its own size,
   *  cleared (as after ucinewgame). Default: no table (bulk counting only). */
  hashMb?: number;
}

/** Options of a Core's perft and divide, which run in the caller's thread. */
export interface CorePerftOptions extends PerftOptions {
  /** Called as the perft goes, with the units (the positions two plies below the root, from
   *  depth THREADED_PERFT_DEPTH) counted so far, their number and the leaves counted so far,
   *  between the calling thread's own units. */
  onProgress?: (finished: number, units: number, nodes: bigint) => void;
  /** Leave the table a perft table after the call (with hashMb): the next hashed perft of the
   *  same size finds its entries instead of starting from an empty table. For a process that
   *  only counts (the distributed perft's worker counts batch after batch); the search gets
   *  its own table back, cleared, when it next runs (search, bench) or on setHash, setThreads,
   *  setKeySeed. */
  retainTable?: boolean;
}

const CORE_PERFT_OPTIONS = ["hashMb", "onProgress", "retainTable"];

/** The table size of a hashed perft, or undefined for none; throws on a bad option. */
export function perftHashMb(options: PerftOptions | undefined, known = ["hashMb"]): number | undefined {
  const { hashMb } = checkKeys("perft option", options, known) as PerftOptions;
  return hashMb === undefined ? undefined : checkInteger("hashMb", hashMb, HASH_MIN_MB, HASH_MAX_MB, "megabytes");
}

function perftProgress(options: CorePerftOptions | undefined): CorePerftOptions["onProgress"] {
  const f = options?.onProgress;
  if (f !== undefined && typeof f !== "function") throw new TypeError("onProgress must be a function");
  return f;
}

function perftRetain(options: CorePerftOptions | undefined): boolean {
  const r = options?.retainTable;
  if (r !== undefined && typeof r !== "boolean") throw new TypeError("retainTable must be a boolean");
  return r === true;
}

/** One root move of a divide and the leaf count below it (a bigint: perft(12) of the start
 *  position is 6.3 × 10^16, past Number's exact integers). */
export interface DivideEntry {
  move: string;
  nodes: bigint;
}

/** What an engine instance runs (Core.info, Engine.info). */
export interface EngineInfo {
  build: EngineBuild;
  evaluation: "nnue" | "classical";
  /** The network in use: its file name (wcnn-<content hash>.nnue), input features (768 per
   *  king bucket) and hidden size. */
  network?: { name: string; inputs: number; hidden: number };
}

/** A tunable search parameter (assembly/search-params.ts). */
export interface SearchParam {
  name: string;
  value: number;
  default: number;
  min: number;
  max: number;
}

export type { EngineBuild };

/** Thrown when the engine's wasm traps; the Core that threw it must not be used again. */
export class EngineCrashError extends Error {
  constructor(cause: unknown) {
    super(`engine crashed: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = "EngineCrashError";
  }
}

/** Validates a FEN argument's type and size before it reaches the engine. */
export function checkFenArgument(fen: unknown): string {
  if (typeof fen !== "string") throw new TypeError(`FEN must be a string, got ${fen === null ? "null" : typeof fen}`);
  if (fen.length > 200) throw new Error(`FEN is too long (${fen.length} characters; a FEN has at most about 90)`);
  return fen;
}

function checkDepth(depth: unknown, max: number): number {
  return checkInteger("depth", depth, 0, max);
}

/** What the host tells a running search: the engine's exports of the same names
 *  (assembly/host.ts), restated for hooks written before an instance exists (checked by
 *  tests/package/constants.test.ts). */
export const POLL_CONTINUE = 0;
export const POLL_STOP = 1;
export const POLL_PONDERHIT = 2;

/** Callbacks a running search uses; all optional. */
export interface SearchHooks {
  /** Polled every few thousand nodes: POLL_CONTINUE, POLL_STOP or POLL_PONDERHIT. */
  poll?: () => number;
  onInfo?: (info: SearchInfo) => void;
  onCurrMove?: (current: CurrMove) => void;
}

/** One engine instance used synchronously in the current thread. */
export class Core {
  private broken: EngineCrashError | undefined;
  private multiPvLines = MULTIPV_DEFAULT;
  private hooks: SearchHooks = {};
  // What the current position was built from (and in which mode), to restore it after a
  // failed setPosition.
  private game: { fen: string; moves: string[]; chess960: boolean } = { fen: START_FEN, moves: [], chess960: false };
  // The mode of the positions set from now on (setChess960).
  private chess960Next = false;
  // Strength: Skill Level and the Elo limit (null: off).
  private skill = SKILL_MAX;
  private elo: number | null = null;
  private wasm!: EngineExports;
  private readonly wasmUrl: URL;
  // The helper threads and their shared table (undefined: one thread, the instance's own).
  private threads: SearchThreads | undefined;
  // The options an instance re-made for another thread count is given again (the hash, the
  // position, MultiPV and the strength are kept elsewhere).
  private settings: {
    moveOverhead?: number; features?: number; params: Map<number, number>; network?: Uint8Array; keySeed?: number;
    tables?: { path: string } | { bytes: TableBytes[] }; syzygy: Required<SyzygyOptions>; searchMode: SearchMode;
  } = { params: new Map(), syzygy: { ...SYZYGY_DEFAULTS }, searchMode: "alphabeta" };
  // The table files this instance reads (its hostTbRead).
  private readonly tablebases = new SyzygyFiles();

  private constructor(wasmUrl: URL) {
    this.wasmUrl = wasmUrl;
  }

  /** Instantiates a new engine with a TT of hashMb megabytes. `build` picks the network build
   *  ("nnue", the default where the host has wasm SIMD) or the "classical" one; `wasmUrl`
   *  loads another module (a slider backend variant such as build/wasmchess-rotated.wasm). */
  static async create(options: { hashMb?: number; wasmUrl?: URL; build?: EngineBuild } = {}): Promise<Core> {
    checkKeys("Core option", options, ["hashMb", "wasmUrl", "build"]);
    if (options.hashMb !== undefined) checkInteger("hashMb", options.hashMb, HASH_MIN_MB, HASH_MAX_MB, "megabytes");
    if (options.wasmUrl !== undefined && !(options.wasmUrl instanceof URL)) throw new TypeError("wasmUrl must be a URL");
    if (options.build !== undefined && options.build !== "nnue" && options.build !== "classical") {
      throw new TypeError(`build must be "nnue" or "classical", got ${JSON.stringify(options.build)}`);
    }
    const core = new Core(options.wasmUrl ?? buildUrl(options.build ?? defaultBuild()));
    core.wasm = await core.instantiate(NO_SHARED_TABLE);
    if (options.hashMb !== undefined) core.setHash(options.hashMb);
    return core;
  }

  private instantiate(table: WebAssembly.Exports): Promise<EngineExports> {
    return createInstance(
      {
        hostPoll: () => this.hooks.poll?.() ?? POLL_CONTINUE,
        hostInfo: () => this.emitInfo(),
        hostCurrMove: (m: number, n: number, d: number) => this.hooks.onCurrMove?.({ move: this.wasm.moveText(m), number: n, depth: d }),
        hostTbRead: this.tablebases.read,
      },
      this.wasmUrl,
      table,
    );
  }

  /** Searches (and perft) run on n threads (Lazy SMP: an integer from 1 to THREADS_MAX);
   *  more than one needs shared memory (a worker thread in Node; in a browser, a
   *  cross-origin-isolated page). The instance is made anew for its new table, with the
   *  position and options it had; the transposition table starts empty. */
  async setThreads(n: number): Promise<void> {
    const count = checkThreads("setThreads: n", n);
    if (count === this.threadCount()) return;
    const hashMb = this.hashMb();
    const build: EngineBuild = this.guard((w) => w.networkAvailable()) ? "nnue" : "classical";
    const threads = count > 1 ? await SearchThreads.create(count, hashMb, build, this.wasmUrl) : undefined;
    let wasm: EngineExports;
    try {
      wasm = await this.instantiate(threads ? threads.table : NO_SHARED_TABLE);
    } catch (err) {
      threads?.dispose();
      throw err;
    }
    this.threads?.dispose();
    this.threads = threads;
    this.wasm = wasm;
    this.broken = undefined;
    this.restoreState(hashMb);
  }

  /** The number of threads searches and perft run on. */
  threadCount(): number {
    return this.threads?.count ?? 1;
  }

  /** Gives a new instance (setThreads) the state the last one had. */
  private restoreState(hashMb: number): void {
    const s = this.settings;
    this.retainedPerftTable = undefined; // the new instance's table is the search's
    this.guard((w) => {
      if (this.threads) w.setThread(0, true);
      else w.setHash(hashMb);
      w.setTreeMb(hashMb);
      w.setSearchMode(SEARCH_MODES.indexOf(s.searchMode));
      w.setMultiPv(this.multiPvLines);
      if (s.moveOverhead !== undefined) w.setMoveOverhead(s.moveOverhead);
      if (s.features !== undefined) w.setSearchFeatures(s.features);
      for (const [i, v] of s.params) w.setSearchParam(i, v);
      if (s.keySeed) w.setKeySeed(BigInt(s.keySeed));
    });
    if (s.network) this.loadNetwork(s.network);
    this.applyTablebases();
    this.applyStrength();
    const { fen, moves, chess960 } = this.game;
    this.game = { fen: START_FEN, moves: [], chess960: false };
    this.setPosition(fen, moves, chess960);
    // (loadNetwork above gave the helpers the network.)
    if (this.threads) {
      if (s.features !== undefined) this.threads.setOption("searchFeatures", s.features);
      for (const [i, v] of s.params) this.threads.setOption(`param:${i}`, v);
      if (s.keySeed) this.threads.setOption("keySeed", s.keySeed);
    }
  }

  /** Test hook: makes helper thread `index` (1 and up) trap; resolves with the error it
   *  reported once it has re-created its engine with the options it had. */
  crashThreadForTesting(index: number): Promise<unknown> {
    if (!this.threads) return Promise.reject(new Error("one thread: no helper to crash"));
    return this.threads.crashForTesting(index);
  }

  /** Ends the helper threads (a Core that searched on several threads). */
  dispose(): void {
    this.threads?.dispose();
    this.threads = undefined;
    this.tablebases.close();
  }

  /** What this instance runs: its build, and the evaluation in use ("nnue" with the network's
   *  hash, inputs and hidden size, or "classical" — also in the network build while it has no network). */
  info(): EngineInfo {
    return this.guard((w) => {
      const hidden = w.networkHidden();
      const build: EngineBuild = w.networkAvailable() ? "nnue" : "classical";
      if (hidden === 0) return { build, evaluation: "classical" };
      return { build, evaluation: "nnue", network: { name: networkName(w.networkHash()), inputs: w.networkInputs(), hidden } };
    });
  }

  /** Loads a network file (see docs/nnue.md) into the network build; throws an Error naming
   *  the defect when it is not a valid network, and the network in use stays. */
  loadNetwork(bytes: Uint8Array): void {
    if (!(bytes instanceof Uint8Array)) throw new TypeError("a network file must be a Uint8Array");
    this.guard((w) => {
      if (!w.networkAvailable()) throw new Error("this is the classical build; networks need the network build (build: \"nnue\")");
      const ptr = w.networkBuffer(bytes.length);
      if (ptr === 0) throw new Error(`a network file of ${bytes.length} bytes is not possible`);
      new Uint8Array(w.memory.buffer, ptr, bytes.length).set(bytes);
      if (!w.networkLoad(bytes.length)) throw new Error(`not a valid network: ${w.networkError()}`);
    });
    this.settings.network = bytes.slice();
    this.threads?.setOption("network", this.settings.network);
  }

  /** The raw exports, for layers (search, UCI) built on this core. */
  get exports(): EngineExports {
    return this.wasm;
  }

  /** Runs fn on the instance, turning a wasm trap into an EngineCrashError. */
  guard<T>(fn: (wasm: EngineExports) => T): T {
    if (this.broken) throw this.broken;
    try {
      return fn(this.wasm);
    } catch (err) {
      if (err instanceof WebAssembly.RuntimeError) {
        this.broken = new EngineCrashError(err);
        throw this.broken;
      }
      throw err;
    }
  }

  /** True once a trap has made this instance unusable. */
  get crashed(): boolean {
    return this.broken !== undefined;
  }

  /** Sets the position from a FEN ("startpos" is accepted too) and plays the UCI moves.
   *  Throws on a bad FEN or the first illegal move; the previous position, with its move
   *  history, is then restored. `chess960` (default: the mode set by setChess960) sets the
   *  position up as Chess960: X-FEN and Shredder-FEN castling fields, castling moves read and
   *  written as king-takes-rook. */
  setPosition(fen: string = START_FEN, moves: readonly string[] = [], chess960: boolean = this.chess960Next): void {
    const text = fen === "startpos" ? START_FEN : checkFenArgument(fen);
    checkBoolean("chess960", chess960);
    const previous = this.game;
    this.guard((w) => {
      w.setChess960(chess960);
      if (w.setFen(text) !== 0) {
        const message = w.fenError();
        w.setChess960(previous.chess960);
        throw new Error(`invalid FEN: ${message}`);
      }
    });
    this.game = { fen: text, moves: [], chess960 };
    const played = this.playMoves(moves);
    if (played < moves.length) {
      const where = this.fen();
      this.guard((w) => {
        w.setChess960(previous.chess960);
        w.setFen(previous.fen);
      });
      this.game = { fen: previous.fen, moves: [], chess960: previous.chess960 };
      this.playMoves(previous.moves);
      throw new Error(`illegal move ${JSON.stringify(moves[played])} at index ${played} in position ${where}`);
    }
  }

  /** Chess960 mode for the positions set from now on (setPosition, and the start position by
   *  number with setChess960Position); the current position keeps the mode it was set in. */
  setChess960(on: boolean): void {
    this.chess960Next = checkBoolean("setChess960: on", on);
  }

  /** The mode setChess960 set (for the positions set from now on). */
  isChess960(): boolean {
    return this.chess960Next;
  }

  /** True when the current position was set up as Chess960. */
  positionIsChess960(): boolean {
    return this.game.chess960;
  }

  /** Switches Chess960 mode on and sets Chess960 start position n (0 to 959; see
   *  chess960StartFen), then plays the UCI moves (castling as king-takes-rook). */
  setChess960Position(n: number, moves: readonly string[] = []): void {
    const fen = chess960StartFen(n);
    this.setChess960(true);
    this.setPosition(fen, moves);
  }

  /** Plays one UCI move; returns false (and changes nothing) when it is not legal. */
  playMove(uci: string): boolean {
    const ok = typeof uci === "string" && uci.length <= 8 && this.guard((w) => w.playUciMove(uci));
    if (ok) this.game.moves.push(uci);
    return ok;
  }

  /** Plays a move given in SAN ("Nf3", "exd5", "O-O") or UCI ("g1f3"; a text that looks like
   *  one is read as UCI) and returns it in both notations, the SAN with check and mate signs.
   *  Throws an Error naming the move and the position when no legal move matches (illegal or
   *  malformed) or several do (ambiguous); the position is then unchanged. */
  playSanOrUci(move: string): { uci: string; san: string } {
    if (typeof move !== "string") throw new TypeError(`a move must be a string, got ${typeof move}`);
    if (move.length > 16) throw new Error(`not a move: ${JSON.stringify(move.slice(0, 20))}…`);
    const uci = UCI_MOVE.test(move);
    const [played, matches] = this.guard((w) => [w.playNotation(move, uci), uci ? 0 : w.sanToUciMatches()] as const);
    if (matches > 1) throw new Error(`ambiguous move ${JSON.stringify(move)} in ${this.fen()}: ${matches} legal moves match (name the origin file or rank)`);
    if (!played) {
      throw new Error(`${uci ? "illegal move" : "no legal move matches"} ${JSON.stringify(move)} in ${this.fen()}${uci ? "" : " (illegal or malformed)"}`);
    }
    const space = played.indexOf(" ");
    const result = { uci: played.slice(0, space), san: played.slice(space + 1) };
    this.game.moves.push(result.uci);
    return result;
  }

  /** Legal moves of the current position in UCI and SAN. */
  legalMovesWithSan(): { uci: string; san: string }[] {
    const text = this.guard((w) => w.legalMovesWithSan());
    if (!text) return [];
    const words = text.split(" ");
    const out: { uci: string; san: string }[] = [];
    for (let i = 0; i < words.length; i += 2) out.push({ uci: words[i], san: words[i + 1] });
    return out;
  }

  /** Plays UCI moves in order up to the first one that is not legal; returns how many were
   *  played (the position stays after the last of them). */
  playMoves(moves: readonly string[]): number {
    let played = 0;
    while (played < moves.length && this.playMove(moves[played])) played++;
    return played;
  }

  /** FEN of the current position. */
  fen(): string {
    return this.guard((w) => w.getFen());
  }

  /** Zobrist key of the current position. */
  key(): bigint {
    return this.guard((w) => w.positionKey());
  }

  /** True when the side to move is in check. */
  inCheck(): boolean {
    return this.guard((w) => w.sideInCheck());
  }

  /** The game state by the rules: checkmate, stalemate, threefold repetition, the 50-move
   *  rule, insufficient material, or "ongoing". Repetitions count the moves played since
   *  setPosition, as the move history holds them. */
  status(): GameStatus {
    return this.guard((w) => {
      const anyMove = w.legalMovesUci().length > 0;
      if (!anyMove) return w.sideInCheck() ? "checkmate" : "stalemate";
      if (w.repetitionCount(2)) return "threefold";
      if (w.halfmoveClock() >= 100) return "fifty-moves";
      if (w.deadDraw()) return "insufficient-material";
      return "ongoing";
    });
  }

  /** Legal moves of the current position in UCI notation. */
  legalMoves(): string[] {
    const text = this.guard((w) => w.legalMovesUci());
    return text.length ? text.split(" ") : [];
  }

  /** Leaf count of the legal move tree to depth, hashed with options.hashMb; from depth
   *  THREADED_PERFT_DEPTH split into the positions two plies down, on every thread. */
  perft(depth: number, options?: CorePerftOptions): bigint {
    checkDepth(depth, MAX_PERFT_DEPTH);
    const hashMb = perftHashMb(options, CORE_PERFT_OPTIONS);
    const onProgress = perftProgress(options);
    return this.withPerftTable(hashMb, perftRetain(options), () => {
      const hashed = hashMb !== undefined;
      if (this.splits(depth, onProgress)) return this.splitDivide(depth, hashed, onProgress).reduce((a, e) => a + e.nodes, 0n);
      return this.guard((w) => (hashed ? w.perftHashed(depth) : w.perft(depth)));
    });
  }

  /** perft(depth) of the position after each move sequence of paths (UCI moves from the
   *  current position), in the order given: the positions are the units the threads take in
   *  turn, over one table (hashMb). A distributed perft's batch is counted this way: the
   *  unique positions some plies down, each by the first path that reached it. Throws on an
   *  illegal move before counting anything. */
  perftBelow(paths: readonly (readonly string[])[], depth: number, options?: CorePerftOptions): bigint[] {
    if (!Array.isArray(paths)) throw new TypeError("paths must be an array of move arrays");
    checkInteger("depth", depth, 0, MAX_PERFT_DEPTH);
    const hashMb = perftHashMb(options, CORE_PERFT_OPTIONS);
    const onProgress = perftProgress(options);
    const units = paths.map((path, i) => {
      if (!Array.isArray(path) || path.some((m) => typeof m !== "string" || !UCI_MOVE.test(m))) {
        throw new TypeError(`paths[${i}] must be an array of UCI moves`);
      }
      this.afterMoves(path, () => undefined); // throws on an illegal move
      return path.slice();
    });
    return this.withPerftTable(hashMb, perftRetain(options), () => this.countUnits(units, depth, hashMb !== undefined, onProgress));
  }

  /** perft(depth) below each unit (moves from the current position): on every thread, or in
   *  this one, with the progress after each unit. */
  private countUnits(units: string[][], depth: number, hashed: boolean, onProgress?: CorePerftOptions["onProgress"]): bigint[] {
    const countUnit = (moves: readonly string[]) =>
      this.afterMoves(moves, () => this.guard((w) => (hashed ? w.perftHashed(depth) : w.perft(depth))));
    if (this.threads) return this.threads.perft(this.game, units, depth, hashed, countUnit, onProgress);
    let sum = 0n;
    return units.map((u, i) => {
      const c = countUnit(u);
      sum += c;
      onProgress?.(i + 1, units.length, sum);
      return c;
    });
  }

  /** While a perft with retainTable has left the table a perft table: its size, and the size
   *  the search's table gets back. */
  private retainedPerftTable: { mb: number; searchMb: number } | undefined;

  /** Runs a perft with the transposition table's memory made a perft table of hashMb MB
   *  (none: as it is), then gives the search its table back, cleared; with retain, the table
   *  stays a perft table (and is found again by the next call of the same size). */
  private withPerftTable<T>(hashMb: number | undefined, retain: boolean, count: () => T): T {
    if (hashMb === undefined) return count();
    const kept = this.retainedPerftTable;
    if (kept?.mb === hashMb) {
      if (retain) return count();
      this.retainedPerftTable = undefined;
      try {
        return count();
      } finally {
        this.setHash(kept.searchMb);
      }
    }
    const searchMb = kept?.searchMb ?? this.hashMb();
    this.setHash(hashMb); // clears it (and forgets a retained table)
    if (retain) {
      this.retainedPerftTable = { mb: hashMb, searchMb };
      return count();
    }
    try {
      return count();
    } finally {
      this.setHash(searchMb);
    }
  }

  /** The search's table back from a retained perft table (cleared), before a search. */
  private releasePerftTable(): void {
    const kept = this.retainedPerftTable;
    if (kept) this.setHash(kept.searchMb);
  }

  /** Whether a perft of this depth is split into units: on threads, or for its progress. */
  private splits(depth: number, onProgress: CorePerftOptions["onProgress"]): boolean {
    return depth >= THREADED_PERFT_DEPTH && (this.threads !== undefined || onProgress !== undefined);
  }

  /** Divide (depth >= 3) in units, the positions two plies down, each counted to depth - 2:
   *  on every thread, or in this one when the progress is wanted. */
  private splitDivide(depth: number, hashed: boolean, onProgress?: CorePerftOptions["onProgress"]): DivideEntry[] {
    const roots = this.legalMoves();
    const units: string[][] = [];
    const rootOf: number[] = [];
    roots.forEach((move, r) => {
      for (const reply of this.afterMoves([move], () => this.legalMoves())) {
        units.push([move, reply]);
        rootOf.push(r);
      }
    });
    const counts = this.countUnits(units, depth - 2, hashed, onProgress);
    const out = roots.map((move) => ({ move, nodes: 0n }));
    counts.forEach((c, i) => (out[rootOf[i]].nodes += c));
    return out;
  }

  /** f() in the position after these UCI moves, which are then taken back (the position and
   *  its history are as before, whatever f does or throws). Throws on an illegal move. */
  afterMoves<T>(moves: readonly string[], f: () => T): T {
    let played = 0;
    try {
      this.guard((w) => {
        for (const m of moves) {
          if (!w.playUciMove(m)) throw new Error(`illegal move ${JSON.stringify(m)} in ${w.getFen()}`);
          played++;
        }
      });
      return f();
    } finally {
      if (played > 0) {
        this.guard((w) => {
          for (let i = 0; i < played; i++) w.undoLastMove();
        });
      }
    }
  }

  /** Perft below each root move (depth >= 1), hashed with options.hashMb; from depth
   *  THREADED_PERFT_DEPTH on every thread. */
  divide(depth: number, options?: CorePerftOptions): DivideEntry[] {
    checkDepth(depth, MAX_PERFT_DEPTH);
    if (depth < 1) throw new RangeError("divide needs depth >= 1");
    const hashMb = perftHashMb(options, CORE_PERFT_OPTIONS);
    const onProgress = perftProgress(options);
    return this.withPerftTable(hashMb, perftRetain(options), () => this.divideNow(depth, hashMb !== undefined, onProgress));
  }

  private divideNow(depth: number, hashed: boolean, onProgress: CorePerftOptions["onProgress"]): DivideEntry[] {
    if (this.splits(depth, onProgress)) return this.splitDivide(depth, hashed, onProgress);
    return this.guard((w) => {
      if (hashed) w.divideHashed(depth);
      else w.divide(depth);
      const out: DivideEntry[] = [];
      for (let i = 0, n = w.divideLength(); i < n; i++) {
        out.push({ move: w.divideMoveUci(i), nodes: w.divideNodes(i) });
      }
      return out;
    });
  }

  /** Squares of the pieces giving check to the side to move. */
  checkers(): string[] {
    const bb = this.guard((w) => w.checkersBB());
    const names: string[] = [];
    for (let sq = 0; sq < 64; sq++) {
      if ((bb >> BigInt(sq)) & 1n) names.push(String.fromCharCode(97 + (sq & 7)) + String(1 + (sq >> 3)));
    }
    return names;
  }

  /** Test hook: makes the wasm trap, to exercise crash recovery. */
  crashForTesting(): void {
    this.guard((w) => w.trapForTesting());
  }

  /** Side to move: "w" or "b". */
  sideToMove(): "w" | "b" {
    return this.guard((w) => w.sideToMoveValue()) === 0 ? "w" : "b";
  }

  /** Resizes the transposition table to mb megabytes (an integer from HASH_MIN_MB to
   *  HASH_MAX_MB, else a RangeError); returns the size in effect. Throws when memory cannot
   *  grow that far (the old table stays). */
  setHash(mb: number): number {
    const size = checkInteger("setHash: mb", mb, HASH_MIN_MB, HASH_MAX_MB, "megabytes");
    this.retainedPerftTable = undefined;
    const ok = this.threads ? this.threads.setHash(size) : this.guard((w) => w.setHash(size));
    if (!ok) throw new Error(`cannot allocate a ${size} MB hash table; keeping ${this.hashMb()} MB`);
    this.guard((w) => w.setTreeMb(size));
    return size;
  }

  /** The search's table size (also while a retained perft table holds its memory). */
  hashMb(): number {
    if (this.retainedPerftTable) return this.retainedPerftTable.searchMb;
    return this.threads ? this.threads.hashMb() : this.guard((w) => w.hashMb());
  }

  /** Clears the transposition table (the threads' shared one too) and the MCTS tree. */
  clearHash(): void {
    this.threads?.clearHash();
    this.guard((w) => w.clearHash());
  }

  /** Draws the Zobrist keys, and the lane keys of hashed perft's second key, from another
   *  seed (an integer from 0 to 2^32 - 1; 0: the built-in keys every build has), on every
   *  thread: a perft run with two seeds checks itself, as the trusted deep perfts were
   *  checked. The position stays; the transposition table is cleared (its keys are gone). */
  setKeySeed(seed: number): void {
    checkInteger("setKeySeed: seed", seed, 0, 2 ** 32 - 1);
    this.settings.keySeed = seed;
    this.guard((w) => w.setKeySeed(BigInt(seed)));
    this.threads?.setOption("keySeed", seed);
    this.releasePerftTable();
    this.clearHash();
    const { fen, moves, chess960 } = this.game;
    this.setPosition(fen, moves, chess960); // its key again, from the new keys
  }

  /** Number of principal variations a search reports (an integer from 1 to MULTIPV_MAX). */
  setMultiPv(n: number): void {
    const lines = checkInteger("setMultiPv: n", n, 1, MULTIPV_MAX);
    this.guard((w) => w.setMultiPv(lines));
    this.multiPvLines = lines;
  }

  /** The MultiPV option in effect. */
  multiPv(): number {
    return this.multiPvLines;
  }

  /** Time kept back per move for communication delays (an integer from 0 to
   *  MOVE_OVERHEAD_MAX_MS milliseconds). */
  setMoveOverhead(ms: number): void {
    const overhead = checkInteger("setMoveOverhead: ms", ms, 0, MOVE_OVERHEAD_MAX_MS, "milliseconds");
    this.guard((w) => w.setMoveOverhead(overhead));
    this.settings.moveOverhead = overhead;
  }

  /** Syzygy tables from the directories of syzygyPath (':'-separated, ';' on Windows; "" or
   *  "<empty>" for none), read in blocks as the engine needs them, in Node only (a browser
   *  gives the files' bytes to loadTablebases). Replaces the tables loaded before; files
   *  refused (a bad name, size or header) and directories not read are in `errors`. */
  setSyzygyPath(syzygyPath: string): SyzygyLoad {
    if (typeof syzygyPath !== "string") throw new TypeError(`SyzygyPath must be a string, got ${typeof syzygyPath}`);
    const load = this.guard((w) => this.tablebases.load(w, syzygyPath));
    this.settings.tables = { path: syzygyPath };
    this.threads?.setOption("syzygyPath", syzygyPath);
    return load;
  }

  /** Syzygy tables given as bytes ({ name: "KRvK.rtbw", bytes }), in place of those loaded
   *  before. */
  loadTablebases(files: TableBytes[]): SyzygyLoad {
    const tables = tableFilesFromBytes(files);
    const load = this.guard((w) => this.tablebases.register(w, tables));
    this.settings.tables = { bytes: [...files] };
    this.threads?.setOption("syzygyBytes", [...files]);
    return load;
  }

  /** How the search uses the tables (UCI SyzygyProbeDepth, SyzygyProbeLimit, Syzygy50MoveRule);
   *  the options not given keep their values. */
  setSyzygyOptions(options: SyzygyOptions): void {
    const next = { ...this.settings.syzygy, ...checkSyzygyOptions(options) };
    this.settings.syzygy = next;
    this.guard((w) => {
      w.tbSetProbeDepth(next.probeDepth);
      w.tbSetProbeLimit(next.probeLimit);
      w.tbSetRule50(next.rule50);
    });
    this.threads?.setOption("syzygyOptions", next);
  }

  /** The tablebase options in use. */
  syzygyOptions(): Required<SyzygyOptions> {
    return { ...this.settings.syzygy };
  }

  /** Most pieces of a loaded WDL table (0: no tables). */
  tablebasePieces(): number {
    return this.guard((w) => w.tbMaxPieces());
  }

  /** What the tables say about the current position and each of its moves (lichess's
   *  tablebase API's answer); throws an Error that says why when they cannot answer. */
  probeTablebase(): TablebaseProbe {
    return this.guard((w) => probePosition(w));
  }

  /** Gives a new instance (setThreads) the tables and options the last one had. */
  private applyTablebases(): void {
    const { tables, syzygy } = this.settings;
    if (tables && "path" in tables) this.setSyzygyPath(tables.path);
    else if (tables) this.loadTablebases(tables.bytes);
    this.setSyzygyOptions(syzygy);
  }

  /** Skill Level: an integer from 0 (weakest) to 20 (full strength, the default). The
   *  engine then stops its search early and chooses among its best lines with a
   *  level-dependent error (assembly/skill.ts). setElo, when set, takes precedence. */
  setSkillLevel(level: number): void {
    this.skill = checkInteger("setSkillLevel: level", level, SKILL_MIN, SKILL_MAX);
    this.applyStrength();
  }

  /** Limits the strength to an Elo rating (an integer from ELO_MIN to ELO_MAX, on Stockfish
   *  15.1's UCI_Elo scale), or switches the limit off (null); UCI_LimitStrength + UCI_Elo. */
  setElo(elo: number | null): void {
    this.elo = elo === null ? null : checkInteger("setElo: elo", elo, ELO_MIN, ELO_MAX);
    this.applyStrength();
  }

  /** The strength in effect: the skill level set, the Elo limit (null: none), and the
   *  fractional level they make. */
  strength(): { skillLevel: number; elo: number | null; level: number } {
    return { skillLevel: this.skill, elo: this.elo, level: this.guard((w) => w.skillLevel()) };
  }

  /** Test hook: seeds the skill level's random choices (0: from the clock). */
  setSkillSeed(seed: number): void {
    const s = checkInteger("setSkillSeed: seed", seed, 0, Number.MAX_SAFE_INTEGER);
    this.guard((w) => w.setSkillSeed(BigInt(s)));
  }

  private applyStrength(): void {
    const level = this.elo !== null ? eloToSkill(this.elo) : this.skill;
    this.guard((w) => w.setSkillLevel(level));
  }

  /** Debug: the bit mask of enabled selectivity features (see assembly/search-params.ts). */
  setSearchFeatures(mask: number): void {
    const bits = checkInteger("setSearchFeatures: mask", mask, 0, SEARCH_FEATURES_MAX);
    this.guard((w) => w.setSearchFeatures(bits));
    this.settings.features = bits;
    this.threads?.setOption("searchFeatures", bits);
  }

  /** Tuning: the search's tunable parameters (assembly/search-params.ts) with their values
   *  and ranges. */
  searchParams(): SearchParam[] {
    return this.guard((w) => {
      const out: SearchParam[] = [];
      for (let i = 0; i < w.searchParamCount(); i++) {
        out.push({
          name: w.searchParamName(i), value: w.searchParamValue(i), default: w.searchParamDefault(i),
          min: w.searchParamMin(i), max: w.searchParamMax(i),
        });
      }
      return out;
    });
  }

  /** Tuning: sets the search parameter with this name (any case) to an integer within its
   *  range. Throws a RangeError for an unknown name or a value out of range. */
  setSearchParam(name: string, value: number): void {
    const params = this.searchParams();
    const i = params.findIndex((p) => p.name.toLowerCase() === String(name).toLowerCase());
    if (i < 0) throw new RangeError(`setSearchParam: no search parameter named ${JSON.stringify(String(name).slice(0, 60))}`);
    const v = checkInteger(`setSearchParam: ${params[i].name}`, value, params[i].min, params[i].max);
    this.guard((w) => w.setSearchParam(i, v));
    this.settings.params.set(i, v);
    this.threads?.setOption(`param:${i}`, v);
  }

  /** The search mode: "alphabeta" (the default) or "mcts", Monte Carlo tree search (PUCT;
   *  docs/mcts.md), which runs on one thread whatever setThreads says, keeps its tree of up
   *  to the Hash size between the moves of a game, and counts visits as nodes. */
  setSearchMode(mode: SearchMode): void {
    const i = SEARCH_MODES.indexOf(checkSearchMode("setSearchMode: mode", mode));
    this.guard((w) => w.setSearchMode(i));
    this.settings.searchMode = mode;
  }

  /** The search mode in effect. */
  searchMode(): SearchMode {
    return this.settings.searchMode;
  }

  /** Forgets the game: clears the TT, history and killers (on every thread). */
  newGame(): void {
    this.guard((w) => w.newGame());
    this.threads?.newGame();
  }

  /** Searches the current position; hooks receive info records and may stop it. Limits are
   *  checked first (see checkLimits in validate.ts): a search needs a limit or
   *  `infinite: true`, and every value must be in its range. */
  search(limits: SearchLimits, hooks: SearchHooks = {}): SearchResult {
    limits = checkLimits(limits);
    this.releasePerftTable();
    return this.guard((w) => {
      w.resetLimits();
      const white = w.sideToMoveValue() === 0;
      if (limits.depth !== undefined) w.setDepthLimit(limits.depth);
      if (limits.nodes !== undefined) w.setNodeLimit(BigInt(limits.nodes));
      if (limits.mate !== undefined) w.setMateLimit(limits.mate);
      if (limits.movetime !== undefined) w.setMoveTimeLimit(limits.movetime);
      // A clock for either side makes a timed search; a missing clock of the side to move
      // counts as no time left, as in Stockfish.
      if (limits.wtime !== undefined || limits.btime !== undefined) {
        const time = (white ? limits.wtime : limits.btime) ?? 0;
        w.setClockLimit(time, (white ? limits.winc : limits.binc) ?? 0, limits.movestogo ?? 0);
      }
      if (limits.infinite) w.setInfinite(true);
      if (limits.ponder) w.setPondering(true);
      for (const m of limits.searchmoves ?? []) {
        if (!w.addSearchMoveUci(m)) throw new Error(`searchmoves: ${JSON.stringify(m)} is not a legal move in ${w.getFen()}`);
      }
      this.hooks = hooks;
      this.lastPv = [];
      const tableErrors = w.tbTableErrorCount();
      // The Monte Carlo search runs on this thread alone.
      const helpers = this.settings.searchMode === "alphabeta" ? this.threads : undefined;
      if (helpers) helpers.startSearch(this.game, limits.depth);
      else this.threads?.startAlone();
      try {
        w.go();
      } finally {
        this.hooks = {};
        helpers?.endSearch();
      }
      const result = readResult(w, this.lastPv);
      if (w.tbTableErrorCount() !== tableErrors) result.tablebaseError = w.tbError();
      return result;
    });
  }

  private lastPv: string[] = [];

  private emitInfo(): void {
    const info = readInfo(this.wasm);
    if (info.multipv === 1 && !info.bound) this.lastPv = info.pv;
    this.hooks.onInfo?.(info);
  }

  /** The static evaluation with its term breakdown. */
  evaluate(): Evaluation {
    return this.guard((w) => readEvaluation(w));
  }

  /** Runs the bench (fixed positions, fixed depth; depth 0 = default); returns its nodes.
   *  The current position is replaced by the last bench position. */
  bench(depth = 0): { nodes: number; positions: number } {
    this.releasePerftTable();
    const result = this.guard((w) => ({ nodes: Number(w.bench(depth | 0)), positions: w.benchPositionCount() }));
    this.game = { fen: this.fen(), moves: [], chess960: this.game.chess960 };
    return result;
  }

  /** SAN of a legal UCI move in the current position. */
  toSan(uci: string): string {
    if (typeof uci !== "string") throw new TypeError(`a UCI move must be a string, got ${typeof uci}`);
    if (uci.length > 8) throw new Error(`not a UCI move: ${JSON.stringify(uci)}`);
    const san = this.guard((w) => w.uciToSan(uci));
    if (!san) throw new Error(`illegal move ${JSON.stringify(uci)} in ${this.fen()}`);
    return san;
  }

  /** FEN of the position after a legal UCI move (the current position is unchanged). */
  fenAfter(uci: string): string {
    if (typeof uci !== "string") throw new TypeError(`a UCI move must be a string, got ${typeof uci}`);
    const fen = uci.length <= 8 ? this.guard((w) => w.fenAfterMove(uci)) : "";
    if (!fen) throw new Error(`illegal move ${JSON.stringify(uci)} in ${this.fen()}`);
    return fen;
  }

  /** UCI text of the legal move a SAN names in the current position. */
  fromSan(san: string): string {
    if (typeof san !== "string") throw new TypeError(`a SAN move must be a string, got ${typeof san}`);
    if (san.length > 16) throw new Error(`not a SAN move: ${JSON.stringify(san)}`);
    const [uci, matches] = this.guard((w) => [w.sanToUci(san), w.sanToUciMatches()] as const);
    if (matches > 1) throw new Error(`ambiguous move ${JSON.stringify(san)} in ${this.fen()}: ${matches} legal moves match (name the origin file or rank)`);
    if (!uci) throw new Error(`no legal move matches ${JSON.stringify(san)} in ${this.fen()} (illegal or malformed)`);
    return uci;
  }
}
