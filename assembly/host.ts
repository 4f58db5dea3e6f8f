// The one module through which the core talks to its host: the clock, the stop/ponderhit
// poll, notifications that an info record or a current root move is ready, and the bytes of
// tablebase files.

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

/** Reads length bytes at offset of the registered tablebase file `file` (syzygy.ts) to
 *  the address dest; returns the bytes read, or -1 when the file cannot be read. (dest is
 *  an i32, not a usize: for a usize asc's bindings put an adaptor in between that fails to
 *  find the host's function.) */
// @ts-ignore: decorator
@external("env", "hostTbRead")
export declare function hostTbRead(file: i32, offset: f64, dest: i32, length: i32): i32;

export const POLL_CONTINUE = 0;
export const POLL_STOP = 1;
export const POLL_PONDERHIT = 2;

// The shared module (index-table.ts), given by the host when the threads of a search share
// one transposition table and header: each thread's instance calls the table and the header
// in that module's memory through these. With one thread the engine uses its own (tt.ts and
// control.ts choose), and the host gives stubs that are never called. The signatures use i64
// and i32, never u64 or bool, and the probe returns its data word's bits as an f64: for those
// asc's generated bindings put no JavaScript adaptor between the two modules, so a call goes
// straight from one instance's wasm to the other's.

// @ts-ignore: decorator
@external("table", "probeEntryBits")
export declare function sharedProbeEntry(key: i64): f64;
// @ts-ignore: decorator
@external("table", "saveEntry")
export declare function sharedSaveEntry(key: i64, move: i32, score: i32, staticEval: i32, depth: i32, bound: i32): void;
// @ts-ignore: decorator
@external("table", "newGeneration")
export declare function sharedNewGeneration(): void;
// @ts-ignore: decorator
@external("table", "hashfull")
export declare function sharedHashfull(): i32;
// @ts-ignore: decorator
@external("table", "stopRequested")
export declare function sharedStopRequested(): i32;
// @ts-ignore: decorator
@external("table", "requestStop")
export declare function sharedRequestStop(): void;
// @ts-ignore: decorator
@external("table", "publishNodes")
export declare function sharedPublishNodes(thread: i32, nodes: i64): void;
// @ts-ignore: decorator
@external("table", "totalNodes")
export declare function sharedTotalNodes(): i64;
// @ts-ignore: decorator
@external("table", "publishTbHits")
export declare function sharedPublishTbHits(thread: i32, hits: i64): void;
// @ts-ignore: decorator
@external("table", "totalTbHits")
export declare function sharedTotalTbHits(): i64;
// @ts-ignore: decorator
@external("table", "probePerft")
export declare function sharedProbePerft(key: i64, key2: i64, depth: i32): i64;
// @ts-ignore: decorator
@external("table", "storePerft")
export declare function sharedStorePerft(key: i64, key2: i64, depth: i32, count: i64): void;
