// Checks of the public API's arguments: search limits and option values. A bad value throws
// a TypeError (wrong type, unknown name, missing limit) or a RangeError (out of range) whose
// message names the argument and the allowed range. The UCI layer clamps instead, with the
// same ranges (see clampLimit).

import type { SearchLimits } from "./search-types.js";

// The engine defines these and exports them (assembly/index.ts); they are restated here
// because arguments are checked before an instance exists (the Engine's instance lives in
// a worker). tests/package/constants.test.ts checks each against the engine's export.

/** Option ranges and defaults (the UCI options Hash, MultiPV, Move Overhead, Debug Search
 *  Features); SEARCH_FEATURES_MAX is the engine's FEATURE_ALL. */
export const HASH_MIN_MB = 1;
export const HASH_MAX_MB = 2048;
/** Largest number of search threads (the UCI Threads option's range). */
export const THREADS_MAX = 256;
export const HASH_DEFAULT_MB = 16;
export const MULTIPV_MAX = 256;
export const MULTIPV_DEFAULT = 1;
export const MOVE_OVERHEAD_MAX_MS = 5000;
export const MOVE_OVERHEAD_DEFAULT_MS = 30;
export const SEARCH_FEATURES_MAX = 65535;

/** Deepest search the engine runs. */
export const MAX_SEARCH_DEPTH = 127;
/** The search modes, by their number in the engine (setSearchMode): alpha-beta, the default,
 *  and Monte Carlo tree search. */
export const SEARCH_MODES = ["alphabeta", "mcts"] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** Checks a search mode's name (a TypeError naming the modes otherwise). */
export function checkSearchMode(name: string, mode: unknown): SearchMode {
  if (!SEARCH_MODES.includes(mode as SearchMode)) {
    throw new TypeError(`${name} must be ${SEARCH_MODES.map((m) => JSON.stringify(m)).join(" or ")}, got ${JSON.stringify(String(mode).slice(0, 40))}`);
  }
  return mode as SearchMode;
}
const I32_MAX = 0x7fffffff;

/** A numeric search limit's allowed values. Times are milliseconds and may be fractional
 *  (they are rounded down); the others are integers. */
export interface LimitRange {
  min: number;
  max: number;
  integer: boolean;
}

export const LIMIT_RANGES = {
  depth: { min: 1, max: MAX_SEARCH_DEPTH, integer: true },
  nodes: { min: 1, max: Number.MAX_SAFE_INTEGER, integer: true },
  mate: { min: 1, max: Math.floor(MAX_SEARCH_DEPTH / 2), integer: true },
  movetime: { min: 1, max: I32_MAX, integer: false },
  wtime: { min: 0, max: I32_MAX, integer: false },
  btime: { min: 0, max: I32_MAX, integer: false },
  winc: { min: 0, max: I32_MAX, integer: false },
  binc: { min: 0, max: I32_MAX, integer: false },
  // 0 means none given (sudden death), as when the field is absent.
  movestogo: { min: 0, max: I32_MAX, integer: true },
} as const satisfies Record<string, LimitRange>;

export type NumericLimit = keyof typeof LIMIT_RANGES;
export const NUMERIC_LIMITS = Object.keys(LIMIT_RANGES) as NumericLimit[];
const FLAG_LIMITS = ["infinite", "ponder"] as const;
/** Every key of SearchLimits. */
export const LIMIT_NAMES: readonly string[] = [...NUMERIC_LIMITS, ...FLAG_LIMITS, "searchmoves"];
/** Limits that end a search on their own; without one, only `infinite: true` is allowed. */
export const ENDING_LIMITS: readonly NumericLimit[] = ["depth", "nodes", "mate", "movetime", "wtime", "btime"];

function show(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? value.slice(0, 40) + "…" : value);
  if (typeof value === "bigint") return `${value}n`;
  if (value === null || typeof value !== "object") return String(value);
  return Array.isArray(value) ? "an array" : "an object";
}

function rangeText(r: LimitRange): string {
  return `${r.integer ? "an integer" : "a number"} from ${r.min} to ${r.max}`;
}

/** A number in range or a RangeError naming `name` ("setHash: mb", "depth") and the range.
 *  Non-integers are refused when `integer`; otherwise they are rounded down. */
export function checkNumber(name: string, value: unknown, range: LimitRange, unit = ""): number {
  const ok =
    typeof value === "number" && Number.isFinite(value) && value >= range.min && value <= range.max && (!range.integer || Number.isInteger(value));
  if (!ok) {
    const kind = typeof value === "number" ? RangeError : TypeError;
    throw new kind(`${name} must be ${rangeText(range)}${unit ? ` (${unit})` : ""}, got ${show(value)}`);
  }
  return range.integer ? (value as number) : Math.floor(value as number);
}

/** An integer in [min, max] or a RangeError/TypeError naming the argument. */
export function checkInteger(name: string, value: unknown, min: number, max: number, unit = ""): number {
  return checkNumber(name, value, { min, max, integer: true }, unit);
}

/** A boolean or a TypeError naming the argument. */
export function checkBoolean(name: string, value: unknown): boolean {
  if (typeof value !== "boolean") throw new TypeError(`${name} must be true or false, got ${show(value)}`);
  return value;
}

/** Refuses keys of an options object that the API does not know (a typo would otherwise be
 *  ignored silently). */
export function checkKeys(what: string, value: unknown, known: readonly string[]): Record<string, unknown> {
  if (value === undefined) return {};
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new TypeError(`${what} must be an object, got ${show(value)}`);
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) throw new TypeError(`unknown ${what} ${JSON.stringify(key)} (known: ${known.join(", ")})`);
  }
  return value as Record<string, unknown>;
}

/** Validated search limits: every field checked, and at least one limit that ends the search
 *  unless `infinite: true`. Returns a copy with times rounded down. */
export function checkLimits(limits: unknown): SearchLimits {
  const given = checkKeys("search limit", limits, LIMIT_NAMES);
  const out: SearchLimits = {};
  for (const name of NUMERIC_LIMITS) {
    if (given[name] !== undefined) out[name] = checkNumber(name, given[name], LIMIT_RANGES[name], name === "depth" || name === "nodes" || name === "mate" || name === "movestogo" ? "" : "milliseconds");
  }
  for (const name of FLAG_LIMITS) {
    if (given[name] !== undefined) out[name] = checkBoolean(name, given[name]);
  }
  if (given.searchmoves !== undefined) {
    const moves = given.searchmoves;
    if (!Array.isArray(moves) || moves.some((m) => typeof m !== "string")) throw new TypeError(`searchmoves must be an array of UCI moves, got ${show(moves)}`);
    out.searchmoves = [...moves];
  }
  if (!out.infinite && !ENDING_LIMITS.some((k) => out[k] !== undefined)) {
    throw new TypeError(`a search needs a limit (${ENDING_LIMITS.join(", ")}) or infinite: true`);
  }
  return out;
}

/** UCI's way: a numeric limit brought into its range. Returns the value to use and, when it
 *  had to change, the `info string` text that reports it. */
export function clampLimit(name: NumericLimit, value: number): { value: number; note?: string } {
  const r = LIMIT_RANGES[name];
  const rounded = r.integer ? Math.round(value) : Math.floor(value);
  const v = Math.min(Math.max(rounded, r.min), r.max);
  if (v === value || (!r.integer && v === rounded && value >= r.min && value <= r.max)) return { value: v };
  const how = v === rounded ? "rounded" : "clamped";
  return { value: v, note: `${name} ${how} to ${v} (range ${r.min}..${r.max})` };
}
