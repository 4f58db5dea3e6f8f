// Strength levels, after Stockfish's Skill: a skill level from 0 to 20 (20 is full strength;
// fractional levels come from the Elo scale, see bindings/strength.ts) stops the search at a
// shallow depth and chooses among its best lines with an error that grows as the level falls.
// The mistakes stay plausible: the move is always one of the best few lines of that search,
// a line losing more is taken less often, and the chance of a worse line never exceeds what
// a pawn's difference allows.

import { MAX_PLY } from "./types";

export const SKILL_MAX: f64 = 20;
/** Lines the choice is made among (the search's MultiPV is raised to this). */
export const SKILL_LINES = 4;
/** The largest score gap (centipawns) the random part of the error may bridge. */
const SKILL_DELTA_CAP = 100;

let level: f64 = SKILL_MAX;
// xorshift64*: seeded by the host (setSkillSeed), else from the clock at the first choice.
let rng: u64 = 0;

/** Sets the skill level (clamped to 0..20; 20 switches the weakening off). */
export function setSkillLevel(l: f64): void {
  level = min(max(l, 0), SKILL_MAX);
}

/** The skill level in effect. */
export function skillLevel(): f64 {
  return level;
}

/** Seeds the choice's random numbers (0: from the clock at the next choice). */
export function setSkillSeed(seed: u64): void {
  rng = seed;
}

/** True below full strength. */
export function skillEnabled(): bool {
  return level < SKILL_MAX;
}

/** The depth at which the move is chosen: 1 at levels below 2, then one ply more per two
 *  levels (10 at level 18-19). */
export function skillDepth(): i32 {
  return min(1 + <i32>Math.floor(level / 2), MAX_PLY - 1);
}

/** How far the choice strays from the best line, in 128ths of a score difference: 120 at
 *  level 0, 5 less per level (25 at level 19). */
export function skillWeakness(): i32 {
  return max(<i32>Math.round(120 - 5 * level), 1);
}

function nextRandom(seedFromClock: f64): u64 {
  if (rng == 0) rng = (<u64>(seedFromClock * 1000.0) ^ 0x9e3779b97f4a7c15) | 1;
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return rng * 2685821657736338717;
}

/** Chooses among the n best lines, whose scores (i32) are at `scores`, the best first: each line
 *  gets back part of what it loses to the best (weakness/128 of it) and a random push of up
 *  to weakness/128 of the gap between the best and the last line (at most a pawn); the line
 *  with the highest total is played. Returns its index. */
export function skillPick(scores: usize, n: i32, now: f64): i32 {
  const top = load<i32>(scores);
  const delta = min(top - load<i32>(scores + (<usize>(n - 1) << 2)), SKILL_DELTA_CAP);
  const weakness = skillWeakness();
  let best = 0;
  let bestTotal = i32.MIN_VALUE;
  for (let i = 0; i < n; i++) {
    const score = load<i32>(scores + (<usize>i << 2));
    const push = (weakness * (top - score) + delta * <i32>(nextRandom(now) % <u64>weakness)) / 128;
    const total = score + push;
    if (total > bestTotal) {
      bestTotal = total;
      best = i;
    }
  }
  return best;
}
