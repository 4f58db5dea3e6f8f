// Engine: the published asynchronous API. The search runs in a worker (a worker thread in
// Node, a Web Worker in browsers) so that it never blocks the caller's thread. The position
// lives in the caller's thread: position calls and queries are checked and answered there at
// once by the in-thread rules instance (rules.ts), also while a search runs, and each worker
// request carries the position it needs. `stop` and `ponderhit` reach a running search
// through a SharedArrayBuffer when one exists; without it (an ordinary page without
// cross-origin isolation) `stop` ends the worker, answers with the best move reported so far,
// and starts a fresh worker with the same options.

import { CONTROL_STOP_BELOW, CONTROL_PONDERHIT, CONTROL_WORDS, remember, epochNow } from "./protocol.js";
import type { CoreMethod, Call, Request, SearchEvent, EngineInit, PositionRecord } from "./protocol.js";
import { WorkerClient } from "./worker-client.js";
import type { SearchLimits, SearchInfo, SearchResult, Evaluation } from "./search-types.js";
import type { Core, DivideEntry, GameStatus, EngineInfo, SearchParam, PerftOptions } from "./core.js";
import { defaultBuild } from "./wasm.js";
import { START_FEN, MAX_PERFT_DEPTH, checkFenArgument, perftHashMb } from "./core.js";
import { tableFilesFromBytes } from "./syzygy.js";
import type { SyzygyLoad, TableBytes } from "./syzygy.js";
import type { TablebaseProbe } from "./tablebase-probe.js";
import { chess960StartFen } from "./chess960.js";
import type { BookMove, BookInfo, BookPosition } from "./book.js";
import { EngineBook } from "./engine-book.js";
import type { LearnGame } from "./engine-book.js";
import { checkEngineOptions, checkThreads, checkSyzygyOptions, SYZYGY_DEFAULTS } from "./engine-options.js";
import type { SyzygyOptions } from "./engine-options.js";
import type { EngineOptions } from "./engine-options.js";
import { RunningSearch, checkHandlers } from "./running-search.js";
import type { SearchHandlers } from "./running-search.js";
import { ELO_MIN, ELO_MAX, SKILL_MIN, SKILL_MAX } from "./strength.js";
import { loadRules, rulesCore, rulesReady, boardFor, claimBoard, forgetBoard } from "./rules.js";
import {
  HASH_MIN_MB, HASH_MAX_MB, MULTIPV_MAX, MOVE_OVERHEAD_MAX_MS, SEARCH_FEATURES_MAX,
  LIMIT_NAMES, ENDING_LIMITS, checkInteger, checkKeys, checkLimits, checkBoolean, checkSearchMode,
} from "./validate.js";
import type { SearchMode } from "./validate.js";

export type { EngineOptions, LearnGame, SearchHandlers, SyzygyOptions, SyzygyLoad, TableBytes, TablebaseProbe };

/** A position for analyse(): a FEN (or "startpos") and the UCI moves played from it. */
export type AnalysisPosition = string | { fen?: string; moves?: readonly string[] };

/** Options of analyse(): search limits (none given: until stopped or replaced) and the
 *  number of lines to report for this analysis (default: the MultiPV option). */
export interface AnalyseOptions extends SearchLimits {
  multiPv?: number;
}

const isNode = typeof process !== "undefined" && typeof process.versions?.node === "string";
/** open(): how long the worker waits to start when no call needs it (ms). The worker's start
 *  takes the main thread about 8 ms, which the first commands (`uci`, `isready`) need. */
const WORKER_START_DELAY_MS = 50;

/** Throws when a searchmoves entry is not a legal move on the board. */
function checkSearchMoves(limits: SearchLimits, board: Core): void {
  if (!limits.searchmoves) return;
  const legal = new Set(board.legalMoves());
  const bad = limits.searchmoves.find((m) => !legal.has(m));
  if (bad !== undefined) throw new Error(`searchmoves: ${JSON.stringify(bad)} is not a legal move in ${board.fen()}`);
}

