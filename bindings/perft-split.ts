// The positions a perft passes through at a given ply, each once with how many move sequences
// reach it: perft(d) of the root is the sum over them of count × perft(d - ply). This is how
// the deep perft records were split over machines (the Distributed Perft Project's perft(11),
// the Grand Chess Tree's perft(12) in 72,078 tasks: the unique positions four plies from the
// start), and what a distributed perft queues.

import type { Core } from "./core.js";

/** A position `ply` plies below the root, reached by `count` move sequences. */
export interface SplitPosition {
  /** The position's FEN (its move counters as on the first path that reached it). */
  fen: string;
  /** The first path that reached it: UCI moves from the root. */
  moves: string[];
  count: bigint;
}

/** Deepest split: the positions are enumerated move by move from JavaScript (a second for
 *  the start position's 197,281 paths at ply 4). */
export const MAX_SPLIT_PLY = 5;

/** The FEN without its two move counters: two paths to the same position differ in them. */
function positionOf(fen: string): string {
  return fen.split(" ").slice(0, 4).join(" ");
}

/** The unique positions `ply` plies below core's position (0 to MAX_SPLIT_PLY), with how many
 *  paths reach each, in the order they are first reached. The position is left as it was. */
export function uniquePositions(core: Core, ply: number): SplitPosition[] {
  if (!Number.isInteger(ply) || ply < 0 || ply > MAX_SPLIT_PLY) throw new RangeError(`ply must be an integer from 0 to ${MAX_SPLIT_PLY}, got ${ply}`);
  const found = new Map<string, SplitPosition>();
  const path: string[] = [];
  const walk = (left: number): void => {
    if (left === 0) {
      const fen = core.fen();
      const key = positionOf(fen);
      const seen = found.get(key);
      if (seen) seen.count++;
      else found.set(key, { fen, moves: path.slice(), count: 1n });
      return;
    }
    for (const move of core.legalMoves()) {
      path.push(move);
      core.afterMoves([move], () => walk(left - 1));
      path.pop();
    }
  };
  walk(ply);
  return [...found.values()];
}
