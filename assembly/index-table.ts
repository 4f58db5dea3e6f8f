// The shared module's entry (build/wasmchess-table.wasm): the transposition table (table.ts)
// and the shared header (shared.ts) over a shared memory that the host gives, for the threads
// of one search (Lazy SMP). Each thread's engine instance has its own memory and calls these
// through its host imports (host.ts); each thread instantiates this module over the same
// memory. Built with an imported shared memory that is assumed zero (no data segment is
// written at instantiation, so a new thread's instance leaves the others' table alone) and
// the stub runtime: nothing here allocates.

import { probeEntry } from "./table";

export { saveEntry, newGeneration, resizeTable, clearTable, hashfull, tableSizeMb, HASH_MIN_MB, HASH_MAX_MB } from "./table";

/** probeEntry's data word as the bits of an f64, for the engine's import (host.ts says why). */
export function probeEntryBits(key: u64): f64 {
  return reinterpret<f64>(probeEntry(key));
}
export { probePerft, storePerft } from "./perft-table";
export {
  stopRequested, requestStop, clearStop, publishNodes, totalNodes, publishTbHits, totalTbHits, setThreadCount, threadCount,
} from "./shared";
