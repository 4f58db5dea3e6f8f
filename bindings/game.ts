// Game: a start position and the moves played from it, with SAN and UCI for each, undo, the
// position's status by the rules, PGN headers, comments, NAGs and variations. Every move is
// checked by the engine's own move generator (the in-thread rules instance, rules.ts): the
// chess rules live in the wasm only.

import { START_FEN, checkFenArgument } from "./core.js";
import type { Core, GameStatus } from "./core.js";
import { loadRules, rulesCore, boardFor, claimBoard, releaseBoard, forgetBoard } from "./rules.js";
import { writePgn } from "./pgn-write.js";
import { checkKeys, checkBoolean } from "./validate.js";
import type { PgnError } from "./pgn-error.js";
import type { MoveNode } from "./move-tree.js";

/** Options of a game: `chess960` sets it up as Chess960 (X-FEN or Shredder-FEN castling
 *  fields; castling moves in UCI as king-takes-rook, in SAN as O-O and O-O-O). */
export interface GameOptions {
  chess960?: boolean;
}

/** A legal move, in both notations. */
export interface LegalMove {
  san: string;
  uci: string;
}

/** A chess game: the start position, the moves (the main line, with variations kept from a
 *  PGN), the headers and comments. Create one with `await Game.create()`; after that (or
 *  after any other call that loads the engine: parsePgn, readPgn, Engine.create)
 *  `new Game()` works synchronously. All methods are synchronous. */
export class Game {
  /** PGN tag pairs, in the order they were read or set (Event, White, Result, ...). */
  readonly headers = new Map<string, string>();
  /** The comment before the first move. */
  comment?: string;
  /** Set by the PGN reader when the game could not be read to its end: the game holds what
   *  was read before the error. */
  error?: PgnError;
  /** True for a Chess960 game (see GameOptions). */
  readonly chess960: boolean;
  private readonly start: string;
  private readonly line: MoveNode[] = [];

  /** A game from fen (default: the standard start position). Needs the engine loaded (see
   *  Game.create); throws on a bad FEN. */
  constructor(fen: string = START_FEN, options: GameOptions = {}) {
    const text = fen === "startpos" ? START_FEN : checkFenArgument(fen);
    const { chess960 = false } = checkKeys("Game option", options, ["chess960"]) as GameOptions;
    this.chess960 = checkBoolean("chess960", chess960);
    const core = rulesCore();
    core.setPosition(text, [], this.chess960);
    this.start = core.fen();
    claimBoard(this);
  }

  /** @internal The PGN reader's way in: moves already checked by the engine. */
  static fromParsed(fen: string, headers: ReadonlyMap<string, string>, line: MoveNode[], comment?: string, chess960 = false): Game {
    const game = new Game(fen, { chess960 });
    for (const [name, value] of headers) game.headers.set(name, value);
    game.line.push(...line);
    if (comment !== undefined) game.comment = comment;
    releaseBoard(game); // the board holds the start position, not the end of the moves
    return game;
  }

  /** Loads the engine's rules (once per thread) and returns a new game from fen. */
  static async create(fen: string = START_FEN, options: GameOptions = {}): Promise<Game> {
    await loadRules();
    return new Game(fen, options);
  }

  /** FEN of the start position. */
  get startFen(): string {
    return this.start;
  }

  /** The result tag: "1-0", "0-1", "1/2-1/2" or "*" (unknown or ongoing). */
  get result(): string {
    return this.headers.get("Result") ?? "*";
  }

  /** The rules board set to this game's current position. */
  private board(): Core {
    return boardFor(this, (core) => core.setPosition(this.start, this.line.map((m) => m.uci), this.chess960));
  }

  /** Plays a move given in SAN ("Nf3", "exd5", "O-O", "e8=Q") or UCI ("g1f3", "e7e8q") and
   *  returns its node. Throws an Error naming the move and the position when it is not legal
   *  (or ambiguous); the game is then unchanged. */
  play(move: string): MoveNode {
    const { uci, san } = this.board().playSanOrUci(move);
    const node: MoveNode = { san, uci, nags: [], variations: [] };
    this.line.push(node);
    return node;
  }

  /** Takes back the last move of the main line and returns it (undefined at the start). */
  undo(): MoveNode | undefined {
    const node = this.line.pop();
    if (node) releaseBoard(this);
    return node;
  }

  /** The moves of the main line, first to last. */
  moves(): MoveNode[] {
    return [...this.line];
  }

  /** Number of moves (plies) in the main line. */
  get length(): number {
    return this.line.length;
  }

  /** FEN after the main line's moves. */
  fen(): string {
    return this.board().fen();
  }

  /** FEN after the first `ply` moves of the main line (0: the start position). */
  fenAt(ply: number): string {
    if (!Number.isInteger(ply) || ply < 0 || ply > this.line.length) throw new RangeError(`ply must be an integer from 0 to ${this.line.length}, got ${ply}`);
    if (ply === this.line.length) return this.fen();
    // A board for this question only: the game's own position is replayed when next needed.
    const core = rulesCore();
    forgetBoard();
    core.setPosition(this.start, this.line.slice(0, ply).map((m) => m.uci), this.chess960);
    return core.fen();
  }

  /** Side to move: "w" or "b". */
  turn(): "w" | "b" {
    return this.board().sideToMove();
  }

  /** Legal moves of the current position, in SAN and UCI. */
  legalMoves(): LegalMove[] {
    return this.board().legalMovesWithSan();
  }

  /** Checkmate, stalemate, threefold repetition, the fifty-move rule, insufficient material,
   *  or "ongoing", for the current position (repetitions count the whole game). */
  status(): GameStatus {
    return this.board().status();
  }

  /** The game in PGN export format: the seven tag roster first (unknown tags as "?"),
   *  Variant "Chess960" for a Chess960 game, SetUp and FEN for a game from another position
   *  (always for Chess960, with X-FEN castling rights), the other tags, then the moves with move
   *  numbers, comments, NAGs ($n) and variations, wrapped at 79 characters, and the result. */
  toPgn(): string {
    return writePgn(this, this.line);
  }
}
