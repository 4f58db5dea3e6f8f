// The module's exports for Syzygy endgame tables: the host registers each table file by its
// name and size and serves its bytes through hostTbRead (host.ts); the engine probes the
// current position's WDL and DTZ values and the values of its legal moves.

import { addFile, clearFiles, setCacheKb, getCacheKb, tbErrorText, tbLargest, tbTableErrors } from "./syzygy";
import { probeWdl, probeDtz, probeRoot, rootMoveAt, rootMoveDtz, rootMoveWdl, rootMoveRank } from "./syzygy-probe";
import { setProbeDepth, setProbeLimit, setRule50 } from "./syzygy-search";

export { TB_MAX_DTZ } from "./syzygy-probe";

/** Registers a table file ("KRvK.rtbw", "KRvK.rtbz"; a directory before the name is
 *  ignored) of size bytes; its file number for hostTbRead, or -1 (tbError says why). */
export function tbAddFile(name: string, size: f64): i32 {
  return addFile(name, size);
}
/** Forgets every registered table file. */
export function tbClear(): void {
  clearFiles();
}
/** Sets the size of the cache of table blocks in KiB (16 to 262,144, rounded down to a
 *  power of two; emptying it). */
export function tbSetCacheKb(kb: i32): void {
  setCacheKb(kb);
}
/** Size of the cache of table blocks in KiB. */
export function tbCacheKb(): i32 {
  return getCacheKb();
}
/** Most pieces of a registered WDL table (0: none). */
export function tbMaxPieces(): i32 {
  return tbLargest;
}
/** Why the last registration or table failed: the file's name and the reason. */
export function tbError(): string {
  return tbErrorText;
}
/** Tables found bad as they were probed, so far (tbError says why the last one was). */
export function tbTableErrorCount(): i32 {
  return tbTableErrors;
}
/** WDL value of the current position (-2..2 from the side to move) or TB_PROBE_FAILED. */
export function tbProbeWdl(): i32 {
  return probeWdl();
}
/** DTZ value of the current position (signed plies, Fathom's convention) or TB_PROBE_FAILED. */
export function tbProbeDtz(): i32 {
  return probeDtz();
}
/** Probes every legal move (Fathom's probe_root): their number, or -1. */
export function tbProbeRoot(): i32 {
  return probeRoot();
}
/** The i-th move of the last tbProbeRoot (as the engine numbers moves; moveText writes it). */
export function tbRootMove(i: i32): i32 {
  return rootMoveAt(i);
}
/** Its DTZ counted from the position probed (1: mate). */
export function tbRootDtz(i: i32): i32 {
  return rootMoveDtz(i);
}
/** Its WDL value given a halfmove clock. */
export function tbRootWdl(i: i32, halfmoves: i32): i32 {
  return rootMoveWdl(i, halfmoves);
}
/** Its rank for ordering root moves (Stockfish's root_probe: TB_MAX_DTZ a sure win, 0 a
 *  draw, -TB_MAX_DTZ a sure loss, between them results the 50-move rule decides). */
export function tbRootRank(i: i32, halfmoves: i32, hasRepeated: bool): i32 {
  return rootMoveRank(i, halfmoves, hasRepeated);
}

/** UCI SyzygyProbeDepth (1 to 100): the least depth at which the search probes positions with
 *  as many pieces as the probe limit. */
export function tbSetProbeDepth(depth: i32): void {
  setProbeDepth(depth);
}
/** UCI SyzygyProbeLimit (0 to 7): the most pieces of a position the search probes. */
export function tbSetProbeLimit(pieces: i32): void {
  setProbeLimit(pieces);
}
/** UCI Syzygy50MoveRule: results the 50-move rule turns into draws score as draws (true, the
 *  default) or as wins and losses. */
export function tbSetRule50(on: bool): void {
  setRule50(on);
}
