// Types of the search API shared by the core wrapper, the worker protocol, the Engine class
// and the UCI layer.

/** A score: centipawns from the side to move's view, or moves to mate (negative: mated). */
export type Score = { cp: number } | { mate: number };

/** Limits of one search, as UCI `go` gives them. Times in milliseconds. */
export interface SearchLimits {
  depth?: number;
  nodes?: number;
  /** Search for a mate in at most this many moves. */
  mate?: number;
  movetime?: number;
  wtime?: number;
  btime?: number;
  winc?: number;
  binc?: number;
  movestogo?: number;
  /** Search until stopped. */
  infinite?: boolean;
  /** Ponder: untimed until ponderhit. */
  ponder?: boolean;
  /** Restrict the root to these UCI moves. */
  searchmoves?: string[];
}

/** One info record: emitted after each iteration (and for bounds after the first second). */
export interface SearchInfo {
  depth: number;
  seldepth: number;
  multipv: number;
  score: Score;
  /** "lower" or "upper" when the score is only a bound (aspiration fail high or low). */
  bound?: "lower" | "upper";
  nodes: number;
  nps: number;
  hashfull: number;
  /** Tablebase probes that answered (UCI tbhits). */
  tbhits: number;
  timeMs: number;
  pv: string[];
  /** Win, draw and loss chances in permille for the side to move, from the engine's model of
   *  its scores (docs/learning.md); UCI prints them with UCI_ShowWDL. */
  wdl: [number, number, number];
}

/** The result of a search. */
export interface SearchResult {
  /** The best move in UCI notation, or "0000" when there is no legal move. */
  bestmove: string;
  /** The expected reply, when known. */
  ponder?: string;
  score: Score;
  pv: string[];
  depth: number;
  seldepth: number;
  nodes: number;
  nps: number;
  timeMs: number;
  /** Win, draw and loss chances in permille for the side to move (see SearchInfo.wdl);
   *  absent when the search was stopped before any iteration. */
  wdl?: [number, number, number];
  /** The move came from the opening book (no search ran: depth and nodes are 0). */
  book?: boolean;
  /** A table found bad during the search (its file named, and why): the search went on
   *  without it (docs/tablebases.md). */
  tablebaseError?: string;
}

/** The current root move, reported after the first second of a search. */
export interface CurrMove {
  move: string;
  number: number;
  depth: number;
}

/** The evaluation with its breakdown (white's view per term; total from the side to move). */
export interface Evaluation {
  /** Centipawns from the side to move's view. */
  score: number;
  /** The network that evaluated (its file name); absent for the hand-crafted evaluation,
   *  whose terms follow. */
  network?: string;
  phase: number;
  scale: number;
  terms: { name: string; white: [number, number]; black: [number, number] }[];
}
