// Pools the results of several runs of bench/match.ts (which does not resume) into one
// score, Elo with its error bar, LOS and SPRT log-likelihood ratio: a match stopped at a
// session's end goes on as a new run with another seed, and the SPRT decides on the pooled
// games. Reads the last "Score of" line of each log (per-game counts; pairs are not pooled).
//   npx tsx bench/sprt-pool.ts [--sprt elo0=0,elo1=20] data/match-a.log data/match-b.log ...

import { parseArgs } from "node:util";
import { readFileSync } from "node:fs";
import { parseSprt } from "../match/args.js";
import { trinomialDistribution, sprtLlr, sprtBounds, sprtDecision, eloEstimate, los, formatElo, Trinomial } from "../match/stats.js";

const { values, positionals } = parseArgs({
  options: { sprt: { type: "string", default: "elo0=0,elo1=20" } },
  allowPositionals: true,
});
if (positionals.length === 0) throw new Error("name the match logs to pool");

/** The counts of a log's last "Score of A vs B: W - L - D" line. */
function lastScore(file: string): Trinomial {
  const line = readFileSync(file, "utf8").split("\n").filter((l) => l.startsWith("Score of")).at(-1);
  const m = line && /: (\d+) - (\d+) - (\d+)/.exec(line);
  if (!m) throw new Error(`${file}: no "Score of" line`);
  return { wins: Number(m[1]), losses: Number(m[2]), draws: Number(m[3]) };
}

const total: Trinomial = { wins: 0, losses: 0, draws: 0 };
for (const file of positionals) {
  const t = lastScore(file);
  console.log(`${file}: ${t.wins} - ${t.losses} - ${t.draws}`);
  total.wins += t.wins;
  total.losses += t.losses;
  total.draws += t.draws;
}
const sprt = parseSprt(values.sprt!);
const dist = trinomialDistribution(total);
const e = eloEstimate(dist);
const llr = sprtLlr(dist, sprt);
const { lower, upper } = sprtBounds(sprt);
console.log(`pooled: ${total.wins} - ${total.losses} - ${total.draws} of ${total.wins + total.losses + total.draws}, ` +
  `Elo ${formatElo(e.elo)} +/- ${e.margin.toFixed(1)}, LOS ${(100 * los(total)).toFixed(1)}%`);
console.log(`SPRT elo0=${sprt.elo0} elo1=${sprt.elo1}: LLR ${llr.toFixed(2)} [${lower.toFixed(2)}, ${upper.toFixed(2)}] ${sprtDecision(llr, sprt) ?? "no decision yet"}`);
