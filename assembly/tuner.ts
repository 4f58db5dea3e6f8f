// The tuners' entry points into the core: a position resolved to a quiet one (the leaf of a
// quiescence search's principal variation, as Texel tuning needs), and the evaluation trace
// of that quiet position written to an output buffer the host reads (trace.ts, weights.ts).
//
// Output per position (i32 words):
//   0 status: TRACE_OK, TRACE_SPECIAL (an evaluation the weights do not describe), TRACE_BAD_RECORD
//   1 phase (0 endgame .. PHASE_MAX), 2 endgame scale (of 64), 3 the evaluation (white's view)
//   4..8  white king zone: attack counts (0/1), knights, bishops, rooks, queens attacking it
//   9..13 black king zone: the same
//   14 n, then n words (weight index << 16) | (coefficient & 0xffff), coefficient white - black

import { Move, MOVE_NONE, WHITE, KNIGHT, QUEEN } from "./types";
import { doMove, undoMove, sideToMove } from "./position";
import { generateMoves, moveList, moveAt, GEN_NOISY } from "./movegen";
import { seeGe } from "./see";
import { evaluate, evaluateWithReport, lastPhase, lastScale } from "./eval";
import { traceClear, traceCoef, traceKingAttack, traceSpecial, setTracing, TRACE } from "./trace";
import { WEIGHT_COUNT } from "./weights";
import { unpackRecord } from "./packed-board";
import { rootPvMove, rootPvLength } from "./think";

export const TRACE_OK = 0;
export const TRACE_SPECIAL = 1;
export const TRACE_BAD_RECORD = 2;
export const TRACE_HEADER = 15;

const QS_MAX_PLY = 24;
const qsPv = new StaticArray<u16>(QS_MAX_PLY * QS_MAX_PLY);
const qsPvLength = new StaticArray<i32>(QS_MAX_PLY + 1);
const leafMoves = new StaticArray<u16>(256);

/** True in the tuning build, whose evaluation records its trace. */
export function traceAvailable(): bool {
  return TRACE;
}

/** Quiescence search (captures and promotions that do not lose material) with its PV. */
function qsearch(alpha: i32, beta: i32, ply: i32): i32 {
  unchecked((qsPvLength[ply] = 0));
  const standPat = evaluate();
  if (standPat >= beta || ply >= QS_MAX_PLY - 1) return standPat;
  if (standPat > alpha) alpha = standPat;
  let best = standPat;
  const list = moveList(ply);
  const n = generateMoves(GEN_NOISY, list);
  for (let i = 0; i < n; i++) {
    const m = moveAt(list, i);
    if (!seeGe(m, 0)) continue;
    doMove(m);
    const score = -qsearch(-beta, -alpha, ply + 1);
    undoMove(m);
    if (score <= best) continue;
    best = score;
    if (score > alpha) {
      alpha = score;
      copyPv(ply, m);
      if (score >= beta) break;
    }
  }
  return best;
}

function copyPv(ply: i32, m: Move): void {
  const base = ply * QS_MAX_PLY;
  const child = (ply + 1) * QS_MAX_PLY;
  const len = unchecked(qsPvLength[ply + 1]);
  unchecked((qsPv[base] = m));
  for (let i = 0; i < len; i++) unchecked((qsPv[base + 1 + i] = qsPv[child + i]));
  unchecked((qsPvLength[ply] = len + 1));
}

/** Plays the quiescence PV from the current position; returns how many moves it played. */
function playQuietLine(first: i32): i32 {
  qsearch(-32001, 32001, 0);
  const len = min(qsPvLength[0], 256 - first);
  for (let i = 0; i < len; i++) {
    const m = <Move>qsPv[i];
    leafMoves[first + i] = m;
    doMove(m);
  }
  return len;
}

function undoLine(count: i32): void {
  for (let i = count - 1; i >= 0; i--) undoMove(<Move>leafMoves[i]);
}

/** Traces the current position into out at word `at`; returns the words written. */
function traceInto(out: StaticArray<i32>, at: i32): i32 {
  traceClear();
  setTracing(true);
  const v = evaluateWithReport();
  setTracing(false);
  out[at] = traceSpecial ? TRACE_SPECIAL : TRACE_OK;
  out[at + 1] = lastPhase;
  out[at + 2] = lastScale;
  out[at + 3] = sideToMove == WHITE ? v : -v;
  for (let c = 0; c < 2; c++) {
    out[at + 4 + c * 5] = traceKingAttack[c * 8];
    for (let pt = KNIGHT; pt <= QUEEN; pt++) out[at + 4 + c * 5 + pt - 1] = traceKingAttack[c * 8 + pt];
  }
  let n = 0;
  for (let w = 0; w < WEIGHT_COUNT; w++) {
    const coef = unchecked(traceCoef[w]);
    if (coef != 0) out[at + TRACE_HEADER + n++] = (w << 16) | (coef & 0xffff);
  }
  out[at + 14] = n;
  return TRACE_HEADER + n;
}

/** Room for the traces of `records` positions. */
export function traceWordsFor(records: i32): i32 {
  return records * (TRACE_HEADER + WEIGHT_COUNT);
}

/** Traces `count` records from `records` (32 bytes each) into out, each after resolving it
 *  to a quiet position when `quiet`; returns the words written. A bad record gets
 *  TRACE_BAD_RECORD and a header of zeros. The current position is changed. */
export function traceRecords(records: usize, count: i32, quiet: bool, out: StaticArray<i32>): i32 {
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (unpackRecord(records + <usize>i * 32) != 0) {
      for (let k = 0; k < TRACE_HEADER; k++) out[at + k] = 0;
      out[at] = TRACE_BAD_RECORD;
      at += TRACE_HEADER;
      continue;
    }
    const played = quiet ? playQuietLine(0) : 0;
    at += traceInto(out, at);
    undoLine(played);
  }
  return at;
}

/** Traces the quiet leaf of the last search's principal variation (TD-Leaf); the current
 *  position is unchanged. Returns the words written. */
export function tracePvLeaf(out: StaticArray<i32>): i32 {
  const len = min(rootPvLength(0), 128);
  let played = 0;
  for (let i = 0; i < len; i++) {
    const m = rootPvMove(0, i);
    if (m == MOVE_NONE) break;
    leafMoves[played++] = m;
    doMove(m);
  }
  played += playQuietLine(played);
  const words = traceInto(out, 0);
  undoLine(played);
  return words;
}
