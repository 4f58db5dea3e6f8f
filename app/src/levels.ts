// Playing strength: the levels the page offers (the engine's Elo limit, or full strength), and
// the one function that turns the clocks into what the engine is asked to do for its move.

import type { SearchLimits } from "wasmchess";

export interface Level {
  /** The select's value: the Elo, or "full". */
  readonly value: string;
  readonly name: string;
  /** The engine's Elo limit (Engine.setElo); null for full strength. */
  readonly elo: number | null;
}

/** The clocks as the engine's search limits take them (milliseconds). */
export interface ClockLimits {
  wtime: number;
  btime: number;
  winc: number;
  binc: number;
}

/** Elo levels on the engine's scale (1000–2100, calibrated against Stockfish 15.1's UCI_Elo:
 *  README "Strength levels"). */
const ELOS = [1000, 1200, 1400, 1600, 1800, 2000, 2100] as const;

export const LEVELS: readonly Level[] = [
  ...ELOS.map((elo) => ({ value: String(elo), name: `${elo} Elo`, elo })),
  { value: "full", name: "Full strength", elo: null },
];

/** The level a game starts at unless the user picks another. */
export const DEFAULT_LEVEL = "1200";

/** The move time of a game without a clock (milliseconds). */
export const MOVE_TIME_MS = 1_000;

/** The level of a select's value (full strength for an unknown one). */
export function levelOf(value: string): Level {
  return LEVELS.find((l) => l.value === value) ?? LEVELS[LEVELS.length - 1];
}

/** The search limits of the engine's move: the clocks when the game has them, else a fixed
 *  move time. The level is not here: it is the engine's Elo limit, set once per game
 *  (Engine.setElo), and a weaker level searches shallower within the same limits. */
export function levelLimits(clock?: ClockLimits): SearchLimits {
  if (!clock) return { movetime: MOVE_TIME_MS };
  return {
    wtime: Math.max(0, Math.floor(clock.wtime)),
    btime: Math.max(0, Math.floor(clock.btime)),
    winc: clock.winc,
    binc: clock.binc,
  };
}
