// Scores for people: the engine reports them from the side to move's view in centipawns or
// moves to mate; the page shows them from White's view ("+0.35", "#3", "#-2") and as the
// share of the evaluation bar that is White's; the engine's win/draw/loss estimate (permille,
// side to move) is shown from White's view too, in percent.

import type { Score } from "wasmchess";
import type { Side } from "./fen-facts.js";

/** The score from White's view. */
export function whiteView(score: Score, sideToMove: Side): Score {
  if (sideToMove === "w") return score;
  return "mate" in score ? { mate: -score.mate } : { cp: -score.cp };
}

/** "+0.35", "-1.20", "0.00", "#3" (White mates in 3), "#-2" (Black mates in 2). */
export function formatScore(white: Score): string {
  if ("mate" in white) return `#${white.mate}`;
  const pawns = white.cp / 100;
  return (pawns > 0 ? "+" : "") + pawns.toFixed(2);
}

/** Words for a screen reader: "White is better by 0.35 pawns", "Black mates in 2". */
export function describeScore(white: Score): string {
  if ("mate" in white) return white.mate > 0 ? `White mates in ${white.mate}` : `Black mates in ${-white.mate}`;
  if (white.cp === 0) return "equal";
  return `${white.cp > 0 ? "White" : "Black"} is better by ${(Math.abs(white.cp) / 100).toFixed(2)} pawns`;
}

/** White's share of the evaluation bar, 0 to 100: a logistic curve of the centipawns (the
 *  one lichess's bar uses), a full bar for a mate. */
export function barShare(white: Score): number {
  if ("mate" in white) return white.mate > 0 ? 100 : 0;
  const winningChances = 2 / (1 + Math.exp(-0.00368208 * white.cp)) - 1;
  return 50 + 50 * winningChances;
}

/** Win, draw, loss in permille (the engine's SearchInfo.wdl order). */
export type Wdl = readonly [number, number, number];

/** The win/draw/loss from White's view (the engine reports it for the side to move). */
export function whiteWdl(wdl: Wdl, sideToMove: Side): Wdl {
  return sideToMove === "w" ? wdl : [wdl[2], wdl[1], wdl[0]];
}

/** Permille to whole percent. */
const percent = (permille: number): number => Math.round(permille / 10);

/** "W 45% D 40% L 15%" (White's win, draw, loss). */
export function formatWdl(white: Wdl): string {
  return `W ${percent(white[0])}% D ${percent(white[1])}% L ${percent(white[2])}%`;
}

/** Words for a screen reader: "White wins 45%, draw 40%, Black wins 15%". */
export function describeWdl(white: Wdl): string {
  return `White wins ${percent(white[0])}%, draw ${percent(white[1])}%, Black wins ${percent(white[2])}%`;
}
