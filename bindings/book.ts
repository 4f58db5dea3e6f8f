// Opening books, what both formats share: the position a book is asked about, the moves it
// answers with (each with its chance of being played), the seeded random choice among them,
// and the error a bad book file gets. The formats: book-polyglot.ts (Polyglot .bin, read
// only) and book-evolutionary.ts (the learning book); book-file.ts tells them apart.

/** A position as a book sees it: the FEN, whether it is Chess960 (castling in UCI as
 *  king-takes-rook), its legal moves in UCI, and the FEN after one of them. */
export interface BookPosition {
  fen: string;
  chess960: boolean;
  legalMoves: readonly string[];
  fenAfter(uci: string): string;
}

/** A move a book knows for a position. */
export interface BookMove {
  /** The move in UCI notation, as the position's mode writes it. */
  uci: string;
  /** Polyglot: the entry's weight. Evolutionary: the games played through the move. */
  weight: number;
  /** The chance that the book plays it (0 to 1; the book's moves add up to 1). */
  probability: number;
  /** Evolutionary book: the games after the move, from the mover's view, and their score
   *  (0 to 1, more weight on recent games). */
  wins?: number;
  draws?: number;
  losses?: number;
  score?: number;
}

/** An opening book of either format. */
export interface OpeningBook {
  readonly format: "polyglot" | "evolutionary";
  /** Entries (Polyglot) or positions (evolutionary) in the book. */
  readonly size: number;
  /** The book's moves for a position, legal ones only, most probable first. */
  moves(position: BookPosition): BookMove[];
}

/** What an Engine's loadBook reports. */
export interface BookInfo {
  format: "polyglot" | "evolutionary";
  size: number;
}

/** A book file that cannot be used: the message names the defect. */
export class BookError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BookError";
  }
}

/** A seeded generator of numbers in [0, 1) (mulberry32): the same seed, the same choices. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws one of the moves by their probabilities; undefined when none can be played. */
export function chooseBookMove(moves: readonly BookMove[], random: () => number): BookMove | undefined {
  const total = moves.reduce((sum, m) => sum + m.probability, 0);
  if (!(total > 0)) return undefined;
  let r = random() * total;
  for (const m of moves) {
    if (m.probability <= 0) continue;
    r -= m.probability;
    if (r < 0) return m;
  }
  return moves.filter((m) => m.probability > 0).at(-1);
}

/** Orders book moves most probable first (then by UCI text, so that ties are stable). */
export function byProbability(a: BookMove, b: BookMove): number {
  return b.probability - a.probability || (a.uci < b.uci ? -1 : a.uci > b.uci ? 1 : 0);
}
