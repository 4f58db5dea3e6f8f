// The error a game carries when its PGN text could not be read to its end. A leaf: the reader
// makes it and Game holds it.

/** Why a game of a PGN text could not be read to its end. */
export class PgnError extends Error {
  /** The game's number in the input (1 for the first). */
  readonly game: number;
  readonly line: number;
  readonly column: number;
  /** The move where reading stopped, numbered as in the game ("12... Nf6"), if any. */
  readonly move?: string;

  constructor(problem: string, where: { game: number; line: number; column: number; move?: string }) {
    super(`game ${where.game}, line ${where.line}, column ${where.column}${where.move ? `, move ${where.move}` : ""}: ${problem}`);
    this.name = "PgnError";
    this.game = where.game;
    this.line = where.line;
    this.column = where.column;
    this.move = where.move;
  }
}
