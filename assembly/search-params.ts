// The search's tunable constants (margins, the reduction formula, windows) as named values
// with their ranges, read by the search and written through the UCI options of a tuning
// session (`wasmchess --tune`; bench/spsa.ts tunes them), and the switches that turn each
// selectivity feature off (UCI "Debug Search Features"). The defaults are the engine's.

export const PARAM_ASPIRATION_WINDOW = 0;
export const PARAM_RFP_MARGIN = 1;
export const PARAM_NULL_MOVE_DIVISOR = 2;
export const PARAM_LMP_BASE = 3;
export const PARAM_HISTORY_PRUNE_MARGIN = 4;
export const PARAM_FUTILITY_BASE = 5;
export const PARAM_FUTILITY_PER_DEPTH = 6;
export const PARAM_SEE_QUIET_MARGIN = 7;
export const PARAM_SEE_CAPTURE_MARGIN = 8;
export const PARAM_LMR_BASE = 9;
export const PARAM_LMR_DIVISOR = 10;
export const PARAM_LMR_HISTORY_DIVISOR = 11;
export const PARAM_DOUBLE_EXTENSION_MARGIN = 12;
export const PARAM_DELTA_MARGIN = 13;
// The Monte Carlo search's (mcts.ts): the exploration constant at the first visits, the
// first-play urgency's reduction, the policy's softmax temperature (hundredths), the visit
// of a node from which its policy is the quiescence search's scores of its moves rather than
// their static scores (0: never), and the depth of the leaves' searches (0: the quiescence
// search).
export const PARAM_MCTS_CPUCT = 14;
export const PARAM_MCTS_FPU_REDUCTION = 15;
export const PARAM_MCTS_POLICY_TEMPERATURE = 16;
export const PARAM_MCTS_POLICY_SEARCH = 17;
export const PARAM_MCTS_LEAF_DEPTH = 18;
// The time allocation's (timeman.ts): the moves assumed left at the start of a sudden-death
// game and at least later, the share of the increment added to the soft budget (percent), the
// growth factor a new iteration must fit (hundredths) and the hard limit as a multiple of the
// soft budget (hundredths).
export const PARAM_TIME_MOVES_LEFT = 19;
export const PARAM_TIME_MIN_MOVES_LEFT = 20;
export const PARAM_TIME_INCREMENT_SHARE = 21;
export const PARAM_TIME_ITERATION_GROWTH = 22;
export const PARAM_TIME_HARD_FACTOR = 23;
export const PARAM_COUNT = 24;

// The UCI option names (as the chess programming community names the technique).
const NAMES: StaticArray<string> = [
  "Aspiration Window", "RFP Margin", "Null Move Eval Divisor", "LMP Base", "History Prune Margin",
  "Futility Base", "Futility Per Depth", "SEE Quiet Margin", "SEE Capture Margin",
  "LMR Base", "LMR Divisor", "LMR History Divisor", "Double Extension Margin", "Delta Margin",
  "MCTS CPuct", "MCTS FPU Reduction", "MCTS Policy Temperature", "MCTS Policy Search Visits", "MCTS Leaf Depth",
  "Time Moves Left", "Time Min Moves Left", "Time Increment Share", "Time Iteration Growth", "Time Hard Factor",
];
// Centipawns, except: LMP Base in quiet moves, History Prune Margin and LMR History Divisor in
// history units, LMR Base, LMR Divisor and the MCTS parameters in hundredths; the time
// parameters as above.
const DEFAULTS: StaticArray<i32> = [18, 75, 200, 3, 3000, 100, 90, 60, 110, 75, 225, 8000, 20, 200, 100, 30, 100, 2, 0, 40, 20, 75, 120, 450];
const MINS: StaticArray<i32> = [5, 20, 60, 1, 500, 0, 20, 10, 20, 0, 100, 2000, 0, 50, 10, 0, 10, 0, 0, 10, 5, 0, 50, 100];
const MAXS: StaticArray<i32> = [60, 200, 500, 10, 10000, 300, 200, 200, 300, 200, 400, 30000, 60, 500, 1000, 200, 1000, 1000000, 8, 100, 60, 100, 300, 1000];

const values = new StaticArray<i32>(PARAM_COUNT);
for (let i = 0; i < PARAM_COUNT; i++) unchecked((values[i] = DEFAULTS[i]));

/** The value of parameter i (an index below PARAM_COUNT). */
// @ts-ignore: decorator
@inline export function param(i: i32): i32 {
  return unchecked(values[i]);
}

/** Sets parameter i, clamped to its range. Returns false for an unknown index. */
export function setParam(i: i32, value: i32): bool {
  if (i < 0 || i >= PARAM_COUNT) return false;
  unchecked((values[i] = min(max(value, MINS[i]), MAXS[i])));
  return true;
}

/** The parameter count, and each parameter's name, value, default and range by index, for
 *  the bindings (a name of "" and zeros for an unknown index). */
export function paramCount(): i32 {
  return PARAM_COUNT;
}

// @ts-ignore: decorator
@inline function known(i: i32): bool {
  return i >= 0 && i < PARAM_COUNT;
}

export function paramName(i: i32): string {
  return known(i) ? NAMES[i] : "";
}

export function paramValue(i: i32): i32 {
  return known(i) ? param(i) : 0;
}

export function paramDefault(i: i32): i32 {
  return known(i) ? DEFAULTS[i] : 0;
}

export function paramMin(i: i32): i32 {
  return known(i) ? MINS[i] : 0;
}

export function paramMax(i: i32): i32 {
  return known(i) ? MAXS[i] : 0;
}

// ---------------------------------------------------------------- selectivity switches
// Each selectivity feature can be switched off (UCI "Debug Search Features") to measure it.
export const FEATURE_NULL_MOVE = 1;
export const FEATURE_LMR = 2;
export const FEATURE_REVERSE_FUTILITY = 4;
export const FEATURE_FUTILITY = 8;
export const FEATURE_LMP = 16;
export const FEATURE_SEE_PRUNING = 32;
export const FEATURE_ASPIRATION = 64;
export const FEATURE_CHECK_EXTENSION = 128;
export const FEATURE_IIR = 256;
export const FEATURE_SINGULAR = 512;
export const FEATURE_CORRECTION = 1024;
export const FEATURE_CUT_NODE = 2048;
export const FEATURE_HISTORY_PRUNING = 4096;
// 8192 was razoring: removed after it lost tactics and an SPRT (docs/search.md).
export const FEATURE_DOUBLE_EXTENSION = 16384;
export const FEATURE_PIECE_CORRECTION = 32768;
export const FEATURE_ALL = 65535;
export let features: i32 = FEATURE_ALL;

/** Enables the selectivity features in mask (FEATURE_*). */
export function setFeatures(mask: i32): void {
  features = mask & FEATURE_ALL;
}

/** True when the selectivity feature (FEATURE_*) is enabled. */
// @ts-ignore: decorator
@inline export function featureOn(feature: i32): bool {
  return (features & feature) != 0;
}
