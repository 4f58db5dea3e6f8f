// One self-play game for training data: a random opening (random legal plies from the start
// position or a book line) checked by a short search, then the engine against itself at a
// fixed node budget per move, with win and draw adjudication. Positions that pass the
// filters become records; their result byte is set when the game ends.

import { Core, START_FEN } from "../bindings/core.js";
import { Rng } from "./rng.js";
import { RecordCodec, RECORD_BYTES, RESULT_BLACK_WIN, RESULT_DRAW, RESULT_WHITE_WIN, setResults } from "./records.js";

const VALUE_MATE = 32000;

/** How games are played and which positions are kept. */
export interface SelfPlaySettings {
  /** Transposition table size; the table is cleared before every game. */
  hashMb: number;
  /** Nodes per move. */
  nodes: number;
  seed: number;
  /** Random plies from the start (or book) position: [min, max]. */
  randomPlies: [number, number];
  /** Start positions to pick from (FENs); the start position when empty. */
  book: string[];
  /** Nodes of the search that checks an opening, and the largest |score| it may show. */
  openingNodes: number;
  openingMaxCp: number;
  /** Win adjudication: |score| >= winScore for winPlies plies in a row (same sign). */
  winScore: number;
  winPlies: number;
  /** Draw adjudication: from move drawMoveNumber, |score| <= drawScore for drawPlies plies. */
  drawMoveNumber: number;
  drawScore: number;
  drawPlies: number;
  /** Filters: skip positions in check, with a capture or promotion as best move, or
   *  before this ply of the game (counted from the start position). */
  skipInCheck: boolean;
  skipNoisy: boolean;
  minPly: number;
}

export const DEFAULT_SETTINGS: SelfPlaySettings = {
  hashMb: 8,
  nodes: 1000,
  seed: 1,
  randomPlies: [8, 10],
  book: [],
  openingNodes: 5000,
  openingMaxCp: 300,
  winScore: 1500,
  winPlies: 4,
  drawMoveNumber: 40,
  drawScore: 10,
  drawPlies: 8,
  skipInCheck: true,
  skipNoisy: true,
  minPly: 16,
};

/** How a game ended. */
export type Ending = "checkmate" | "stalemate" | "threefold" | "fifty-moves" | "insufficient-material" | "adjudicated-win" | "adjudicated-draw";

export interface SelfPlayGame {
  index: number;
  /** The kept positions, RECORD_BYTES each, with the result set. */
  records: Uint8Array;
  positions: number;
  result: number;
  ending: Ending;
  /** Plies played after the opening, and the opening tries discarded. */
  plies: number;
  discardedOpenings: number;
  /** Nodes searched for the game, the opening checks included. */
  nodes: number;
}

/** A data run's progress file (`datagen.json` beside its `positions.bin`), as `npm run datagen`
 *  and the service's data runs write it: the run's settings and how far its games are written. */
export interface DatagenProgress {
  version: 1;
  /** sha256 (first 16 hex digits) of the engine that plays. */
  engine: string;
  settings: SelfPlaySettings;
  nextGame: number;
  bytes: number;
  positions: number;
  games: number;
  results: { white: number; draw: number; black: number };
  endings: Record<string, number>;
  seconds: number;
}

/** Plies since the start of the game that a FEN gives. */
function plyOf(fen: string): number {
  const f = fen.split(" ");
  return 2 * (Number(f[5]) - 1) + (f[1] === "b" ? 1 : 0);
}

/** Plays a random opening from rng and checks it with a short search; not ok when it ends
 *  the game or is unbalanced. Also returns the nodes of the check (0 when none ran). */
export function playOpening(core: Core, rng: Rng, s: SelfPlaySettings): { ok: boolean; nodes: number } {
  const fen = s.book.length ? s.book[rng.below(s.book.length)] : START_FEN;
  core.setPosition(fen);
  core.newGame();
  const [lo, hi] = s.randomPlies;
  const plies = lo + rng.below(hi - lo + 1);
  for (let i = 0; i < plies; i++) {
    const moves = core.legalMoves();
    if (moves.length === 0) return { ok: false, nodes: 0 };
    core.playMove(moves[rng.below(moves.length)]);
  }
  if (core.status() !== "ongoing") return { ok: false, nodes: 0 };
  const { nodes } = core.search({ nodes: s.openingNodes });
  const ok = Math.abs(core.exports.resultScore()) <= s.openingMaxCp;
  core.newGame();
  return { ok, nodes };
}

