// Keeps the UCI process's heap small between searches (Node only). Without it V8 lets the
// garbage of the search info (messages from the worker, formatted lines) pile up in the old
// generation and grows the young one, so resident memory rises by about 1 MB per 1,000
// searches (bench/soak.ts). Here the young generation stays at its smallest size and a full
// collection runs after a bestmove once the heap has grown by COLLECT_AFTER_BYTES: the engine
// is idle then, and a collection of a heap this small takes a few milliseconds.

import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

const COLLECT_AFTER_BYTES = 2 << 20;

let collect: (() => void) | undefined;
let usedAfterCollect = 0;

/** Call once at start-up, before the worker starts (its heap is configured from these flags). */
export function limitYoungGeneration(): void {
  setFlagsFromString("--max-semi-space-size=1");
  setFlagsFromString("--semi-space-growth-factor=1");
}

/** Call when the engine has become idle (after a bestmove). */
export function collectIfGrown(): void {
  const used = getHeapStatistics().used_heap_size;
  if (used - usedAfterCollect < COLLECT_AFTER_BYTES) return;
  if (collect === undefined) {
    // The documented way to reach gc() without a command-line flag: expose it, then take it
    // from a fresh context (which is created with the extension).
    setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc") as () => void;
  }
  collect();
  usedAfterCollect = getHeapStatistics().used_heap_size;
}
