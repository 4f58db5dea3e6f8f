// The Engine's opening book: the book in use (Polyglot or evolutionary), whether searches
// play from it (OwnBook), the seeded choice among its moves, and learning from finished
// games. It lives in the caller's thread, where the Engine keeps the position.

import { START_FEN, checkFenArgument } from "./core.js";
import type { Core } from "./core.js";
import { seededRandom, chooseBookMove } from "./book.js";
import type { OpeningBook, BookMove, BookInfo, BookPosition } from "./book.js";
import { readBook } from "./book-file.js";
import { EvolutionaryBook, LEARN_PLIES } from "./book-evolutionary.js";
import { forgetBoard } from "./rules.js";
import { checkBoolean } from "./validate.js";
import type { SearchLimits, SearchResult } from "./search-types.js";

/** What learn() reads of a Game (any object with these will do). */
interface PlayedGame {
  readonly startFen: string;
  moves(): readonly { readonly uci: string }[];
  readonly result: string;
  readonly chess960: boolean;
}

/** A finished game to learn from: a Game, or its start FEN (default the start position),
 *  its UCI moves and its result ("1-0", "0-1" or "1/2-1/2"). */
export type LearnGame = PlayedGame | { fen?: string; moves: readonly string[]; result: string; chess960?: boolean };

/** True for a Game (its moves are a method; a record's are an array). */
function isPlayedGame(game: LearnGame): game is PlayedGame {
  return typeof game.moves === "function";
}

/** An Engine's book and how it plays from it. */
export class EngineBook {
  private book: OpeningBook | undefined;
  private ownBook: boolean;
  private readonly random: () => number;

  constructor(ownBook: boolean, seed: number) {
    this.ownBook = ownBook;
    this.random = seededRandom(seed);
  }

  /** Reads a book file of either format; throws a BookError and keeps the book in use. */
  load(bytes: Uint8Array): BookInfo {
    this.book = readBook(bytes);
    return { format: this.book.format, size: this.book.size };
  }

  /** Starts an empty evolutionary book. */
  startEvolutionary(): BookInfo {
    this.book = EvolutionaryBook.create();
    return { format: "evolutionary", size: 0 };
  }

  unload(): void {
    this.book = undefined;
  }

  /** The book in use, if any. */
  info(): BookInfo | undefined {
    return this.book && { format: this.book.format, size: this.book.size };
  }

  setOwnBook(on: boolean): void {
    this.ownBook = checkBoolean("setOwnBook: on", on);
  }

  /** The book's moves for the position (asked only when there is a book). */
  moves(position: () => BookPosition): BookMove[] {
    return this.book ? this.book.moves(position()) : [];
  }

  /** The evolutionary book learns from a finished game, replayed on the rules board (which
   *  then holds nobody's position); returns the number of positions updated. */
  learn(game: LearnGame, board: Core): number {
    const book = this.book;
    if (!(book instanceof EvolutionaryBook)) throw new Error("learning needs an evolutionary book (loadBook an evolutionary book file, or newEvolutionaryBook())");
    const { fen, moves, result, chess960 } = isPlayedGame(game)
      ? { fen: game.startFen, moves: game.moves().map((m) => m.uci), result: game.result, chess960: game.chess960 }
      : { fen: game.fen ?? START_FEN, moves: game.moves, result: game.result, chess960: game.chess960 ?? false };
    if (!Array.isArray(moves)) throw new TypeError("moves must be an array of UCI strings");
    if (!["1-0", "0-1", "1/2-1/2"].includes(result)) throw new Error(`a book learns from finished games: result must be 1-0, 0-1 or 1/2-1/2, not ${JSON.stringify(result)}`);
    // The positions after each move, on the rules board (given back to the engine after).
    forgetBoard();
    board.setPosition(fen === "startpos" ? START_FEN : checkFenArgument(fen), [], chess960);
    const fens: string[] = [];
    for (const m of moves.slice(0, LEARN_PLIES)) {
      if (!board.playMove(m)) throw new Error(`illegal move ${JSON.stringify(m)} in ${board.fen()}`);
      fens.push(board.fen());
    }
    return book.learn(fens, result);
  }

  /** The evolutionary book as a file. */
  save(): Uint8Array {
    if (!(this.book instanceof EvolutionaryBook)) throw new Error("only an evolutionary book can be saved (a Polyglot book is read only)");
    return this.book.toBytes();
  }

  /** The book's answer to a search, when OwnBook is on, the book has a move, and the search
   *  is an ordinary one (not infinite, pondering, for a mate, or restricted to searchmoves). */
  answer(limits: SearchLimits, position: () => BookPosition): SearchResult | undefined {
    if (!this.ownBook || !this.book || limits.infinite || limits.ponder || limits.mate !== undefined || limits.searchmoves) return undefined;
    const move = chooseBookMove(this.book.moves(position()), this.random);
    if (!move) return undefined;
    return { bestmove: move.uci, score: { cp: 0 }, pv: [move.uci], depth: 0, seldepth: 0, nodes: 0, nps: 0, timeMs: 0, book: true };
  }
}
