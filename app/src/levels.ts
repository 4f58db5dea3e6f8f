// Playing strength: the levels the page offers and the one function that turns a level (and
// the clocks) into what the engine is asked to do for its move.

import type { SearchLimits } from "wasmchess";

export interface Level {
  readonly value: number;
  readonly name: string;
}

/** The clocks as the engine's search limits take them (milliseconds). */
export interface ClockLimits {
  wtime: number;
  btime: number;
  winc: number;
  binc: number;
}

/** Today's levels: the engine has no strength setting yet, so a level is a fixed search size
 *  (the engine still plays its best move of that search). */
const LEVEL_LIMITS: readonly (SearchLimits & { name: string })[] = [
  { name: "1 (depth 1)", depth: 1 },
  { name: "2 (depth 2)", depth: 2 },
  { name: "3 (1,000 nodes)", nodes: 1_000 },
  { name: "4 (4,000 nodes)", nodes: 4_000 },
  { name: "5 (16,000 nodes)", nodes: 16_000 },
  { name: "6 (64,000 nodes)", nodes: 64_000 },
  { name: "7 (250,000 nodes)", nodes: 250_000 },
  { name: "8 (full strength, 2 s a move)", movetime: 2_000 },
];

export const LEVELS: readonly Level[] = LEVEL_LIMITS.map((l, i) => ({ value: i + 1, name: l.name }));

/** The search limits of the engine's move at `level` (1–8), with the clocks when the game has
 *  them: the level's fixed limit caps the search, the clock ends it sooner when time is short
 *  (level 8 with a clock: the clock alone).
 *
 *  This is the only place where a level becomes engine settings. When the engine gains
 *  UCI_LimitStrength / UCI_Elo / Skill Level, a level becomes a strength option set once per
 *  game, and this function returns the clock (or a move time) alone. */
export function levelLimits(level: number, clock?: ClockLimits): SearchLimits {
  const { name: _name, ...fixed } = LEVEL_LIMITS[Math.min(Math.max(Math.round(level), 1), LEVEL_LIMITS.length) - 1];
  if (!clock) return fixed;
  const timed: SearchLimits = {
    wtime: Math.max(0, Math.floor(clock.wtime)),
    btime: Math.max(0, Math.floor(clock.btime)),
    winc: clock.winc,
    binc: clock.binc,
  };
  return fixed.movetime !== undefined ? timed : { ...fixed, ...timed };
}
