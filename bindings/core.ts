// A synchronous, validated wrapper around one engine instance: positions, move lists,
// notation and perft. Bad input throws an Error that names the problem.

import { createInstance, EngineExports, HostImports } from "./wasm.js";

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

function checkDepth(depth: unknown, max: number): number {
  if (typeof depth !== "number" || !Number.isInteger(depth) || depth < 0 || depth > max) {
    throw new RangeError(`depth must be an integer from 0 to ${max}, got ${String(depth)}`);
  }
  return depth;
}

/** One engine instance used synchronously in the current thread. */
export class Core {
  private broken: EngineCrashError | undefined;

  private constructor(private readonly wasm: EngineExports) {}

  /** Instantiates a new engine; `wasmUrl` picks another build of the engine (a slider
   *  backend variant such as build/engine-rotated.wasm) instead of build/engine.wasm. */
  static async create(env: HostImports = {}, wasmUrl?: URL): Promise<Core> {
    return new Core(await createInstance(env, wasmUrl));
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
   *  Throws on a bad FEN or the first illegal move; the position is then unchanged. */
  setPosition(fen: string = START_FEN, moves: readonly string[] = []): void {
    const previous = this.fen();
    const text = fen === "startpos" ? START_FEN : checkFenArgument(fen);
    this.guard((w) => {
      if (w.setFen(text) !== 0) throw new Error(`invalid FEN: ${w.fenError()}`);
    });
    for (let i = 0; i < moves.length; i++) {
      const move = moves[i];
      if (!this.playMove(move)) {
        const where = this.fen();
        this.guard((w) => w.setFen(previous));
        throw new Error(`illegal move ${JSON.stringify(move)} at index ${i} in position ${where}`);
      }
    }
  }

  /** Plays one UCI move; returns false (and changes nothing) when it is not legal. */
  playMove(uci: string): boolean {
    return typeof uci === "string" && uci.length <= 8 && this.guard((w) => w.playUciMove(uci));
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
    const uci = this.guard((w) => w.sanToUci(san));
    if (!uci) throw new Error(`no legal move matches ${JSON.stringify(san)} in ${this.fen()} (illegal, ambiguous or malformed)`);
    return uci;
  }
}
