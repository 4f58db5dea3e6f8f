// Syzygy tables in the search, as Stockfish uses them: the UCI options, the ranking of the
// root moves before a search (by DTZ, or by WDL where the DTZ tables are missing), the WDL
// probe at interior nodes after a capture or pawn move, the scores of tablebase results
// (below every mate the search finds), and the count of probes (UCI tbhits).
//
// A root in the tables is ranked by DTZ: every move that keeps the best result within the
// 50-move rule ranks equally and the search picks among them, the others rank below and are
// not searched for the best line (think.ts searches the best rank's moves only), so a won
// position is converted and a drawn one held; the search then has no need to probe (as in
// Stockfish, cardinality drops to 0). With WDL tables only, a won root keeps the probes on.

import { castlingRights, occupied, rule50, hasRepeated } from "./position";
import { popcount } from "./bitboard";
import { Move } from "./types";
import { ROOT_MAX } from "./arena";
import { tbLargest } from "./syzygy";
import { probeWdl, probeRoot, probeRootWdl, rootMoveAt, rootMoveRank, TB_PROBE_FAILED, TB_MAX_DTZ } from "./syzygy-probe";
import { VALUE_DRAW, VALUE_TB_WIN } from "./score";

// ---------------------------------------------------------------- options

/** UCI SyzygyProbeDepth: the least depth at which positions with as many pieces as the
 *  probe limit are probed (those with fewer are probed at any depth). */
export let probeDepthOption = 1;
/** UCI SyzygyProbeLimit: the most pieces of a position probed (0: none). */
export let probeLimitOption = 7;
/** UCI Syzygy50MoveRule: cursed wins and blessed losses (a result the 50-move rule turns
 *  into a draw) score as draws; false scores them as wins and losses. */
export let rule50Option = true;

export function setProbeDepth(depth: i32): void {
  probeDepthOption = min(max(depth, 1), 100);
}
export function setProbeLimit(pieces: i32): void {
  probeLimitOption = min(max(pieces, 0), 7);
}
export function setRule50(on: bool): void {
  rule50Option = on;
}

// ---------------------------------------------------------------- per search

/** Pieces up to which the search probes in this search (0: none). */
export let cardinality = 0;
/** The least depth for positions with `cardinality` pieces (0 when below the probe limit's
 *  tables: every depth). */
let depthForLimit = 1;
/** The root is in the tables: its moves are ranked (rootRank) and its scores are theirs. */
export let rootInTb = false;
/** Whether a position repeated before the root (the ranking then goes by DTZ). */
let rootRepeated = false;
/** Probes of this thread in the current search (UCI tbhits: a probe that answered). */
export let tbHits: u64 = 0;

/** Before a search: the probe limit from the options and the tables registered, then the
 *  root moves probed. True when the root is in the tables (rootRank then ranks its moves). */
export function prepareTablebases(): bool {
  rootInTb = false;
  tbHits = 0;
  cardinality = probeLimitOption;
  depthForLimit = probeDepthOption;
  if (cardinality > tbLargest) {
    cardinality = tbLargest;
    depthForLimit = 0;
  }
  if (cardinality == 0 || castlingRights != 0 || popcount(occupied()) > cardinality) return false;
  let n = probeRoot();
  let dtzAvailable = true;
  if (n < 0) {
    dtzAvailable = false;
    n = probeRootWdl(rule50Option);
  }
  if (n <= 0) return false;
  rootInTb = true;
  tbHits += <u64>n;
  rootRepeated = hasRepeated();
  let best = -TB_MAX_DTZ;
  for (let i = 0; i < n; i++) best = max(best, rootMoveRank(i, rule50, rootRepeated));
  // With DTZ the ranking converts by itself; with WDL alone a won root needs the probes.
  if (dtzAvailable || tbScore(best) <= VALUE_DRAW) cardinality = 0;
  return true;
}

/** The rank of root move m (0 when the root is not in the tables). */
export function rootRank(m: Move): i32 {
  if (!rootInTb) return 0;
  for (let i = 0; i < ROOT_MAX; i++) {
    const r = rootMoveAt(i);
    if (r == 0) break;
    if (r == m) return rootMoveRank(i, rule50, rootRepeated);
  }
  return 0;
}

/** The score a root move of this rank reports (Stockfish's tbScore): a tablebase win or loss,
 *  a draw, or for a result the 50-move rule decides a score of a few centipawns (3 to 50) as
 *  the win comes nearer; all results are wins and losses when Syzygy50MoveRule is off. */
export function tbScore(rank: i32): i32 {
  const bound = rule50Option ? TB_MAX_DTZ / 2 - 100 : 1;
  if (rank >= bound) return VALUE_TB_WIN;
  if (rank > 0) return max(3, rank - (TB_MAX_DTZ - 200)) / 2;
  if (rank == 0) return VALUE_DRAW;
  if (rank > -bound) return min(-3, rank + (TB_MAX_DTZ - 200)) / 2;
  return -VALUE_TB_WIN;
}

/** The WDL value of an interior node, when this search probes it: a position reached by a
 *  capture or pawn move (halfmove clock 0), without castling rights, with at most the probe
 *  limit's pieces (and then at least its depth). TB_PROBE_FAILED otherwise. */
export function probeInterior(depth: i32): i32 {
  if (cardinality == 0 || rule50 != 0 || castlingRights != 0) return TB_PROBE_FAILED;
  const pieces = popcount(occupied());
  if (pieces > cardinality || (pieces == cardinality && depth < depthForLimit)) return TB_PROBE_FAILED;
  const wdl = probeWdl();
  if (wdl != TB_PROBE_FAILED) tbHits++;
  return wdl;
}