/** Runs check now: a rejected promise when it throws, run() otherwise (at once, so that the
 *  call keeps its place in the order of calls). */
function checked<T>(check: () => unknown, run: () => Promise<T>): Promise<T> {
  try {
    check();
  } catch (err) {
    return Promise.reject(err);
  }
  return run();
}

/** Runs fn now and turns its value or exception into a settled promise. */
function settled<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (err) {
    return Promise.reject(err);
  }
}

/** A chess engine: the search in its own worker, the position in the caller's thread. */
export class Engine {
  /** The worker's client: it replaces the worker after stop without shared memory, and after
   *  a worker failure, telling the new one the option calls in `replay`. */
  private readonly worker: WorkerClient<EngineInit, Request, SearchEvent>;
  private readonly control?: Int32Array;
  private running: RunningSearch | undefined;
  private disposed = false;
  // Option calls a replacement worker must be told.
  private replay: Call[] = [];
  // The position: a FEN and the moves played from it.
  private position: PositionRecord = { fen: START_FEN, moves: [], chess960: false };
  // Chess960 mode for the positions set from now on.
  private chess960: boolean;
  // The opening book (in this thread, where the position is).
  private readonly book: EngineBook;
  // True when the worker evaluates other than the rules instance (another build or network).
  private ownEvaluation: boolean;
  // Search threads, as set (setThreads).
  private threadCount = 1;
  // The tablebase options, as set (setSyzygyOptions sends them whole).
  private syzygy: Required<SyzygyOptions> = { ...SYZYGY_DEFAULTS };

