// Would more search have saved the lost games? For every game PLAYER lost in match PGNs written
// with `bench/match.ts --pgn-comments`, a judge engine (full-strength Stockfish by default) scores
// PLAYER's moves in the plies before the opponent's score first reached +1.5 (eval-gap.ts's
// moment) and picks the worst of them: the score of the position before the move less the score
// after it, both from PLAYER's side. The engine under review then searches each of those
// positions afresh at every budget of --nodes, and the judge scores the move it chooses. If the
// loss shrinks as the budget grows, the errors are the depth's; if it stays, the evaluation's.
//
//   npx tsx bench/loss-review.ts --player NAME --engine SPEC FILE.pgn [FILE.pgn ...]
//       [--nodes 400000,4000000] [--judge SPEC] [--judge-nodes 200000] [--window 9] [--list]
//
// SPEC is an engine as bench/match.ts takes it ("cmd=node,args=data/engines/x/run.mjs").

import { createReadStream } from "node:fs";
import { parseArgs } from "node:util";
import { readPgn } from "../bindings/pgn-read.js";
import { parseEngineSpec, positiveInt } from "../match/args.js";
import { lossGap, loserIndex, toCommentedGame } from "../match/commented.js";
import { MatchEngine, scoreToCp } from "../match/engine.js";
import { findExecutable } from "../match/uci-process.js";

const { values, positionals } = parseArgs({
  options: {
    player: { type: "string" },
    engine: { type: "string" },
    judge: { type: "string", default: "cmd=stockfish,option.Hash=64" },
    "judge-nodes": { type: "string", default: "200000" },
    nodes: { type: "string", default: "400000,4000000" },
    window: { type: "string", default: "9" },
    list: { type: "boolean", default: false },
  },
  allowPositionals: true,
});
if (!values.player || !values.engine || positionals.length === 0) {
  throw new Error("usage: loss-review --player NAME --engine SPEC FILE.pgn [FILE.pgn ...]");
}
const JUDGE_NODES = positiveInt(values["judge-nodes"], "--judge-nodes")!;
const WINDOW = positiveInt(values.window, "--window")!;
const BUDGETS = values.nodes.split(",").map((n) => positiveInt(n, "--nodes")!);
if (JUDGE_NODES === 0 || WINDOW === 0 || BUDGETS.includes(0)) throw new Error("--judge-nodes, --window and --nodes must be above 0");
/** A move that loses this much by the judge's scores is an error. */
const ERROR_CP = 80;
/** Mate scores count as this many centipawns, so that one mate does not swamp a mean. */
const CLAMP_CP = 3000;
const SEARCH_MS = 600_000;

/** Starts an engine of a spec, its command looked up on the PATH and in /usr/games as
 *  bench/match.ts does. */
async function started(spec: string): Promise<MatchEngine> {
  const config = parseEngineSpec(spec);
  config.command = findExecutable(config.command) ?? config.command;
  const engine = new MatchEngine(config);
  await engine.start();
  return engine;
}

/** The engine's move and its score (side to move, clamped) after a fresh search. */
async function search(engine: MatchEngine, position: string, nodes: number): Promise<{ move: string; cp: number }> {
  await engine.newGame();
  const reply = await engine.search(position, `go nodes ${nodes}`, SEARCH_MS, 2000);
  if (reply.kind !== "bestmove") throw new Error(`${engine.name}: no move for ${position} (${reply.kind})`);
  const cp = reply.score ? scoreToCp(reply.score) : 0;
  return { move: reply.move, cp: Math.max(-CLAMP_CP, Math.min(CLAMP_CP, cp)) };
}

const judge = await started(values.judge);
const player = await started(values.engine);

/** The judge's score of the position after `move`, from the mover's side. */
async function scoreAfter(fen: string, move: string): Promise<number> {
  return -(await search(judge, `position fen ${fen} moves ${move}`, JUDGE_NODES)).cp;
}

interface Worst { round: string; ply: number; fen: string; played: string; before: number; loss: number }
const worst: Worst[] = [];
for (const file of positionals) {
  for await (const game of readPgn(createReadStream(file, "utf8"))) {
    const commented = toCommentedGame(game);
    const us = loserIndex(commented, values.player);
    if (us === undefined) continue;
    const gap = lossGap(commented, us, 150);
    if (!gap) continue;
    const moves = game.moves();
    let pick: Worst | undefined;
    for (let ply = Math.max(0, gap.ply - WINDOW); ply < gap.ply; ply++) {
      if (commented.moves[ply].side !== us) continue;
      const fen = game.fenAt(ply);
      const before = (await search(judge, `position fen ${fen}`, JUDGE_NODES)).cp;
      const loss = before - (await scoreAfter(fen, moves[ply].uci));
      if (!pick || loss > pick.loss) pick = { round: commented.round, ply, fen, played: moves[ply].uci, before, loss };
    }
    if (pick) worst.push(pick);
  }
}

const summary = (losses: number[]) =>
  `mean loss ${(losses.reduce((a, b) => a + b, 0) / losses.length).toFixed(1)} cp, ` +
  `${losses.filter((l) => l >= ERROR_CP).length} of ${losses.length} lose ${ERROR_CP} cp or more`;
console.log(`${values.player}: the worst move before the gap in ${worst.length} lost games, judged at ${JUDGE_NODES} nodes`);
console.log(`  as played: ${summary(worst.map((w) => w.loss))}`);
for (const nodes of BUDGETS) {
  const losses: number[] = [];
  for (const w of worst) {
    const { move } = await search(player, `position fen ${w.fen}`, nodes);
    const loss = move === w.played ? w.loss : w.before - (await scoreAfter(w.fen, move));
    losses.push(loss);
    if (values.list) console.log(`  round ${w.round} ply ${w.ply + 1}: played ${w.played} (${w.loss}), at ${nodes} nodes ${move} (${loss})`);
  }
  console.log(`  searched again at ${nodes} nodes: ${summary(losses)}`);
}
await player.quit();
await judge.quit();
