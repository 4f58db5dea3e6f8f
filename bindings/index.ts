// The package's public entry point: position helpers and perft on a shared engine instance.

import { Core, DivideEntry, GameStatus, START_FEN, MAX_PERFT_DEPTH, EngineCrashError } from "./core.js";

export { Core, START_FEN, MAX_PERFT_DEPTH, EngineCrashError };
export type { DivideEntry, GameStatus };

let shared: Promise<Core> | undefined;

/** The shared instance behind the helper functions, recreated after a crash. */
async function core(): Promise<Core> {
  let c = shared ? await shared.catch(() => undefined) : undefined;
  if (!c || c.crashed) {
    shared = Core.create();
    c = await shared;
  }
  return c;
}

async function at<T>(fen: string, fn: (c: Core) => T): Promise<T> {
  const c = await core();
  c.setPosition(fen);
  return fn(c);
}

/** Leaf nodes of the legal move tree from fen to depth (bulk counted). */
export function perft(fen: string, depth: number): Promise<number> {
  return at(fen, (c) => c.perft(depth));
}

/** Perft below each root move of fen. */
export function divide(fen: string, depth: number): Promise<DivideEntry[]> {
  return at(fen, (c) => c.divide(depth));
}

/** Legal moves of fen in UCI notation. */
export function legalMoves(fen: string): Promise<string[]> {
  return at(fen, (c) => c.legalMoves());
}

/** SAN of the UCI move in fen. */
export function toSan(fen: string, uci: string): Promise<string> {
  return at(fen, (c) => c.toSan(uci));
}

/** UCI text of the SAN move in fen. */
export function fromSan(fen: string, san: string): Promise<string> {
  return at(fen, (c) => c.fromSan(san));
}