  private constructor(private readonly options: EngineOptions) {
    this.ownEvaluation = options.wasmUrl !== undefined || (options.build !== undefined && options.build !== defaultBuild());
    this.chess960 = options.chess960 ?? false;
    this.book = new EngineBook(options.ownBook ?? false, options.bookSeed ?? Math.floor(Math.random() * 2 ** 32));
    const available = typeof SharedArrayBuffer === "function" && (isNode || (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true);
    if (available && options.sharedMemory !== false) this.control = new Int32Array(new SharedArrayBuffer(4 * CONTROL_WORDS));
    this.worker = new WorkerClient({
      url: options.workerUrl,
      init: { control: this.control?.buffer as SharedArrayBuffer | undefined, hashMb: options.hashMb, build: options.build, wasmUrl: options.wasmUrl?.href },
      setup: () => this.replay.map(({ method, args }): Request => ({ kind: "call", method, args })),
      name: "engine worker",
    });
  }

  /** Starts an engine; resolves when its worker has instantiated the wasm and the in-thread
   *  rules instance is loaded. Throws a TypeError/RangeError on a bad option. */
  static async create(options: EngineOptions = {}): Promise<Engine> {
    checkEngineOptions(options);
    const engine = new Engine(options);
    await Promise.all([engine.worker.start(), loadRules()]);
    await Promise.all(engine.strengthCalls());
    return engine;
  }

  /** Starts an engine like create(), but resolves as soon as the in-thread rules instance is
   *  loaded. The worker starts at the first call that needs it, or after WORKER_START_DELAY_MS
   *  (so that its start does not compete with the first commands); those calls wait for it, in
   *  order. Position calls and queries, evaluate() and info() (without loadNetwork or another
   *  build than the default) answer at once. A worker that cannot start makes those calls
   *  reject. The UCI CLI starts this way, to answer `uci` and `isready` before the worker. */
  static async open(options: EngineOptions = {}): Promise<Engine> {
    checkEngineOptions(options);
    const engine = new Engine(options);
    engine.worker.startLater(WORKER_START_DELAY_MS).catch(() => undefined);
    // Queued before any later call; a failure shows in the calls that follow.
    for (const call of engine.strengthCalls()) call.catch(() => undefined);
    await loadRules();
    return engine;
  }

  /** The calls that set the options given to create() or open() beyond the worker's start-up
   *  data: the strength, the threads and the tables. */
  private strengthCalls(): Promise<void>[] {
    const calls: Promise<void>[] = [];
    if (this.options.threads !== undefined && this.options.threads > 1) calls.push(this.setThreads(this.options.threads));
    if (this.options.skillLevel !== undefined) calls.push(this.setSkillLevel(this.options.skillLevel));
    if (this.options.elo !== undefined) calls.push(this.setElo(this.options.elo));
    if (this.options.syzygyPath !== undefined) calls.push(this.setSyzygyPath(this.options.syzygyPath).then(() => undefined));
    if (this.options.searchMode !== undefined) calls.push(this.setSearchMode(this.options.searchMode));
    return calls;
  }

  /** True when stop() interrupts a search in place (SharedArrayBuffer available). */
  get hasSharedStop(): boolean {
    return this.control !== undefined;
  }

  /** True while a search is running. */
  get searching(): boolean {
    return this.running !== undefined;
  }

  /** Starts the worker now if open() deferred its start (the UCI CLI calls it after its first
   *  `readyok`, before the GUI's first `go`). */
  startWorker(): void {
    this.worker.startNow();
  }

  /** A copy of the position, for a request. */
  private snapshot(): PositionRecord {
    return { fen: this.position.fen, moves: [...this.position.moves], chess960: this.position.chess960 };
  }

  /** The rules instance set to this engine's position. */
  private board(): Core {
    return boardFor(this, (c) => c.setPosition(this.position.fen, this.position.moves, this.position.chess960));
  }

  /** Answers from the caller's thread, at once (after re-creating the rules instance if a
   *  wasm trap broke it). */
  private local<T>(fn: (board: Core) => T): Promise<T> {
    if (this.disposed) return Promise.reject(new Error("engine is disposed"));
    if (!rulesReady()) return loadRules().then(() => fn(this.board()));
    return settled(() => fn(this.board()));
  }

  /** Runs a Core method in the worker, after every request made before it; withPosition
   *  true sends the engine's position along, a record sends that one. */
  private call<T>(method: CoreMethod, args: unknown[], withPosition: boolean | PositionRecord = false): Promise<T> {
    if (this.disposed) return Promise.reject(new Error("engine is disposed"));
    const position = withPosition === true ? this.snapshot() : withPosition === false ? undefined : withPosition;
    const request: Request = { kind: "call", method, args, position };
    return new Promise<T>((resolve, reject) => {
      const done = (value: unknown) => {
        this.replay = remember(this.replay, method, args);
        resolve(value as T);
      };
      this.worker.send(request, { resolve: done, reject });
    });
  }

  // ------------------------------------------------------------------ the position

  /** Sets the position from a FEN (or "startpos") and UCI moves. Checked in this thread:
   *  rejects on a bad FEN or illegal move and keeps the previous position. */
  setPosition(fen: string = START_FEN, moves: readonly string[] = []): Promise<void> {
    if (this.disposed) return Promise.reject(new Error("engine is disposed"));
    const set = () => {
      this.position = this.checkPosition(fen, moves);
      claimBoard(this);
    };
    if (!rulesReady()) return loadRules().then(set);
    return settled(set);
  }

  /** Checks a position on the rules instance (which then holds it) and returns its record. */
  private checkPosition(fen: unknown, moves: unknown): PositionRecord {
    const text = fen === "startpos" ? START_FEN : checkFenArgument(fen);
    if (!Array.isArray(moves)) throw new TypeError("moves must be an array of UCI strings");
    rulesCore().setPosition(text, moves, this.chess960);
    return { fen: text, moves: [...moves], chess960: this.chess960 };
  }

  /** Chess960 mode for the positions set from now on (setPosition, analyse,
   *  setChess960Position): castling fields in X-FEN or Shredder-FEN, castling moves read and
   *  written in UCI as king-takes-rook (e1h1; SAN stays O-O). The current position keeps the
   *  mode it was set in. */
  setChess960(on: boolean): Promise<void> {
    return settled(() => {
      this.chess960 = checkBoolean("setChess960: on", on);
    });
  }

  /** Switches Chess960 mode on and sets Chess960 start position n (an integer from 0 to 959;
   *  518 is the standard start) with the UCI moves played from it. */
  setChess960Position(n: number, moves: readonly string[] = []): Promise<void> {
    let fen: string;
    try {
      fen = chess960StartFen(n);
    } catch (err) {
      return Promise.reject(err);
    }
    this.chess960 = true;
    return this.setPosition(fen, moves);
  }

  /** Plays one UCI move; resolves false (nothing changes) when it is not legal. */
  playMove(uci: string): Promise<boolean> {
    return this.local((board) => {
      const ok = board.playMove(uci);
      if (ok) this.position.moves.push(uci);
      return ok;
    });
  }

  /** Plays UCI moves in order up to the first one that is not legal; resolves with how many
   *  were played. */
  playMoves(moves: readonly string[]): Promise<number> {
    if (!Array.isArray(moves)) return Promise.reject(new TypeError("moves must be an array of UCI strings"));
    return this.local((board) => {
      const played = board.playMoves(moves);
      this.position.moves.push(...moves.slice(0, played));
      return played;
    });
  }

  /** FEN of the current position. */
  fen(): Promise<string> {
    return this.local((b) => b.fen());
  }

  /** Zobrist key of the current position. */
  key(): Promise<bigint> {
    return this.local((b) => b.key());
  }

  /** Squares of the pieces giving check. */
  checkers(): Promise<string[]> {
    return this.local((b) => b.checkers());
  }

  /** Legal moves in UCI notation. */
  legalMoves(): Promise<string[]> {
    return this.local((b) => b.legalMoves());
  }

  /** Checkmate, stalemate, a draw by rule, or "ongoing" (repetitions count the moves given
   *  since the last setPosition). */
  status(): Promise<GameStatus> {
    return this.local((b) => b.status());
  }

  /** SAN of a legal UCI move. */
  toSan(uci: string): Promise<string> {
    return this.local((b) => b.toSan(uci));
  }

  /** UCI text of the legal move a SAN names. */
  fromSan(san: string): Promise<string> {
    return this.local((b) => b.fromSan(san));
  }

  /** The static evaluation with its term breakdown (none for the network's evaluation).
   *  Answered at once from the caller's thread while this engine evaluates as the in-thread
   *  rules instance does (the default build and network); after loadNetwork, or with a
   *  build other than the default, it is the worker's (after any running search). */
  evaluate(): Promise<Evaluation> {
    if (this.ownEvaluation) return this.call<Evaluation>("evaluate", [], true);
    return this.local((b) => b.evaluate());
  }

  /** What this engine runs: its build and evaluation, and the network's name and size.
   *  Answered by the in-thread rules instance while the worker runs the same build and
   *  network (no loadNetwork, the default build). */
  info(): Promise<EngineInfo> {
    if (this.ownEvaluation) return this.call<EngineInfo>("info", []);
    return this.local((b) => b.info());
  }

  /** Loads a network file (docs/nnue.md) into the worker's engine (network build); rejects
   *  with an Error naming the defect when the file is not a valid network, and the network
   *  in use stays. The network stays through worker restarts. */
  loadNetwork(bytes: Uint8Array): Promise<void> {
    if (!(bytes instanceof Uint8Array)) return Promise.reject(new TypeError("a network file must be a Uint8Array"));
    // From now on evaluate() and info() ask the worker, after this call (also if it fails:
    // the worker's answer is right either way).
    this.ownEvaluation = true;
    return this.call<void>("loadNetwork", [bytes]);
  }

  // ------------------------------------------------------------------ tablebases

  /** Syzygy tables (docs/tablebases.md) from the directories of syzygyPath (':'-separated,
   *  ';' on Windows; "" for none), read in blocks as the search needs them: Node only (in a
   *  browser, give the files' bytes to loadTablebases). Replaces the tables loaded before and
   *  resolves with what was found: the files registered, the most pieces of a table, and the
   *  files refused (each with its reason). */
  setSyzygyPath(syzygyPath: string): Promise<SyzygyLoad> {
    if (typeof syzygyPath !== "string") return Promise.reject(new TypeError(`syzygyPath must be a string, got ${typeof syzygyPath}`));
    return this.call<SyzygyLoad>("setSyzygyPath", [syzygyPath]);
  }

  /** Syzygy tables given as bytes ({ name: "KRvK.rtbw", bytes: Uint8Array | ArrayBuffer }):
   *  a page fetches them (the app ships the 3-4-piece set). Replaces the tables loaded before. */
  loadTablebases(files: TableBytes[]): Promise<SyzygyLoad> {
    return checked(() => tableFilesFromBytes(files), () => this.call<SyzygyLoad>("loadTablebases", [files]));
  }

  /** How the search uses the tables (UCI SyzygyProbeDepth, SyzygyProbeLimit,
   *  Syzygy50MoveRule); the options not given keep their values. */
  setSyzygyOptions(options: SyzygyOptions): Promise<void> {
    let given: SyzygyOptions = {};
    return checked(() => (given = checkSyzygyOptions(options)), () => {
      const next = { ...this.syzygy, ...given };
      return this.call<void>("setSyzygyOptions", [next]).then(() => {
        this.syzygy = next;
      });
    });
  }

  /** What the tables say about a position (a FEN; default: the engine's position), as
   *  lichess's tablebase API answers: its category (win, cursed-win, draw, blessed-loss,
   *  loss) and DTZ, and every legal move in UCI and SAN with the category and DTZ of the
   *  position it leads to, best first. Rejects with an Error that says why when the tables
   *  cannot answer (castling rights, more pieces than the tables loaded, a table missing).
   *  Runs in the worker, after a running search. */
  probe(fen?: string): Promise<TablebaseProbe> {
    if (fen === undefined) return this.call<TablebaseProbe>("probeTablebase", [], true);
    return checked(() => {
      const text = checkFenArgument(fen);
      rulesCore().setPosition(text, [], false);
      forgetBoard();
    }, () => this.call<TablebaseProbe>("probeTablebase", [], { fen, moves: [], chess960: false }));
  }

  // ------------------------------------------------------------------ worker calls

  /** Leaf count (a bigint) of the legal move tree to depth (an integer from 0 to 20), in the worker, on
   *  the engine's threads from depth 4; hashed with `{ hashMb }` (see PerftOptions). */
  perft(depth: number, options?: PerftOptions): Promise<bigint> {
    return checked(() => (checkInteger("depth", depth, 0, MAX_PERFT_DEPTH), perftHashMb(options)),
      () => this.call<bigint>("perft", options === undefined ? [depth] : [depth, { ...options }], true));
  }

  /** Perft below each root move (depth from 1 to 20), in the worker; hashed with `{ hashMb }`. */
  divide(depth: number, options?: PerftOptions): Promise<DivideEntry[]> {
    return checked(() => (checkInteger("depth", depth, 1, MAX_PERFT_DEPTH), perftHashMb(options)),
      () => this.call<DivideEntry[]>("divide", options === undefined ? [depth] : [depth, { ...options }], true));
  }

  /** Test hook: makes the wasm trap; the worker recovers and this call rejects. */
  crashForTesting(): Promise<void> {
    return this.call("crashForTesting", []);
  }

  /** Runs the bench (depth 0: its default) in the worker; the position is kept. */
  bench(depth = 0): Promise<{ nodes: number; positions: number }> {
    return checked(() => checkInteger("depth", depth, 0, 64), () => this.call("bench", [depth], true));
  }

  /** Clears the hash and the move-ordering memory (a new game). */
  newGame(): Promise<void> {
    return this.call("newGame", []);
  }

  /** Searches (and perft from depth 4) run on n threads: Lazy SMP, an integer from 1 to 256.
   *  More than one needs shared memory: always in Node, in a browser only in a
   *  cross-origin-isolated page (elsewhere this rejects with an Error that says so, and the
   *  engine stays on one thread). The hash is kept in size, its entries are not. */
  setThreads(n: number): Promise<void> {
    return checked(() => checkThreads("setThreads: n", n), async () => {
      await this.call<void>("setThreads", [n]);
      this.threadCount = n;
    });
  }

  /** The number of threads searches run on. */
  get threads(): number {
    return this.threadCount;
  }

  /** Resizes the hash to mb megabytes (an integer from 1 to 2048); resolves with the size. */
  setHash(mb: number): Promise<number> {
    return checked(() => checkInteger("setHash: mb", mb, HASH_MIN_MB, HASH_MAX_MB, "megabytes"), () => this.call<number>("setHash", [mb]));
  }

  clearHash(): Promise<void> {
    return this.call("clearHash", []);
  }

  /** Lines a search reports (an integer from 1 to 256). */
  setMultiPv(n: number): Promise<void> {
    return checked(() => checkInteger("setMultiPv: n", n, 1, MULTIPV_MAX), () => this.call<void>("setMultiPv", [n]));
  }

  /** The search mode: "alphabeta" (the default) or "mcts", Monte Carlo tree search (PUCT over
   *  the evaluation's win probabilities; docs/mcts.md). MCTS searches on one thread whatever
   *  setThreads says, keeps its tree (at most Hash megabytes) between the moves of a game,
   *  reports visits as nodes, and plays at full strength (the skill level and the tablebases
   *  are the alpha-beta search's). */
  setSearchMode(mode: SearchMode): Promise<void> {
    return checked(() => checkSearchMode("setSearchMode: mode", mode), () => this.call<void>("setSearchMode", [mode]));
  }

  /** Time kept back per move (an integer from 0 to 5000 milliseconds). */
  setMoveOverhead(ms: number): Promise<void> {
    return checked(() => checkInteger("setMoveOverhead: ms", ms, 0, MOVE_OVERHEAD_MAX_MS, "milliseconds"), () => this.call<void>("setMoveOverhead", [ms]));
  }

  /** Skill Level: an integer from 0 (weakest) to 20 (full strength, the default). The
   *  engine stops its search early and chooses among its best lines with an error that grows
   *  as the level falls: plausible mistakes, not random moves. setElo, when set, wins. */
  setSkillLevel(level: number): Promise<void> {
    return checked(() => checkInteger("setSkillLevel: level", level, SKILL_MIN, SKILL_MAX), () => this.call<void>("setSkillLevel", [level]));
  }

  /** Plays at an Elo rating (an integer from 1000 to 2100, Stockfish 15.1's UCI_Elo scale; the
   *  README's table has the measurements), or at the skill level again (null). */
  setElo(elo: number | null): Promise<void> {
    return checked(() => elo === null || checkInteger("setElo: elo", elo, ELO_MIN, ELO_MAX), () => this.call<void>("setElo", [elo]));
  }

  /** The strength in effect: `{ skillLevel, elo, level }` (level: the fractional skill level
   *  the Elo limit or the skill level makes; 20 is full strength). */
  strength(): Promise<{ skillLevel: number; elo: number | null; level: number }> {
    return this.call("strength", []);
  }

  /** Debug: enables the selectivity features in the mask (see assembly/search.ts). */
  setSearchFeatures(mask: number): Promise<void> {
    return checked(() => checkInteger("setSearchFeatures: mask", mask, 0, SEARCH_FEATURES_MAX), () => this.call<void>("setSearchFeatures", [mask]));
  }

  /** Tuning: the search's tunable parameters with their values and ranges (the worker's). */
  searchParams(): Promise<SearchParam[]> {
    return this.call<SearchParam[]>("searchParams", []);
  }

  /** Tuning: sets a search parameter by name (see searchParams) to an integer within its range;
   *  rejects with an Error naming the problem. The value stays through worker restarts. */
  setSearchParam(name: string, value: number): Promise<void> {
    return this.call<void>("setSearchParam", [name, value]);
  }

  // ------------------------------------------------------------------ searches

  /** Searches the current position. The limits must end the search (depth, nodes, mate,
   *  movetime, a clock) unless `infinite: true`; a bad limit rejects with a TypeError or
   *  RangeError. Rejects if a search is already running (see analyse()). */
  search(limits: SearchLimits, handlers: SearchHandlers = {}): Promise<SearchResult> {
    if (this.disposed) return Promise.reject(new Error("engine is disposed"));
    if (this.running) return Promise.reject(new Error("a search is already running; stop it first (or use analyse())"));
    let checked: SearchLimits;
    try {
      checked = checkLimits(limits);
      checkSearchMoves(checked, this.board());
      handlers = checkHandlers(handlers);
    } catch (err) {
      return Promise.reject(err);
    }
    const fromBook = this.book.answer(checked, () => this.bookPosition(this.board()));
    if (fromBook) return Promise.resolve(fromBook);
    return this.startSearch(checked, handlers);
  }

  // ------------------------------------------------------------------ the opening book

  /** Loads an opening book file: a Polyglot .bin or an evolutionary book (docs/books.md),
   *  told apart by its header. Rejects with a BookError naming the defect (empty, truncated,
   *  unsorted, corrupt), and the book in use (if any) stays. */
  loadBook(bytes: Uint8Array): Promise<BookInfo> {
    return settled(() => this.book.load(bytes));
  }

  /** Starts an empty evolutionary book, to learn from the games given to learn(). */
  newEvolutionaryBook(): Promise<BookInfo> {
    return Promise.resolve(this.book.startEvolutionary());
  }

  /** Puts the book away (the engine searches every move). */
  unloadBook(): Promise<void> {
    this.book.unload();
    return Promise.resolve();
  }

  /** The book in use, if any. */
  bookInfo(): Promise<BookInfo | undefined> {
    return Promise.resolve(this.book.info());
  }

  /** Play book moves when the book has some for the position (UCI OwnBook). */
  setOwnBook(on: boolean): Promise<void> {
    return settled(() => this.book.setOwnBook(on));
  }

  /** The book's moves for the current position with the chance of each (empty without a
   *  book or when the position is not in it). */
  bookMoves(): Promise<BookMove[]> {
    return this.local((board) => this.book.moves(() => this.bookPosition(board)));
  }

  /** The evolutionary book learns from a finished game: the positions after its first 30
   *  moves count it and put its result first in their history. Resolves with the number of
   *  positions updated; rejects without an evolutionary book, for a game without a result, or
   *  for an illegal move. */
  learn(game: LearnGame): Promise<number> {
    return this.local((board) => this.book.learn(game, board));
  }

  /** The evolutionary book as a file (docs/books.md), to keep what it learnt. */
  saveBook(): Promise<Uint8Array> {
    return settled(() => this.book.save());
  }

  private bookPosition(board: Core): BookPosition {
    return { fen: board.fen(), chess960: this.position.chess960, legalMoves: board.legalMoves(), fenAfter: (uci) => board.fenAfter(uci) };
  }

  /** For an analysis board: stops whatever search runs (its promise resolves with its best
   *  move so far, and its onInfo is not called again), sets the position and starts a new
   *  search on it, by default until stop() or the next analyse(). A bad position or option
   *  rejects and leaves the running search and the position as they were. */
  analyse(position: AnalysisPosition = "startpos", options: AnalyseOptions = {}, onInfo?: (info: SearchInfo) => void): Promise<SearchResult> {
    if (this.disposed) return Promise.reject(new Error("engine is disposed"));
    if (!rulesReady()) return loadRules().then(() => this.analyse(position, options, onInfo));
    let limits: SearchLimits;
    let multiPv: number | undefined;
    let next: PositionRecord;
    try {
      const { multiPv: lines, ...rest } = checkKeys("analyse option", options, [...LIMIT_NAMES, "multiPv"]) as AnalyseOptions;
      if (lines !== undefined) multiPv = checkInteger("multiPv", lines, 1, MULTIPV_MAX);
      const ending = ENDING_LIMITS.some((k) => rest[k] !== undefined);
      limits = checkLimits(ending || rest.infinite !== undefined ? rest : { ...rest, infinite: true });
      if (onInfo !== undefined && typeof onInfo !== "function") throw new TypeError("onInfo must be a function");
      if (typeof position !== "string" && (position === null || typeof position !== "object")) throw new TypeError("position must be a FEN or { fen, moves }");
      const fen = typeof position === "string" ? position : (position.fen ?? START_FEN);
      const moves = typeof position === "string" ? [] : (position.moves ?? []);
      next = this.checkPosition(fen, moves);
    } catch (err) {
      return Promise.reject(err);
    }
    try {
      checkSearchMoves(limits, rulesCore()); // the rules board holds the new position
    } catch (err) {
      forgetBoard();
      return Promise.reject(err);
    }
    claimBoard(this);
    this.position = next;
    if (this.running) this.running.handlers = undefined;
    this.stop();
    return this.startSearch(limits, { onInfo }, multiPv);
  }

  private startSearch(limits: SearchLimits, handlers: SearchHandlers, multiPv?: number): Promise<SearchResult> {
    const board = this.board();
    const white = board.sideToMove() === "w";
    const fallback = board.legalMoves()[0] ?? "0000";
    const request: Request = { kind: "search", limits, position: this.snapshot(), multiPv, sentAt: epochNow() };
    return new Promise<SearchResult>((resolve, reject) => {
      const search = new RunningSearch(handlers, limits, white, fallback, resolve);
      this.running = search;
      const done = () => {
        if (this.running === search) this.running = undefined;
      };
      search.id = this.worker.send(request, {
        resolve: (value) => (done(), resolve(value as SearchResult)),
        reject: (err) => (done(), reject(err)),
        onEvent: (event) => search.onEvent(event),
      });
    });
  }

  /** Ends the running search; its promise resolves with the best move found so far. */
  stop(): void {
    const search = this.running;
    if (!search) return;
    if (this.control) {
      Atomics.store(this.control, CONTROL_STOP_BELOW, search.id + 1);
      return;
    }
    // No shared memory: end the worker, answer from the last complete iteration, and send
    // the requests still waiting to a fresh worker.
    this.running = undefined;
    this.worker.cancel(search.id);
    this.worker.restart();
    search.resolve(search.bestSoFar());
  }

  /** Turns a ponder search into a timed one (the opponent played the expected move). */
  ponderhit(): void {
    const search = this.running;
    if (!search) return;
    if (this.control) {
      Atomics.store(this.control, CONTROL_PONDERHIT, search.id);
      return;
    }
    // Without shared memory the running search cannot be told: stop it when the budget from
    // the clock of its ponder limits is spent.
    setTimeout(() => search === this.running && this.stop(), Math.max(1, search.ponderBudgetMs()));
  }

  /** Ends the worker. A running search resolves with its best move so far; other pending
   *  calls reject. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const search = this.running;
    this.running = undefined;
    if (search) this.worker.cancel(search.id);
    this.worker.dispose(new Error("engine is disposed"));
    if (search) search.resolve(search.bestSoFar());
  }
}
