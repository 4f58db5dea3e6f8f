// The move tree of a game: one node per move with its annotations and the variations played
// instead of it. A leaf: Game builds it, the PGN reader fills it and the writer reads it.

/** One move of a game, with what annotates it. */
export interface MoveNode {
  /** Standard algebraic notation with check (+) and mate (#) signs, as the engine writes it. */
  san: string;
  /** The move in UCI notation (e2e4, e7e8q, e1g1 for castling). */
  uci: string;
  /** Numeric annotation glyphs: 1 "!", 2 "?", 3 "!!", 4 "??", 5 "!?", 6 "?!", and the others. */
  nags: number[];
  /** The comment after the move. */
  comment?: string;
  /** The comment before the move (PGN has one only at the start of a variation). */
  startingComment?: string;
  /** Lines played instead of this move, each starting from the position before it. */
  variations: MoveNode[][];
}
