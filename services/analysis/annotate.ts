// A game's computer analysis as lichess gives it: the evaluation after every move, and the
// moves that lose winning chances marked as inaccuracies (?!), mistakes (?) and blunders (??).
// Winning chances are lichess's: 2 / (1 + e^(−0.00368208·cp)) − 1 for the side to move, the
// score capped at ±1,000 centipawns and a mate counted as 1,000; a move loses what the
// mover's winning chances drop from the position before it to the position after it, and
// lichess's thresholds (0.1, 0.2, 0.3) say how bad that is. Here the evaluation of each
// position is given; annotate() writes the comments and NAGs into the game.

import type { Game } from "../../bindings/game.js";

/** A position's evaluation from White's point of view (centipawns, or mate in moves:
 *  positive when White mates), its WDL (White's, permille) and the best line from it (SAN);
 *  or that the side to move is checkmated. */
export interface PositionEval {
  cp?: number;
  mate?: number;
  wdl?: [number, number, number];
  best?: string[];
  checkmated?: boolean;
}

export type Mark = "inaccuracy" | "mistake" | "blunder";
/** NAGs: $6 ?!, $2 ?, $4 ??. */
export const MARK_NAGS: Record<Mark, number> = { inaccuracy: 6, mistake: 2, blunder: 4 };
const THRESHOLDS: [number, Mark][] = [[0.3, "blunder"], [0.2, "mistake"], [0.1, "inaccuracy"]];
const CAP_CP = 1000;

/** White's score in centipawns, a mate counted as the cap (not for a checkmated position). */
export function cappedCp(e: PositionEval): number {
  if (e.mate !== undefined) return e.mate > 0 ? CAP_CP : -CAP_CP;
  return Math.max(-CAP_CP, Math.min(CAP_CP, e.cp ?? 0));
}

/** Winning chances (−1..1) of a side with this score in centipawns. */
export function winningChances(cp: number): number {
  return 2 / (1 + Math.exp(-0.00368208 * cp)) - 1;
}

/** "0.35", "-1.20", "#3", "#-2" (White's view). */
export function evalText(e: PositionEval): string {
  if (e.mate !== undefined) return `#${e.mate}`;
  return ((e.cp ?? 0) / 100).toFixed(2);
}

/** The mark of a move that takes the mover's winning chances from `before` to `after`. */
export function markOf(before: number, after: number): Mark | undefined {
  const loss = before - after;
  return THRESHOLDS.find(([t]) => loss >= t)?.[1];
}

export interface Annotation {
  marks: { white: Record<Mark, number>; black: Record<Mark, number> };
  /** Average centipawn loss per move of each side (capped scores). */
  acpl: { white: number; black: number };
}

/** Writes the analysis into the game's main line: evals[i] is the position after i moves
 *  (evals[0] the start), so there is one more than the moves. Each move's comment gets the
 *  evaluation after it (`[%eval 0.35]`, and `[%wdl w d l]`), a marked move its NAG and
 *  "Mistake. Nf3 was best: Nf3 Nc6 Bb5." (the best line from the position before it); the
 *  game's own comments and NAGs stay. */
export function annotate(game: Game, evals: readonly PositionEval[]): Annotation {
  const moves = game.moves();
  if (evals.length !== moves.length + 1) throw new Error(`${evals.length} evaluations for ${moves.length} moves`);
  const white = game.fenAt(0).split(" ")[1] === "w";
  const zero = (): Record<Mark, number> => ({ inaccuracy: 0, mistake: 0, blunder: 0 });
  const out: Annotation = { marks: { white: zero(), black: zero() }, acpl: { white: 0, black: 0 } };
  const lossSum = { white: 0, black: 0 };
  const count = { white: 0, black: 0 };
  moves.forEach((move, i) => {
    const side = (i % 2 === 0) === white ? "white" : "black";
    const sign = side === "white" ? 1 : -1;
    const before = sign * cappedCp(evals[i]);
    const after = evals[i + 1].checkmated ? CAP_CP : sign * cappedCp(evals[i + 1]);
    lossSum[side] += Math.max(0, before - after);
    count[side]++;
    const mark = markOf(winningChances(before), winningChances(after));
    const parts = [evals[i + 1].checkmated ? "Checkmate." : `[%eval ${evalText(evals[i + 1])}]`];
    const wdl = evals[i + 1].wdl;
    if (wdl) parts.push(`[%wdl ${wdl.join(" ")}]`);
    if (mark) {
      out.marks[side][mark]++;
      if (!move.nags.includes(MARK_NAGS[mark])) move.nags.push(MARK_NAGS[mark]);
      const best = evals[i].best ?? [];
      const word = mark[0].toUpperCase() + mark.slice(1);
      parts.push(best.length && best[0] !== move.san ? `${word}. ${best[0]} was best: ${best.join(" ")}.` : `${word}.`);
    }
    move.comment = move.comment ? `${move.comment} ${parts.join(" ")}` : parts.join(" ");
  });
  out.acpl = {
    white: count.white ? Math.round(lossSum.white / count.white) : 0,
    black: count.black ? Math.round(lossSum.black / count.black) : 0,
  };
  return out;
}
