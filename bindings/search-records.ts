// Reading the engine's answers out of its exports into the records of search-types.ts: scores
// (centipawns or moves to mate), win/draw/loss chances, a search's info lines and result, and
// the static evaluation with its terms. Core calls these inside its trap guard.

import type { EngineExports } from "./wasm.js";
import type { SearchInfo, SearchResult, Score, Evaluation } from "./search-types.js";

/** The file name of a network with this content hash. */
export function networkName(hash: number): string {
  return `wcnn-${(hash >>> 0).toString(16).padStart(8, "0")}.nnue`;
}

/** Centipawns a tablebase win reports, less the plies to the position the tables decided
 *  (Stockfish's convention since version 16). */
export const TB_WIN_CP = 20000;

/** Centipawns reported for an internal tablebase-win score v (VALUE_TB_WIN less the plies
 *  to the position the tables decided): TB_WIN_CP less the same plies. */
export function tbWinCp(w: EngineExports, v: number): number {
  return TB_WIN_CP - (w.VALUE_TB_WIN.value - v);
}

/** Converts an internal score to centipawns or moves to mate, by the engine's mate value
 *  and the bound above which scores are mates; a tablebase win (a score between the mates
 *  and the evaluations) is TB_WIN_CP less its plies. */
function toScore(w: EngineExports, v: number): Score {
  const mate = w.VALUE_MATE.value;
  const bound = w.VALUE_MATE_IN_MAX_PLY.value;
  if (v >= bound) return { mate: Math.floor((mate - v + 1) / 2) };
  if (v <= -bound) return { mate: -Math.floor((mate + v) / 2) };
  const tbWin = w.VALUE_TB_WIN.value;
  if (Math.abs(v) >= w.VALUE_TB_WIN_IN_MAX_PLY.value) return { cp: Math.sign(v) * (TB_WIN_CP - (tbWin - Math.abs(v))) };
  return { cp: v };
}

/** The names of the evaluation terms, as the engine numbers them. */
function termNames(w: EngineExports): string[] {
  return Array.from({ length: w.TERM_NB.value }, (_, t) => w.evalTermName(t));
}

/** Win, draw and loss chances (permille) of an internal score in the instance's position
 *  (the search's root when called from an info record). */
function wdlOf(w: EngineExports, score: number): [number, number, number] {
  return [w.scoreWdl(score, 0), w.scoreWdl(score, 1), w.scoreWdl(score, 2)];
}

/** The info line the running search reports now (called from the engine's info hook). */
export function readInfo(w: EngineExports): SearchInfo {
  const timeMs = w.infoTimeMs();
  const nodes = Number(w.infoNodes());
  const bound = w.infoBoundValue();
  const pvText = w.infoPv();
  const info: SearchInfo = {
    depth: w.infoDepthValue(),
    seldepth: w.infoSelDepthValue(),
    multipv: w.infoMultiPvValue(),
    score: toScore(w, w.infoScoreValue()),
    nodes,
    nps: timeMs > 0 ? Math.round((nodes * 1000) / timeMs) : 0,
    hashfull: w.infoHashfull(),
    tbhits: Number(w.infoTbHits()),
    timeMs: Math.round(timeMs),
    pv: pvText ? pvText.split(" ") : [],
    wdl: wdlOf(w, w.infoScoreValue()),
  };
  if (bound === 2) info.bound = "lower";
  else if (bound === 1) info.bound = "upper";
  return info;
}

/** The result of the search that has just ended; `lastPv` is the main line of its last
 *  complete info line, the pv when it starts with the best move. */
export function readResult(w: EngineExports, lastPv: string[]): SearchResult {
  const timeMs = w.infoTimeMs();
  const nodes = Number(w.infoNodes());
  const bestmove = w.resultBestMove();
  const ponder = w.resultPonderMove();
  return {
    bestmove,
    ponder: ponder || undefined,
    score: toScore(w, w.resultScore()),
    pv: lastPv.length && lastPv[0] === bestmove ? lastPv : bestmove === "0000" ? [] : [bestmove],
    depth: w.resultDepth(),
    seldepth: w.currentSelDepth(),
    nodes,
    nps: timeMs > 0 ? Math.round((nodes * 1000) / timeMs) : 0,
    timeMs: Math.round(timeMs),
    wdl: wdlOf(w, w.resultScore()),
  };
}

/** The static evaluation of the instance's position with its term breakdown. */
export function readEvaluation(w: EngineExports): Evaluation {
  const score = w.evaluatePosition();
  const terms = termNames(w).map((name, t) => ({
    name,
    white: [w.evalTerm(t, 0, 0), w.evalTerm(t, 0, 1)] as [number, number],
    black: [w.evalTerm(t, 1, 0), w.evalTerm(t, 1, 1)] as [number, number],
  }));
  // The network's evaluation has no terms; dead draws and mating a lone king are still
  // decided by the hand-crafted knowledge (the terms are then zero too).
  if (w.networkHidden() > 0) return { score, network: networkName(w.networkHash()), phase: w.evalPhase(), scale: w.evalScale(), terms: [] };
  return { score, phase: w.evalPhase(), scale: w.evalScale(), terms };
}
