// The module's exports for tuning the hand-crafted evaluation: the evaluation's weights by
// index, and traces of positions (the coefficient of every weight), for the Texel and
// TD-Leaf tuners (learn/). They work in the tuning build only (build/wasmchess-tune.wasm,
// built with EVAL_TRACE); elsewhere they answer nothing, and the compiler drops what they
// would use.

import { traceAvailable, traceRecords, tracePvLeaf, traceWordsFor } from "./tuner";
import { WEIGHT_COUNT, weightName, weightKind, getWeight, setWeight, checkWeightLayout } from "./weights";
import { initParams } from "./params";
import { TRACE } from "./trace";
import { clearPawnTable } from "./pawns";
import { recordBuffer, RECORD_CAPACITY } from "./api-records";

// Host I/O, not search state: the trace of the records the host asked about.
let traceOut: StaticArray<i32> | null = null;

function traceArea(): StaticArray<i32> {
  if (traceOut == null) traceOut = new StaticArray<i32>(traceWordsFor(RECORD_CAPACITY));
  return traceOut!;
}

/** True in the tuning build (build/wasmchess-tune.wasm), whose evaluation can be traced. */
export function evalTraceAvailable(): bool {
  return traceAvailable();
}
/** Traces record slots 0..count-1 (see tuner.ts for the output); returns the words written,
 *  readable at traceBuffer(). The current position is changed. */
export function traceRecordSlots(count: i32, quiet: bool): i32 {
  return TRACE ? traceRecords(recordBuffer(), min(count, RECORD_CAPACITY), quiet, traceArea()) : 0;
}
/** Traces the quiet leaf of the last search's principal variation. */
export function tracePrincipalLeaf(): i32 {
  return TRACE ? tracePvLeaf(traceArea()) : 0;
}
/** Address of the trace output. */
export function traceBuffer(): usize {
  return TRACE ? changetype<usize>(traceArea()) : 0;
}
export function weightCount(): i32 {
  return TRACE ? WEIGHT_COUNT : 0;
}
export function weightNameAt(i: i32): string {
  return TRACE && i >= 0 && i < WEIGHT_COUNT ? weightName(i) : "";
}
/** 0: packed S(mg, eg); 1: plain integer. */
export function weightKindAt(i: i32): i32 {
  return TRACE ? weightKind(i) : 0;
}
export function weightValue(i: i32): i32 {
  return TRACE && i >= 0 && i < WEIGHT_COUNT ? getWeight(i) : 0;
}
/** Sets weight i; call weightsChanged() after a batch. */
export function setWeightValue(i: i32, v: i32): void {
  if (TRACE && i >= 0 && i < WEIGHT_COUNT) setWeight(i, v);
}
/** Rebuilds the derived tables and forgets cached pawn entries after weights changed. */
export function weightsChanged(): void {
  if (!TRACE) return;
  initParams();
  clearPawnTable();
}
export function weightLayoutError(): string {
  return TRACE ? checkWeightLayout() : "";
}
