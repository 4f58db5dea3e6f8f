// Engine: the published asynchronous API. The wasm runs in a worker (a worker thread in Node,
// a Web Worker in browsers) so that long calls never block the caller's thread. `stop` and
// `ponderhit` reach a running search through a SharedArrayBuffer when one exists; without it
// (an ordinary page without cross-origin isolation) `stop` ends the worker, answers with the
// best move reported so far, and starts a fresh worker with the same position and options.

import { CONTROL_RUN, CONTROL_STOP, CONTROL_PONDERHIT, remember } from "./protocol.js";
import type { Reply, CoreMethod, WorkerHandle, Call } from "./protocol.js";
import { spawnWorker } from "#spawn-worker";
import type { SearchLimits, SearchInfo, SearchResult, CurrMove, Evaluation } from "./search-types.js";
import type { DivideEntry, GameStatus } from "./core.js";
import { START_FEN, checkFenArgument } from "./core.js";

export interface EngineOptions {
  /** Transposition table size in MB (default 16). */
  hashMb?: number;
  /** URL of engine-worker.js (default: next to this module). */
  workerUrl?: URL;
  /** Use a SharedArrayBuffer for stop/ponderhit (default: when the environment allows it).
   *  false forces the fallback that restarts the worker on stop. */
  sharedMemory?: boolean;
}

export interface SearchHandlers {
  onInfo?: (info: SearchInfo) => void;
  onCurrMove?: (current: CurrMove) => void;
}

type Pending = {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  handlers?: SearchHandlers;
  fallback?: string;
  lastInfo?: SearchInfo;
};

const isNode = typeof process !== "undefined" && typeof process.versions?.node === "string";

/** A chess engine running in its own worker. */
export class Engine {
  private worker!: WorkerHandle;
  private readonly control?: Int32Array;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private searchId = 0;
  private searchLimits: SearchLimits = {};
  private ponderWhite = true;
  private ready!: Promise<void>;
  /** Settles when the current worker is up; calls wait for it (it is replaced after stop
   *  without shared memory, and after a worker failure). */
  private started: Promise<void> = Promise.resolve();
  private disposed = false;
  // What a replacement worker must be told to continue where the old one stopped.
  private replay: Call[] = [];