/** Plays openings from rng until one is acceptable; returns how many were discarded and the
 *  nodes their checks searched. */
export function startGame(core: Core, rng: Rng, s: SelfPlaySettings): { discarded: number; nodes: number } {
  let discarded = 0;
  let nodes = 0;
  for (;;) {
    const opening = playOpening(core, rng, s);
    nodes += opening.nodes;
    if (opening.ok) return { discarded, nodes };
    if (++discarded > 1000) throw new Error("no acceptable opening in 1000 tries");
  }
}

/** Win and draw adjudication over the scores (white's view) of successive plies. */
export class Adjudicator {
  private winRun = 0; // plies in a row >= winScore (> 0) or <= -winScore (< 0)
  private drawRun = 0;

  constructor(private readonly s: SelfPlaySettings) {}

  /** Adds the score of a ply played at game ply `ply`; returns the adjudicated result, if any. */
  add(white: number, ply: number): { result: number; ending: Ending } | undefined {
    const s = this.s;
    this.winRun = white >= s.winScore ? Math.max(this.winRun, 0) + 1 : white <= -s.winScore ? Math.min(this.winRun, 0) - 1 : 0;
    this.drawRun = Math.abs(white) <= s.drawScore && ply / 2 + 1 >= s.drawMoveNumber ? this.drawRun + 1 : 0;
    if (Math.abs(this.winRun) >= s.winPlies) return { result: this.winRun > 0 ? RESULT_WHITE_WIN : RESULT_BLACK_WIN, ending: "adjudicated-win" };
    if (this.drawRun >= s.drawPlies) return { result: RESULT_DRAW, ending: "adjudicated-draw" };
    return undefined;
  }
}

/** The result of a game the rules ended (status other than "ongoing"). */
export function ruleResult(core: Core, status: Ending): number {
  if (status !== "checkmate") return RESULT_DRAW;
  return core.sideToMove() === "w" ? RESULT_BLACK_WIN : RESULT_WHITE_WIN;
}

/** Plies since the start of the game in the engine's current position. */
export function currentPly(core: Core): number {
  return plyOf(core.fen());
}

/** Plays game `index` of a run; the same settings and index give the same game. */
export function playSelfPlayGame(core: Core, index: number, s: SelfPlaySettings): SelfPlayGame {
  const rng = new Rng(s.seed, index);
  const opening = startGame(core, rng, s);
  let nodes = opening.nodes;
  const codec = new RecordCodec(core);
  const kept: Uint8Array[] = [];
  const adjudicator = new Adjudicator(s);
  let ply = currentPly(core);
  let plies = 0;
  let result = RESULT_DRAW;
  let ending: Ending;
  for (;;) {
    const status = core.status();
    if (status !== "ongoing") {
      ending = status;
      result = ruleResult(core, status);
      break;
    }
    const search = core.search({ nodes: s.nodes });
    nodes += search.nodes;
    const raw = core.exports.resultScore();
    const white = core.sideToMove() === "w" ? raw : -raw;
    const keep = ply >= s.minPly && !(s.skipInCheck && core.inCheck()) && !(s.skipNoisy && core.exports.isNoisyUci(search.bestmove));
    if (keep) kept.push(codec.pack(Math.max(-VALUE_MATE, Math.min(VALUE_MATE, white)), RESULT_DRAW));
    const verdict = adjudicator.add(white, ply);
    if (verdict) {
      ({ result, ending } = verdict);
      break;
    }
    if (!core.playMove(search.bestmove)) throw new Error(`engine played an illegal move ${search.bestmove} in ${core.fen()}`);
    ply++;
    plies++;
  }
  const records = new Uint8Array(kept.length * RECORD_BYTES);
  kept.forEach((r, i) => records.set(r, i * RECORD_BYTES));
  setResults(records, result);
  return { index, records, positions: kept.length, result, ending, plies, discardedOpenings: opening.discarded, nodes };
}
