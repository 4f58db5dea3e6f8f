// The in-thread rules instance: one Core in the caller's thread that answers position
// questions at once, without a worker round trip and without waiting for a search. Game, the
// PGN reader, the position helpers and every Engine's position queries share it; each user
// names the position it needs, and the instance replays it only when another user has
// changed the board since.

import { Core } from "./core.js";

let loading: Promise<Core> | undefined;
let instance: Core | undefined;
let holder: object | undefined;

/** Loads the instance the first time (and again after a wasm trap made it unusable). */
export async function loadRules(): Promise<Core> {
  if (instance && !instance.crashed) return instance;
  // No hash size: the table is allocated by the first search, and the rules never search.
  loading ??= Core.create().then(
    (core) => {
      instance = core;
      holder = undefined;
      loading = undefined;
      return core;
    },
    (err: unknown) => {
      loading = undefined;
      throw err;
    },
  );
  return loading;
}

/** True when the instance is loaded and usable (not broken by a wasm trap). */
export function rulesReady(): boolean {
  return instance !== undefined && !instance.crashed;
}

/** The loaded instance; throws when loadRules() has not finished yet. */
export function rulesCore(): Core {
  if (!instance) throw new Error("the rules instance is not loaded yet (await loadRules(), Game.create() or Engine.create() first)");
  return instance;
}

/** The instance set to `owner`'s position: `load` sets it up when someone else used the
 *  instance since owner last did. If `load` throws, nobody holds the board. */
export function boardFor(owner: object, load: (core: Core) => void): Core {
  const core = rulesCore();
  if (holder !== owner) {
    holder = undefined;
    load(core);
    holder = owner;
  }
  return core;
}

/** Records that the board now holds `owner`'s position (owner set it up directly). */
export function claimBoard(owner: object): void {
  holder = owner;
}

/** Records that the board holds nobody's position (it was set up for a question only). */
export function forgetBoard(): void {
  holder = undefined;
}

/** Records that `owner`'s position is no longer what the board holds (owner changed its
 *  position without playing it on the board, as an undo does). */
export function releaseBoard(owner: object): void {
  if (holder === owner) holder = undefined;
}