  private constructor(private readonly options: EngineOptions) {
    const available = typeof SharedArrayBuffer === "function" && (isNode || (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true);
    if (available && options.sharedMemory !== false) this.control = new Int32Array(new SharedArrayBuffer(4));
  }

  /** Starts an engine; resolves when its worker has instantiated the wasm. */
  static async create(options: EngineOptions = {}): Promise<Engine> {
    const engine = new Engine(options);
    engine.started = engine.start();
    await engine.started;
    return engine;
  }

  /** True when stop() interrupts a search in place (SharedArrayBuffer available). */
  get hasSharedStop(): boolean {
    return this.control !== undefined;
  }

  /** True while a search is running. */
  get searching(): boolean {
    return this.searchId !== 0;
  }

  private async start(): Promise<void> {
    const url = this.options.workerUrl;
    let markReady!: () => void;
    let fail!: (e: Error) => void;
    this.ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      fail = reject;
    });
    this.worker = spawnWorker(url, (m) => (m.kind === "ready" ? markReady() : this.onReply(m)), (e) => {
      fail(e);
      this.onWorkerFailure(e);
    });
    this.worker.post({ kind: "init", control: this.control?.buffer as SharedArrayBuffer | undefined, hashMb: this.options.hashMb });
    await this.ready;
    this.worker.keepAlive(this.pending.size > 0);
    for (const { method, args } of this.replay) this.worker.post({ kind: "call", id: 0, method, args });
  }

  private onReply(m: Reply): void {
    if (m.kind === "ready") return;
    const p = this.pending.get(m.id);
    if (!p) return;
    switch (m.kind) {
      case "info":
        p.lastInfo = m.info.multipv === 1 && !m.info.bound ? m.info : p.lastInfo;
        p.handlers?.onInfo?.(m.info);
        return;
      case "currmove":
        p.handlers?.onCurrMove?.(m.current);
        return;
      case "started":
        p.fallback = m.fallback;
        this.ponderWhite = m.white;
        return;
      case "result":
        this.settle(m.id);
        p.resolve(m.value);
        return;
      case "error":
        this.settle(m.id);
        p.reject(new Error(m.message));
        return;
    }
  }

  private settle(id: number): void {
    this.pending.delete(id);
    if (id === this.searchId) this.searchId = 0;
    if (this.pending.size === 0) this.worker.keepAlive(false);
  }

  private track(id: number, p: Pending): void {
    this.pending.set(id, p);
    this.worker.keepAlive(true);
  }

  private onWorkerFailure(e: Error): void {
    for (const [id, p] of this.pending) {
      this.settle(id);
      p.reject(new Error(`engine worker failed: ${e.message}`));
    }
    if (!this.disposed) this.started = this.start().catch(() => undefined);
  }

  private async call<T>(method: CoreMethod, ...args: unknown[]): Promise<T> {
    if (this.disposed) throw new Error("engine is disposed");
    await this.started;
    const id = this.nextId++;
    const value = await new Promise<T>((resolve, reject) => {
      this.track(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.post({ kind: "call", id, method, args });
    });
    this.replay = remember(this.replay, method, args);
    return value;
  }

  /** Sets the position from a FEN (or "startpos") and UCI moves; rejects on a bad FEN or
   *  illegal move, leaving the previous position. */
  setPosition(fen: string = START_FEN, moves: readonly string[] = []): Promise<void> {
    if (fen !== "startpos") checkFenArgument(fen);
    if (!Array.isArray(moves)) return Promise.reject(new TypeError("moves must be an array of UCI strings"));
    return this.call("setPosition", fen, [...moves]);
  }

  /** Plays one UCI move; resolves false (nothing changes) when it is not legal. */
  playMove(uci: string): Promise<boolean> {
    return this.call("playMove", uci);
  }

  /** Plays UCI moves in order up to the first one that is not legal; resolves with how many
   *  were played. */
  playMoves(moves: readonly string[]): Promise<number> {
    if (!Array.isArray(moves)) return Promise.reject(new TypeError("moves must be an array of UCI strings"));
    return this.call("playMoves", [...moves]);
  }

  fen(): Promise<string> {
    return this.call("fen");
  }

  /** Zobrist key of the current position. */
  key(): Promise<bigint> {
    return this.call("key");
  }

  /** Squares of the pieces giving check. */
  checkers(): Promise<string[]> {
    return this.call("checkers");
  }

  /** Test hook: makes the wasm trap; the worker recovers and this call rejects. */
  crashForTesting(): Promise<void> {
    return this.call("crashForTesting");
  }

  legalMoves(): Promise<string[]> {
    return this.call("legalMoves");
  }

  status(): Promise<GameStatus> {
    return this.call("status");
  }

  perft(depth: number): Promise<number> {
    return this.call("perft", depth);
  }

  divide(depth: number): Promise<DivideEntry[]> {
    return this.call("divide", depth);
  }

  toSan(uci: string): Promise<string> {
    return this.call("toSan", uci);
  }

  fromSan(san: string): Promise<string> {
    return this.call("fromSan", san);
  }

  evaluate(): Promise<Evaluation> {
    return this.call("evaluate");
  }

  /** Runs the bench; the position is left at the last bench position. */
  bench(depth = 0): Promise<{ nodes: number; positions: number }> {
    return this.call("bench", depth);
  }

  /** Clears the hash and the move-ordering memory (a new game). */
  newGame(): Promise<void> {
    return this.call("newGame");
  }

  /** Resizes the hash (MB, clamped to 1..2048); resolves with the size in effect. */
  setHash(mb: number): Promise<number> {
    return this.call("setHash", mb);
  }

  clearHash(): Promise<void> {
    return this.call("clearHash");
  }

  setMultiPv(n: number): Promise<void> {
    return this.call("setMultiPv", n);
  }

  setMoveOverhead(ms: number): Promise<void> {
    return this.call("setMoveOverhead", ms);
  }

  /** Debug: enables the selectivity features in the mask (see assembly/search.ts). */
  setSearchFeatures(mask: number): Promise<void> {
    return this.call("setSearchFeatures", mask);
  }

  /** Searches the current position. Rejects if a search is already running. */
  search(limits: SearchLimits = {}, handlers: SearchHandlers = {}): Promise<SearchResult> {
    if (this.disposed) return Promise.reject(new Error("engine is disposed"));
    if (this.searchId !== 0) return Promise.reject(new Error("a search is already running; stop it first"));
    const id = this.nextId++;
    this.searchId = id;
    this.searchLimits = { ...limits };
    if (this.control) Atomics.store(this.control, 0, CONTROL_RUN);
    return this.started.then(
      () =>
        new Promise<SearchResult>((resolve, reject) => {
          this.track(id, { resolve: resolve as (v: unknown) => void, reject, handlers });
          this.worker.post({ kind: "search", id, limits: { ...limits } });
        }),
    );
  }

  /** Ends the running search; its promise resolves with the best move found so far. */
  stop(): void {
    if (this.searchId === 0) return;
    if (this.control) {
      Atomics.store(this.control, 0, CONTROL_STOP);
      return;
    }
    // No shared memory: end the worker and answer from the last complete iteration.
    const id = this.searchId;
    const p = this.pending.get(id);
    if (!p) {
      // The search has not reached the worker yet: stop it once it has.
      void this.started.then(() => this.stop());
      return;
    }
    this.settle(id);
    this.worker.terminate();
    for (const [otherId, other] of this.pending) {
      this.settle(otherId);
      other.reject(new Error("engine restarted after stop"));
    }
    const info = p.lastInfo;
    const bestmove = info?.pv[0] ?? p.fallback ?? "0000";
    p.resolve({
      bestmove,
      ponder: info?.pv[1],
      score: info?.score ?? { cp: 0 },
      pv: info?.pv ?? [bestmove],
      depth: info?.depth ?? 0,
      seldepth: info?.seldepth ?? 0,
      nodes: info?.nodes ?? 0,
      nps: info?.nps ?? 0,
      timeMs: info?.timeMs ?? 0,
    } satisfies SearchResult);
    this.started = this.start().catch(() => undefined);
  }

  /** Turns a ponder search into a timed one (the opponent played the expected move). */
  ponderhit(): void {
    if (this.searchId === 0) return;
    if (this.control) {
      Atomics.store(this.control, 0, CONTROL_PONDERHIT);
      return;
    }
    // Without shared memory the running search cannot be told: give it a budget from the
    // clock of the ponder limits and stop it when the budget is spent.
    const l = this.searchLimits;
    const white = this.ponderWhite;
    const time = white ? l.wtime : l.btime;
    const inc = (white ? l.winc : l.binc) ?? 0;
    const budget = l.movetime ?? (time === undefined ? 1000 : Math.min(time / 2, time / (l.movestogo || 30) + inc * 0.75));
    const id = this.searchId;
    setTimeout(() => id === this.searchId && this.stop(), Math.max(1, budget));
  }

  /** Ends the worker. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.stop();
    this.worker.terminate();
    for (const [id, p] of this.pending) {
      this.settle(id);
      p.reject(new Error("engine is disposed"));
    }
  }
}
