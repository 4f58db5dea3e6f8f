// The one module through which the core talks to its host: the clock, the stop/ponderhit
// poll, and notifications that an info record or a current root move is ready.

/** Milliseconds from a monotonic clock. */
// @ts-ignore: decorator
@external("env", "hostNow")
export declare function hostNow(): f64;

/** The host's pending command: POLL_CONTINUE, POLL_STOP or POLL_PONDERHIT. */
// @ts-ignore: decorator
@external("env", "hostPoll")
export declare function hostPoll(): i32;

/** An iteration's info record is ready to be read through the info exports. */
// @ts-ignore: decorator
@external("env", "hostInfo")
export declare function hostInfo(): void;

/** The root move being searched (UCI currmove / currmovenumber). */
// @ts-ignore: decorator
@external("env", "hostCurrMove")
export declare function hostCurrMove(move: i32, number: i32, depth: i32): void;

export const POLL_CONTINUE = 0;
export const POLL_STOP = 1;
export const POLL_PONDERHIT = 2;
