// A synchronous, validated wrapper around one engine instance: positions, move lists,
// notation and perft. Bad input throws an Error that names the problem.

import { createInstance, EngineExports } from "./wasm.js";
import type { SearchLimits, SearchInfo, SearchResult, Score, CurrMove, Evaluation } from "./search-types.js";

export const START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/** Deepest perft the bindings accept. */
export const MAX_PERFT_DEPTH = 20;

/** What the rules say about the current position. */
export type GameStatus = "ongoing" | "checkmate" | "stalemate" | "threefold" | "fifty-moves" | "insufficient-material";

/** One root move of a divide and the leaf count below it. */
export interface DivideEntry {
  move: string;
  nodes: number;
}

/** Thrown when the engine's wasm traps; the Core that threw it must not be used again. */
export class EngineCrashError extends Error {
  constructor(cause: unknown) {
    super(`engine crashed: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = "EngineCrashError";
  }
}

function toSafeNumber(n: bigint): number {
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`count ${n} exceeds Number.MAX_SAFE_INTEGER`);
  return Number(n);
}

/** Validates a FEN argument's type and size before it reaches the engine. */
export function checkFenArgument(fen: unknown): string {
  if (typeof fen !== "string") throw new TypeError("FEN must be a string");
  if (fen.length > 200) throw new Error(`FEN is too long (${fen.length} characters; a FEN has at most about 90)`);
  return fen;
}

/** A non-negative integer argument for an i32 parameter: NaN gives 0, huge values saturate. */
function toI32(v: number): number {
  return Math.min(Math.max(Math.floor(v), 0), 0x7fffffff) || 0;
}

function checkDepth(depth: unknown, max: number): number {
  if (typeof depth !== "number" || !Number.isInteger(depth) || depth < 0 || depth > max) {
    throw new RangeError(`depth must be an integer from 0 to ${max}, got ${String(depth)}`);
  }
  return depth;
}

/** What the host tells a running search, as assembly/host.ts numbers it. */
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

const VALUE_MATE = 32000;
const MATE_BOUND = VALUE_MATE - 128;

/** Converts an internal score to centipawns or moves to mate. */
export function toScore(v: number): Score {
  if (v >= MATE_BOUND) return { mate: Math.floor((VALUE_MATE - v + 1) / 2) };
  if (v <= -MATE_BOUND) return { mate: -Math.floor((VALUE_MATE + v) / 2) };
  return { cp: v };
}

/** UCI options the core understands, with their ranges. */
export const HASH_MIN_MB = 1;
export const HASH_MAX_MB = 2048;
export const MULTIPV_MAX = 256;
export const MOVE_OVERHEAD_MAX_MS = 5000;

const TERM_NAMES = ["Material", "Pawns", "Passed", "Mobility", "Pieces", "King safety", "Tempo", "Threats"];

/** One engine instance used synchronously in the current thread. */
export class Core {
  private broken: EngineCrashError | undefined;
  private hooks: SearchHooks = {};
  // What the current position was built from, to restore it after a failed setPosition.
  private game: { fen: string; moves: string[] } = { fen: START_FEN, moves: [] };
  private wasm!: EngineExports;

  private constructor() {}

  /** Instantiates a new engine with a TT of hashMb megabytes; `wasmUrl` picks another build
   *  of the engine (a slider backend variant such as build/wasmchess-rotated.wasm). */
  static async create(options: { hashMb?: number; wasmUrl?: URL } = {}): Promise<Core> {
    const core = new Core();
    core.wasm = await createInstance(
      {
        hostPoll: () => core.hooks.poll?.() ?? POLL_CONTINUE,
        hostInfo: () => core.emitInfo(),
        hostCurrMove: (m: number, n: number, d: number) => core.hooks.onCurrMove?.({ move: core.wasm.moveText(m), number: n, depth: d }),
      },
      options.wasmUrl,
    );
    if (options.hashMb !== undefined) core.setHash(options.hashMb);
    return core;
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
   *  history, is then restored. */
  setPosition(fen: string = START_FEN, moves: readonly string[] = []): void {
    const text = fen === "startpos" ? START_FEN : checkFenArgument(fen);
    this.guard((w) => {
      if (w.setFen(text) !== 0) throw new Error(`invalid FEN: ${w.fenError()}`);
    });
    const previous = this.game;
    this.game = { fen: text, moves: [] };
    const played = this.playMoves(moves);
    if (played < moves.length) {
      const where = this.fen();
      this.guard((w) => w.setFen(previous.fen));
      this.game = { fen: previous.fen, moves: [] };
      this.playMoves(previous.moves);
      throw new Error(`illegal move ${JSON.stringify(moves[played])} at index ${played} in position ${where}`);
    }
  }

  /** Plays one UCI move; returns false (and changes nothing) when it is not legal. */
  playMove(uci: string): boolean {
    const ok = typeof uci === "string" && uci.length <= 8 && this.guard((w) => w.playUciMove(uci));
    if (ok) this.game.moves.push(uci);
    return ok;
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

  /** Leaf count of the legal move tree to depth. */
  perft(depth: number): number {
    checkDepth(depth, MAX_PERFT_DEPTH);
    return toSafeNumber(this.guard((w) => w.perft(depth)));
  }

  /** Perft below each root move (depth >= 1). */
  divide(depth: number): DivideEntry[] {
    checkDepth(depth, MAX_PERFT_DEPTH);
    if (depth < 1) throw new RangeError("divide needs depth >= 1");
    return this.guard((w) => {
      w.divide(depth);
      const out: DivideEntry[] = [];
      for (let i = 0, n = w.divideLength(); i < n; i++) {
        out.push({ move: w.divideMoveUci(i), nodes: toSafeNumber(w.divideNodes(i)) });
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

  /** Resizes the transposition table (clamped to HASH_MIN_MB..HASH_MAX_MB); returns the size
   *  in effect. Throws when memory cannot grow that far (the old table stays). */
  setHash(mb: number): number {
    const size = Math.min(Math.max(Math.round(mb), HASH_MIN_MB), HASH_MAX_MB);
    if (!this.guard((w) => w.optionHash(size))) throw new Error(`cannot allocate a ${size} MB hash table; keeping ${this.hashMb()} MB`);
    return size;
  }

  hashMb(): number {
    return this.guard((w) => w.hashMb());
  }

  clearHash(): void {
    this.guard((w) => w.clearHash());
  }

  setMultiPv(n: number): void {
    this.guard((w) => w.optionMultiPv(Math.min(Math.max(Math.round(n), 1), MULTIPV_MAX)));
  }

  setMoveOverhead(ms: number): void {
    this.guard((w) => w.optionMoveOverhead(Math.min(Math.max(Math.round(ms), 0), MOVE_OVERHEAD_MAX_MS)));
  }

  /** Debug: the bit mask of enabled selectivity features (see assembly/search.ts). */
  setSearchFeatures(mask: number): void {
    this.guard((w) => w.optionSearchFeatures(mask | 0));
  }

  /** Forgets the game: clears the TT, history and killers. */
  newGame(): void {
    this.guard((w) => w.newGame());
  }

  /** Searches the current position; hooks receive info records and may stop it. */
  search(limits: SearchLimits = {}, hooks: SearchHooks = {}): SearchResult {
    return this.guard((w) => {
      w.limitsReset();
      const white = w.sideToMoveValue() === 0;
      if (limits.depth !== undefined) w.limitDepth(toI32(limits.depth));
      if (limits.nodes !== undefined) w.limitNodes(BigInt(Math.max(1, Math.min(Math.floor(limits.nodes), Number.MAX_SAFE_INTEGER) || 1)));
      if (limits.mate !== undefined) w.limitMate(toI32(limits.mate));
      if (limits.movetime !== undefined) w.limitMoveTime(Math.max(1, toI32(limits.movetime)));
      // A clock for either side makes a timed search; a missing clock of the side to move
      // counts as no time left, as in Stockfish.
      if (limits.wtime !== undefined || limits.btime !== undefined) {
        const time = (white ? limits.wtime : limits.btime) ?? 0;
        w.limitClock(toI32(time), toI32((white ? limits.winc : limits.binc) ?? 0), toI32(limits.movestogo ?? 0));
      }
      if (limits.infinite) w.limitInfinite(true);
      if (limits.ponder) w.limitPonder(true);
      for (const m of limits.searchmoves ?? []) {
        if (!w.limitSearchMove(m)) throw new Error(`searchmoves: ${JSON.stringify(m)} is not a legal move in ${w.getFen()}`);
      }
      this.hooks = hooks;
      this.lastPv = [];
      try {
        w.go();
      } finally {
        this.hooks = {};
      }
      const timeMs = w.infoTimeMs();
      const nodes = Number(w.infoNodes());
      const bestmove = w.resultBestMove();
      const ponder = w.resultPonderMove();
      return {
        bestmove,
        ponder: ponder || undefined,
        score: toScore(w.resultScoreValue()),
        pv: this.lastPv.length && this.lastPv[0] === bestmove ? this.lastPv : bestmove === "0000" ? [] : [bestmove],
        depth: w.resultDepth(),
        seldepth: w.currentSelDepth(),
        nodes,
        nps: timeMs > 0 ? Math.round((nodes * 1000) / timeMs) : 0,
        timeMs: Math.round(timeMs),
      };
    });
  }

  private lastPv: string[] = [];

  private emitInfo(): void {
    const w = this.wasm;
    const timeMs = w.infoTimeMs();
    const nodes = Number(w.infoNodes());
    const bound = w.infoBoundValue();
    const pvText = w.infoPv();
    const info: SearchInfo = {
      depth: w.infoDepthValue(),
      seldepth: w.infoSelDepthValue(),
      multipv: w.infoMultiPvValue(),
      score: toScore(w.infoScoreValue()),
      nodes,
      nps: timeMs > 0 ? Math.round((nodes * 1000) / timeMs) : 0,
      hashfull: w.infoHashfull(),
      timeMs: Math.round(timeMs),
      pv: pvText ? pvText.split(" ") : [],
    };
    if (bound === 2) info.bound = "lower";
    else if (bound === 1) info.bound = "upper";
    if (info.multipv === 1 && !info.bound) this.lastPv = info.pv;
    this.hooks.onInfo?.(info);
  }

  /** The static evaluation with its term breakdown. */
  evaluate(): Evaluation {
    return this.guard((w) => {
      const score = w.evaluatePosition();
      const terms = TERM_NAMES.map((name, t) => ({
        name,
        white: [w.evalTerm(t, 0, 0), w.evalTerm(t, 0, 1)] as [number, number],
        black: [w.evalTerm(t, 1, 0), w.evalTerm(t, 1, 1)] as [number, number],
      }));
      return { score, phase: w.evalPhase(), scale: w.evalScale(), terms };
    });
  }

  /** Runs the bench (fixed positions, fixed depth; depth 0 = default); returns its nodes.
   *  The current position is replaced by the last bench position. */
  bench(depth = 0): { nodes: number; positions: number } {
    const result = this.guard((w) => ({ nodes: Number(w.bench(depth | 0)), positions: w.benchPositionCount() }));
    this.game = { fen: this.fen(), moves: [] };
    return result;
  }

  /** SAN of a legal UCI move in the current position. */
  toSan(uci: string): string {
    if (typeof uci !== "string" || uci.length > 8) throw new Error(`not a UCI move: ${JSON.stringify(uci)}`);
    const san = this.guard((w) => w.uciToSan(uci));
    if (!san) throw new Error(`illegal move ${JSON.stringify(uci)} in ${this.fen()}`);
    return san;
  }

  /** UCI text of the legal move a SAN names in the current position. */
  fromSan(san: string): string {
    if (typeof san !== "string" || san.length > 16) throw new Error(`not a SAN move: ${JSON.stringify(san)}`);
    const [uci, matches] = this.guard((w) => [w.sanToUci(san), w.sanToUciMatches()] as const);
    if (matches > 1) throw new Error(`ambiguous move ${JSON.stringify(san)} in ${this.fen()}: ${matches} legal moves match (name the origin file or rank)`);
    if (!uci) throw new Error(`no legal move matches ${JSON.stringify(san)} in ${this.fen()} (illegal or malformed)`);
    return uci;
  }
}
