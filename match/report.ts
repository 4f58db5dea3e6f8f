// Text for match progress and results: the running score line, the SPRT line, and the
// final summary (Elo with error bars, LOS, pentanomial pairs, SPRT decision, endings).

import { EloEstimate, Pentanomial, SprtParams, Trinomial, SPRT_MIN_GAMES, formatElo, sprtBounds } from "./stats.js";
import { EndKind } from "./game.js";
import type { CommentedGame } from "./commented.js";

/** Everything the final summary reports; engine 1's point of view throughout. */
export interface MatchSummary {
  names: [string, string];
  games: number;
  tri: Trinomial;
  penta: Pentanomial;
  elo: EloEstimate;
  /** From complete pairs only; undefined before the first pair. */
  pentaElo?: EloEstimate;
  los: number;
  sprt?: { params: SprtParams; llr: number; decision?: "H0" | "H1"; decidedAtGame?: number };
  /** How many games ended each way. */
  endings: Partial<Record<EndKind, number>>;
  /** Games lost by a fault (illegal move, time, crash, no reply, start failure), per engine. */
  faults: [Partial<Record<EndKind, number>>, Partial<Record<EndKind, number>>];
  restarts: [number, number];
  elapsedMs: number;
  /** True when the match was interrupted before all games were played. */
  interrupted: boolean;
}

/** Endings that are one engine's fault. */
export const FAULTS: readonly EndKind[] = ["illegal-move", "time-forfeit", "no-reply", "crash", "start-failure"];

function pct(x: number): string {
  return (100 * x).toFixed(1) + "%";
}

function eloText(e: EloEstimate): string {
  const margin = Number.isFinite(e.margin) ? e.margin.toFixed(1) : "inf";
  return `${formatElo(e.elo)} +/- ${margin}`;
}

/** "Score of A vs B: 3 - 1 - 2  [0.667] 6  Elo +120.4 +/- 250.1" */
export function scoreLine(names: readonly [string, string], tri: Trinomial, elo: EloEstimate): string {
  const n = tri.wins + tri.losses + tri.draws;
  return `Score of ${names[0]} vs ${names[1]}: ${tri.wins} - ${tri.losses} - ${tri.draws}  [${elo.score.toFixed(3)}] ${n}  Elo ${eloText(elo)}`;
}

/** "SPRT: LLR 0.42 (14.3%) [-2.94, 2.94]" where the percentage is of the way to the bound
 *  the LLR is heading for; after fewer than SPRT_MIN_GAMES games it adds that no decision can
 *  come yet (a few games can put the LLR far past a bound). */
export function sprtLine(llr: number, params: SprtParams, games: number): string {
  const { lower, upper } = sprtBounds(params);
  const toward = llr >= 0 ? llr / upper : llr / lower;
  const early = games < SPRT_MIN_GAMES ? ` (no decision before ${SPRT_MIN_GAMES} games)` : "";
  return `SPRT: LLR ${llr.toFixed(2)} (${pct(toward)}) [${lower.toFixed(2)}, ${upper.toFixed(2)}]${early}`;
}

function countList(counts: Partial<Record<string, number>>): string {
  const entries = Object.entries(counts).filter(([, n]) => n);
  return entries.length ? entries.map(([k, n]) => `${k.replace(/-/g, " ")} ${n}`).join(", ") : "none";
}

/** The final summary, one line per item. */
export function summaryLines(s: MatchSummary): string[] {
  const out: string[] = [];
  out.push(`${s.interrupted ? "Stopped" : "Finished"} after ${s.games} games in ${(s.elapsedMs / 1000).toFixed(1)} s`);
  out.push(scoreLine(s.names, s.tri, s.elo));
  const drawRatio = s.games ? s.tri.draws / s.games : 0;
  out.push(`Elo difference: ${eloText(s.elo)} (95%, per-game variance), LOS: ${pct(s.los)}, draw ratio: ${pct(drawRatio)}`);
  const pairs = s.penta.reduce((a, b) => a + b, 0);
  if (s.pentaElo && pairs > 0) {
    out.push(`Pairs (LL, LD, DD+WL, WD, WW): [${s.penta.join(", ")}] of ${pairs}, Elo ${eloText(s.pentaElo)} (95%, per-pair variance)`);
  }
  if (s.sprt) {
    const p = s.sprt.params;
    out.push(`SPRT elo0=${p.elo0} elo1=${p.elo1} alpha=${p.alpha} beta=${p.beta} (GSPRT, logistic Elo, per-game scores): ${sprtLine(s.sprt.llr, p, s.games).slice(6)}`);
    out.push(s.sprt.decision
      ? `SPRT: ${s.sprt.decision} accepted after game ${s.sprt.decidedAtGame} (${s.sprt.decision === "H1" ? `${s.names[0]} is at least elo1 stronger` : `${s.names[0]} is not elo1 stronger`})`
      : "SPRT: no decision yet");
  }
  out.push(`Endings: ${countList(s.endings)}`);
  for (const i of [0, 1] as const) {
    if (Object.keys(s.faults[i]).length || s.restarts[i]) {
      out.push(`${s.names[i]}: losses by fault: ${countList(s.faults[i])}; restarts: ${s.restarts[i]}`);
    }
  }
  return out;
}

/** Each engine's search speed over the games' commented moves that carry nodes and a time:
 *  its nodes over the time from `go` to `bestmove` the runner measured, and its tbhits; the
 *  engines in the order of `names`, then the ratio of the first two's nodes per second. */
export function speedLines(games: Iterable<CommentedGame>, names: readonly string[]): string[] {
  const per = new Map<string, { nodes: number; seconds: number; moves: number; tbhits: number }>();
  for (const name of names) per.set(name, { nodes: 0, seconds: 0, moves: 0, tbhits: 0 });
  for (const g of games) {
    for (const m of g.moves) {
      if (m.nodes === undefined || m.seconds === undefined) continue;
      const name = g.players[m.side];
      const t = per.get(name) ?? { nodes: 0, seconds: 0, moves: 0, tbhits: 0 };
      t.nodes += m.nodes;
      t.seconds += m.seconds;
      t.moves++;
      t.tbhits += m.tbhits ?? 0;
      per.set(name, t);
    }
  }
  const n = (x: number) => Math.round(x).toLocaleString("en");
  const speed = (t: { nodes: number; seconds: number }) => (t.seconds > 0 ? t.nodes / t.seconds : 0);
  const lines = [...per].map(([name, t]) =>
    `${name}: ${n(speed(t))} nodes/s (${n(t.nodes)} nodes in ${t.seconds.toFixed(1)} s of search, ${t.moves} moves), ${n(t.tbhits)} tbhits`);
  const [a, b] = names.map((name) => speed(per.get(name)!));
  if (names.length >= 2 && a > 0 && b > 0) lines.push(`nodes/s ratio ${names[0]} / ${names[1]}: ${(a / b).toFixed(3)}`);
  return lines;
}
