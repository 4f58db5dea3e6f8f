// The module's exports for learning data: positions packed into 32-byte records (see
// packed-board.ts) in a buffer the host reads and writes, for data generation, the trainers
// and the tuners (learn/).

import { MOVE_NONE, PROMOTION, moveFlag } from "./types";
import { RECORD_BYTES, packRecord, unpackRecord, recordErrorText } from "./packed-board";
import { parseUciMove, isCapture } from "./notation";

/** Records the host can read and write at recordBuffer(): RECORD_BYTES (32) each. */
export const RECORD_CAPACITY = 4096;
// Host I/O, not search state: only the instance the host talks to uses it.
const recordArea: usize = memory.data(RECORD_CAPACITY * <i32>RECORD_BYTES, 16);

/** Address of the record area in memory (records of 32 bytes, see packed-board.ts). */
export function recordBuffer(): usize {
  return recordArea;
}
export function recordCapacity(): i32 {
  return RECORD_CAPACITY;
}
/** Writes the current position with a score (white's view) and result (0 black won, 1 draw,
 *  2 white won) to record slot i. */
export function packPosition(i: i32, score: i32, result: i32): void {
  packRecord(recordArea + <usize>(i & (RECORD_CAPACITY - 1)) * RECORD_BYTES, score, result);
}
/** Sets the position from record slot i; returns 0 or an error code (the old position stays). */
export function unpackPosition(i: i32): i32 {
  return unpackRecord(recordArea + <usize>(i & (RECORD_CAPACITY - 1)) * RECORD_BYTES);
}
/** Text of the last record error. */
export function recordError(): string {
  return recordErrorText;
}
/** True when a legal UCI move is a capture or a promotion. */
export function isNoisyUci(text: string): bool {
  const m = parseUciMove(text);
  return m != MOVE_NONE && (isCapture(m) || moveFlag(m) == PROMOTION);
}
