// The opening book in a UCI session: the options OwnBook, Book File and Book Learning, and
// learning after each game. UCI tells an engine no results, so a game's result is taken from
// its last position (mate, or a draw by the rules) or else from the engine's last score (a
// mate, or at least 10 pawns either way); a game whose result stays unknown is not learnt.

import type { Engine } from "./engine.js";
import type { SearchResult } from "./search-types.js";
import { Game } from "./game.js";

/** What a session may do on its host: read and write files (the CLI in Node). */
export interface UciFileHost {
  readFile?: (path: string) => Uint8Array;
  writeFile?: (path: string, bytes: Uint8Array) => void;
}

/** A score at which the engine takes the game as decided, in centipawns (its own view). */
export const DECIDED_CP = 1000;

const NO_FILE = "<empty>";

export class UciBook {
  private file = "";
  private learning = false;
  /** The game so far: the last position sent and the engine's last move from it. */
  private game: { fen: string; moves: string[]; chess960: boolean } | undefined;
  /** The engine's colour and its score in its last searched position. */
  private last: { white: boolean; result: SearchResult } | undefined;

  constructor(
    private readonly engine: Engine,
    private readonly send: (line: string) => void,
    private readonly host: UciFileHost,
  ) {}

  /** The option lines for `uci`. */
  optionLines(): string[] {
    return [
      "option name OwnBook type check default false",
      `option name Book File type string default ${NO_FILE}`,
      "option name Book Learning type check default false",
    ];
  }

  /** Handles setoption for the book's options; false when the option is not one of them. */
  async setOption(key: string, value: string | undefined, check: (name: string, value: string | undefined) => boolean): Promise<boolean> {
    switch (key) {
      case "ownbook":
        await this.engine.setOwnBook(check("OwnBook", value));
        return true;
      case "book learning":
        this.learning = check("Book Learning", value);
        if (this.learning && this.file && !(await this.engine.bookInfo())) await this.startLearningBook();
        return true;
      case "book file":
        await this.setFile(value === undefined || value === NO_FILE ? "" : value);
        return true;
    }
    return false;
  }

  /** Book File: loads the file (either format); a missing file with Book Learning on starts a
   *  new evolutionary book that is written there after each game. A file that cannot be read
   *  or is not a valid book is reported, and the book in use stays. */
  private async setFile(path: string): Promise<void> {
    if (!path) {
      this.file = "";
      await this.engine.unloadBook();
      return;
    }
    const name = path.slice(0, 200);
    if (!this.host.readFile) throw new Error("Book File: this host cannot read files; use Engine.loadBook");
    let bytes: Uint8Array;
    try {
      bytes = this.host.readFile(path);
    } catch (err) {
      const missing = (err as { code?: string }).code === "ENOENT";
      if (missing && this.learning) {
        this.file = path;
        return this.startLearningBook();
      }
      throw new Error(`Book File ${name}: cannot read it: ${err instanceof Error ? err.message : String(err)}; the book in use stays`);
    }
    try {
      const info = await this.engine.loadBook(bytes);
      this.file = path;
      this.send(`info string Book File ${name} loaded: ${info.format === "polyglot" ? `Polyglot book, ${info.size} entries` : `evolutionary book, ${info.size} positions`}`);
    } catch (err) {
      throw new Error(`Book File ${name}: ${err instanceof Error ? err.message : String(err)}; the book in use stays`);
    }
  }

  private async startLearningBook(): Promise<void> {
    await this.engine.newEvolutionaryBook();
    this.send(`info string Book File ${this.file.slice(0, 200)} does not exist yet: a new evolutionary book learns from the games and is written there after each`);
  }

  /** A position the GUI sent (the game so far). */
  recordPosition(fen: string, moves: readonly string[], chess960: boolean): void {
    this.game = { fen, moves: [...moves], chess960 };
  }

  /** The engine's search of the last position sent. */
  recordSearch(white: boolean, result: SearchResult): void {
    if (result.bestmove === "0000") return;
    if (!result.book) this.last = { white, result };
    if (this.game) this.game = { ...this.game, moves: [...this.game.moves, result.bestmove] };
  }

  /** Learns from the game that has just ended (at ucinewgame), with Book Learning on and an
   *  evolutionary book, and writes the book to Book File. */
  async learnLastGame(): Promise<void> {
    const game = this.game;
    const last = this.last;
    this.game = undefined;
    this.last = undefined;
    if (!this.learning || !game || game.moves.length === 0) return;
    if ((await this.engine.bookInfo())?.format !== "evolutionary") return;
    const result = gameResult(game, last);
    if (!result) {
      this.send("info string book learning: the last game's result is unknown (no mate, no draw by the rules, no decisive score); not learnt");
      return;
    }
    const positions = await this.engine.learn({ ...game, result });
    let saved = "";
    if (this.file && this.host.writeFile) {
      try {
        this.host.writeFile(this.file, await this.engine.saveBook());
        saved = `, written to ${this.file.slice(0, 200)}`;
      } catch (err) {
        throw new Error(`Book File ${this.file.slice(0, 200)}: cannot write it: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    this.send(`info string book learnt the last game (${result}) in ${positions} positions${saved}`);
  }
}

/** The result of a game: from its last position by the rules, else from the engine's last
 *  score; undefined when neither decides it. */
function gameResult(game: { fen: string; moves: string[]; chess960: boolean }, last: { white: boolean; result: SearchResult } | undefined): string | undefined {
  let record: Game;
  try {
    record = new Game(game.fen, { chess960: game.chess960 });
    for (const m of game.moves) record.play(m);
  } catch {
    return undefined;
  }
  const status = record.status();
  if (status === "checkmate") return record.turn() === "w" ? "0-1" : "1-0";
  if (status !== "ongoing") return "1/2-1/2";
  if (!last) return undefined;
  const s = last.result.score;
  const winning = "mate" in s ? s.mate > 0 : s.cp >= DECIDED_CP;
  const losing = "mate" in s ? s.mate < 0 : s.cp <= -DECIDED_CP;
  if (!winning && !losing) return undefined;
  return winning === last.white ? "1-0" : "0-1";
}
