// Score constants and the packed midgame/endgame score used by the evaluation.

import { MAX_PLY } from "./types";

export const VALUE_ZERO = 0;
export const VALUE_DRAW = 0;
export const VALUE_MATE = 32000;
export const VALUE_INFINITE = 32001;
export const VALUE_NONE = 32002;
/** Scores at or beyond this are mates found within the search horizon. */
export const VALUE_MATE_IN_MAX_PLY = VALUE_MATE - MAX_PLY;
export const VALUE_MATED_IN_MAX_PLY = -VALUE_MATE_IN_MAX_PLY;
/** A tablebase win found at ply p scores VALUE_TB_WIN - p: below every mate the search
 *  finds, above every evaluation (Stockfish's VALUE_TB range). */
export const VALUE_TB_WIN = VALUE_MATE_IN_MAX_PLY - 1;
/** Scores at or beyond this are tablebase wins (or mates). */
export const VALUE_TB_WIN_IN_MAX_PLY = VALUE_TB_WIN - MAX_PLY;
export const VALUE_TB_LOSS_IN_MAX_PLY = -VALUE_TB_WIN_IN_MAX_PLY;
/** A won position that is not a found mate (mop-up endgames) stays below this. */
export const VALUE_KNOWN_WIN = 10000;

/** Score of delivering mate `ply` plies from the root. */
// @ts-ignore: decorator
@inline export function mateIn(ply: i32): i32 {
  return VALUE_MATE - ply;
}

/** Score of being mated `ply` plies from the root. */
// @ts-ignore: decorator
@inline export function matedIn(ply: i32): i32 {
  return -VALUE_MATE + ply;
}

/** True for scores that announce a mate. */
// @ts-ignore: decorator
@inline export function isMateScore(v: i32): bool {
  return v >= VALUE_MATE_IN_MAX_PLY || v <= VALUE_MATED_IN_MAX_PLY;
}

// A packed score holds a midgame and an endgame value in one i32, as Stockfish's Score:
// the endgame value in the upper 16 bits, the midgame value (signed) in the lower 16,
// so that sums of packed scores add both halves at once.

/** Packs a midgame and an endgame value. */
// @ts-ignore: decorator
@inline export function S(mg: i32, eg: i32): i32 {
  return (eg << 16) + mg;
}

/** Midgame half of a packed score. */
// @ts-ignore: decorator
@inline export function mgValue(s: i32): i32 {
  return <i32>(<i16>s);
}

/** Endgame half of a packed score. */
// @ts-ignore: decorator
@inline export function egValue(s: i32): i32 {
  return <i32>(<i16>((s + 0x8000) >> 16));
}
