// The package's public entry point: the Engine (in a worker, its searches on as many threads
// as asked and the host allows: threadSupport), a raw UCI channel, the Game
// model with PGN reading and writing, position helpers and perft on the shared in-thread
// rules instance, the Chess960 start positions, and opening books (Polyglot, evolutionary).

import { Core, DivideEntry, PerftOptions, GameStatus, SearchParam, START_FEN, MAX_PERFT_DEPTH, EngineCrashError, checkFenArgument } from "./core.js";
import { Engine, EngineOptions, SearchHandlers, AnalysisPosition, AnalyseOptions, LearnGame } from "./engine.js";
import { UciSession } from "./uci.js";
import { loadRules, claimBoard } from "./rules.js";
import { Game } from "./game.js";
import type { LegalMove, GameOptions } from "./game.js";
import type { MoveNode } from "./move-tree.js";
import { chess960StartFen } from "./chess960.js";
import { PolyglotBook, polyglotKey } from "./book-polyglot.js";
import { EvolutionaryBook } from "./book-evolutionary.js";
import type { BookEntry } from "./book-evolutionary.js";
import { readBook } from "./book-file.js";
import { BookError } from "./book.js";
import type { BookMove, BookPosition, BookInfo, OpeningBook } from "./book.js";
import { checkKeys, checkBoolean } from "./validate.js";
import { parsePgn, readPgn } from "./pgn-read.js";
import { PgnError } from "./pgn-error.js";
import type { PgnSource } from "./pgn-read.js";
import { threadSupport } from "./wasm.js";

export { Core, Engine, START_FEN, MAX_PERFT_DEPTH, EngineCrashError, threadSupport };
export type { DivideEntry, PerftOptions, GameStatus, SearchParam, EngineOptions, SearchHandlers, AnalysisPosition, AnalyseOptions, LearnGame };
export { PolyglotBook, EvolutionaryBook, polyglotKey, readBook, BookError };
export type { BookMove, BookPosition, BookInfo, OpeningBook, BookEntry };
export type { SearchLimits, SearchInfo, SearchResult, Score, CurrMove, Evaluation } from "./search-types.js";
export type { SyzygyOptions } from "./engine-options.js";
export type { SearchMode } from "./validate.js";
export type { SyzygyLoad, TableBytes } from "./syzygy.js";
export type { TablebaseProbe, TablebaseMove, TablebaseCategory } from "./tablebase-probe.js";
export { Game, parsePgn, readPgn, PgnError, chess960StartFen };
export type { MoveNode, LegalMove, PgnSource, GameOptions };

/** Options of the position helpers: `chess960` reads the FEN and the moves as Chess960
 *  (X-FEN or Shredder-FEN castling fields, castling as king-takes-rook in UCI). */
export interface PositionOptions {
  chess960?: boolean;
}

/** A UCI conversation with an engine of its own, the same in Node and browsers. */
export interface UciChannel {
  /** Sends one command line. */
  send(line: string): void;
  /** Registers a listener for every line the engine prints; returns a function that removes it. */
  onLine(listener: (line: string) => void): () => void;
  /** Quits the session and ends the engine's worker. */
  close(): Promise<void>;
}

/** Starts an engine and returns a UCI channel to it. */
export async function createUciChannel(options: EngineOptions = {}): Promise<UciChannel> {
  const engine = await Engine.create(options);
  const listeners = new Set<(line: string) => void>();
  const session = new UciSession(engine, (line) => listeners.forEach((l) => l(line)));
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await session.quit();
    await engine.dispose();
  };
  return {
    send: (line) => {
      if (closed) return;
      for (const part of String(line).split(/\r?\n/)) if (!session.handle(part)) void close();
    },
    onLine: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close,
  };
}

/** Who holds the rules board when a helper has set it up. */
const HELPERS = {};

/** Runs fn on the in-thread rules instance (loaded on first use, again after a crash) set to fen. */
async function at<T>(fen: string, fn: (c: Core) => T, options: PositionOptions | undefined): Promise<T> {
  const { chess960 = false } = checkKeys("position option", options, ["chess960"]) as PositionOptions;
  checkBoolean("chess960", chess960);
  const c = await loadRules();
  c.setPosition(checkFenArgument(fen), [], chess960);
  claimBoard(HELPERS);
  return fn(c);
}

/** Leaf nodes (a bigint) of the legal move tree from fen to depth (bulk counted), in this thread. */
export function perft(fen: string, depth: number, options?: PositionOptions): Promise<bigint> {
  return at(fen, (c) => c.perft(depth), options);
}

/** Perft below each root move of fen, in this thread. */
export function divide(fen: string, depth: number, options?: PositionOptions): Promise<DivideEntry[]> {
  return at(fen, (c) => c.divide(depth), options);
}

/** Legal moves of fen in UCI notation. */
export function legalMoves(fen: string, options?: PositionOptions): Promise<string[]> {
  return at(fen, (c) => c.legalMoves(), options);
}

/** SAN of the UCI move in fen. */
export function toSan(fen: string, uci: string, options?: PositionOptions): Promise<string> {
  return at(fen, (c) => c.toSan(uci), options);
}

/** UCI text of the SAN move in fen. */
export function fromSan(fen: string, san: string, options?: PositionOptions): Promise<string> {
  return at(fen, (c) => c.fromSan(san), options);
}
