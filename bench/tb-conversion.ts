// Conversion with the tables: from random won positions of KQvK, KRvK, KBNvK, KPvK and KQvKR
// the engine, probing Syzygy tables, plays the winning side at a fixed time a move against
// Stockfish defending with the same tables, and must mate every time before the 50-move rule
// (a draw is a failure); from random drawn positions of KRvKB and KRPvKR (the latter needs
// the 5-piece table), the defender to move and without a capture, it defends against
// Stockfish attacking with them, and must never lose.
// One game at a time; every game is appended to a JSONL file and skipped when the command is
// run again (resumable), with a PGN beside it. Without the JSONL, a PGN of an earlier run (the
// copy committed in docs/, put where the bench writes its PGN) is read back as the state.
// --shard K/N plays only the games whose index is K-1 modulo N, so that N processes can share
// the work (and the files: each game is one append).
//
//   npx tsx bench/tb-conversion.ts [--tables app/public/syzygy/3-4[:data/syzygy/5]] [--games 100]
//       [--movetime 1000] [--seed 3] [--won KQvK,KRvK,KBNvK,KPvK,KQvKR] [--drawn KRvKB,KRPvKR]
//       [--stockfish /usr/games/stockfish] [--out data/tb-conversion] [--shard 1/2]

import { parseArgs } from "node:util";
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Core } from "../bindings/core.js";
import { Game } from "../bindings/game.js";
import { parsePgn } from "../bindings/index.js";
import { MatchEngine } from "../match/engine.js";
import { playGame } from "../match/game.js";
import type { GameSettings } from "../match/game.js";
import { formatPgn } from "../match/pgn.js";
import { pgnTimeControl } from "../match/clock.js";
import { makeRandom, randomPosition } from "../tools/syzygy-oracle.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const { values } = parseArgs({
  options: {
    tables: { type: "string", default: join(ROOT, "app/public/syzygy/3-4") },
    games: { type: "string", default: "100" },
    movetime: { type: "string", default: "1000" },
    seed: { type: "string", default: "3" },
    won: { type: "string", default: "KQvK,KRvK,KBNvK,KPvK,KQvKR" },
    drawn: { type: "string", default: "KRvKB,KRPvKR" },
    stockfish: { type: "string", default: "/usr/games/stockfish" },
    out: { type: "string", default: join(ROOT, "data/tb-conversion") },
    shard: { type: "string", default: "1/1" },
  },
});
const [shard, shards] = values.shard!.split("/").map(Number);
if (!(Number.isInteger(shard) && Number.isInteger(shards) && shard >= 1 && shard <= shards)) {
  throw new Error(`--shard takes K/N with 1 <= K <= N, not ${values.shard}`);
}
const syzygyPath = values.tables!.split(":").map((d) => resolve(d)).join(":");
const games = Number(values.games);
const movetime = Number(values.movetime);
const out = resolve(values.out!);
mkdirSync(out, { recursive: true });
const results = join(out, `games-${movetime}ms-seed${values.seed}.jsonl`);
const pgnFile = results.replace(/\.jsonl$/, ".pgn");

interface Done {
  material: string;
  index: number;
  fen: string;
  wanted: "win" | "hold";
  result: string;
  ours: "white" | "black";
  ok: boolean;
  moves: number;
  end: string;
}
// The positions: seeded, won (or drawn) for the side to move by the tables (probed in Node).
await Game.create(); // the package's rules, which write the PGN and read it back

/** Whether the game was a success for ours: a mate where it must win, no loss where it must hold. */
function succeeded(wanted: "win" | "hold", result: string, oursWhite: boolean): boolean {
  return wanted === "win" ? result === (oursWhite ? "1-0" : "0-1") : result !== (oursWhite ? "0-1" : "1-0");
}

const done = new Map<string, Done>();
if (!existsSync(results) && existsSync(pgnFile)) {
  const records = await fromPgn(readFileSync(pgnFile, "utf8"));
  appendFileSync(results, records.map((d) => JSON.stringify(d) + "\n").join(""));
  console.log(`${results}: ${records.length} games read back from ${pgnFile}`);
}
/** The games played so far (other shards' among them), by material and index. */
function readState(into: Map<string, Done>): void {
  if (existsSync(results)) for (const l of readFileSync(results, "utf8").split("\n").filter(Boolean)) {
    const d = JSON.parse(l) as Done;
    into.set(`${d.material}#${d.index}`, d); // a game replayed later replaces the earlier one
  }
}
readState(done);

/** The state of the games in a PGN this bench wrote: its tags, and the last move's comment
 *  (the reason for the result). */
async function fromPgn(text: string): Promise<Done[]> {
  return (await parsePgn(text)).map((g) => {
    if (g.error) throw new Error(`${pgnFile}: ${g.error}`);
    const tag = (name: string) => {
      const value = g.headers.get(name);
      if (value === undefined) throw new Error(`${pgnFile}: a game without its ${name} tag`);
      return value;
    };
    const material = tag("Event").replace(/^tablebase conversion /, "");
    const fen = tag("FEN");
    const oursWhite = tag("White") === "wasmchess";
    // Ours plays the strong side where it must win and the weak side where it must hold.
    const wanted = whiteStrong(fen, material) === oursWhite ? "win" : "hold";
    const moves = g.moves();
    return {
      material, index: Number(tag("Round")) - 1, fen, wanted, result: g.result, ours: oursWhite ? "white" : "black",
      ok: succeeded(wanted, g.result, oursWhite), moves: moves.length, end: moves.at(-1)?.comment ?? "",
    };
  });
}
const core = await Core.create({ build: "classical", hashMb: 1 });
const load = core.setSyzygyPath(syzygyPath);
if (load.errors.length) throw new Error(`tables refused: ${load.errors.slice(0, 3).join("; ")}`);
function positions(material: string, category: "win" | "draw", salt: number): string[] {
  const random = makeRandom((Number(values.seed) * 7919 + salt) >>> 0);
  const fens: string[] = [];
  for (let tries = 0; fens.length < games && tries < games * 200; tries++) {
    const fen = randomPosition(core, random, material, tries % 2 === 0, false);
    if (!fen || fens.includes(fen)) continue;
    core.setPosition(fen);
    let probe;
    try {
      probe = core.probeTablebase();
    } catch (err) {
      throw new Error(`${material}: ${err instanceof Error ? err.message : String(err)} (is its table in --tables?)`);
    }
    if (probe.category !== category || probe.checkmate || probe.stalemate) continue;
    // A drawn position worth defending: the side not to move has the extra material (it
    // attacks), and the defender to move cannot simply take a piece.
    const strongToMove = (fen.split(" ")[1] === "w") === whiteStrong(fen, material);
    if (category === "draw" && (strongToMove || core.legalMovesWithSan().some((m) => m.san.includes("x")))) continue;
    if (category === "win" && !strongToMove) continue;
    fens.push(fen);
  }
  return fens;
}
/** Whether white holds the first side of the material ("KRPvKR": the rook and pawn). */
function whiteStrong(fen: string, material: string): boolean {
  const strong = material.split("v")[0].slice(1);
  const whites = [...fen.split(" ")[0]].filter((c) => /[QRBNP]/.test(c)).sort().join("");
  return whites === [...strong].sort().join("");
}

const settings: GameSettings = {
  limits: { kind: "movetime", ms: movetime },
  marginMs: 1000,
  replyTimeoutMs: movetime + 5000,
  stopGraceMs: 2000,
  adjudication: {},
};
const ours = new MatchEngine({
  name: "wasmchess", command: process.execPath, args: [join(ROOT, "build/cli.js")],
  options: [["Hash", "64"], ["SyzygyPath", syzygyPath]],
});
const stockfish = new MatchEngine({
  name: "stockfish", command: values.stockfish!, args: [],
  options: [["Hash", "64"], ["Threads", "1"], ["SyzygyPath", syzygyPath]],
});

const counts = new Map<string, number>();
const runs: [string, "win" | "draw"][] = [
  ...values.won!.split(",").filter(Boolean).map((m): [string, "win"] => [m, "win"]),
  ...values.drawn!.split(",").filter(Boolean).map((m): [string, "draw"] => [m, "draw"]),
];
for (const [m, category] of runs) {
  const fens = positions(m, category, m.length * 131 + m.charCodeAt(1));
  counts.set(m, fens.length);
  for (const [index, fen] of fens.entries()) {
    // Ours is the strong side when it must win, the weak side when it must hold; either way
    // the side to move (see positions()).
    const oursWhite = category === "win" ? whiteStrong(fen, m) : !whiteStrong(fen, m);
    let d = done.get(`${m}#${index}`);
    if (!d && index % shards !== shard - 1) continue; // another shard's game, not played yet
    if (d && d.ours !== (oursWhite ? "white" : "black")) {
      throw new Error(`${results}: game ${m} ${index + 1} was played by ours as the other side (a state written before bench/tb-conversion.ts gave the defence to ours); move its line out and run again`);
    }
    if (!d) {
      const pair: [MatchEngine, MatchEngine] = oursWhite ? [ours, stockfish] : [stockfish, ours];
      const record = await playGame(core, pair, { name: `${m} ${index}`, fen, moves: [] }, settings);
      const result = record.end.result;
      const wanted = category === "win" ? "win" : "hold";
      d = {
        material: m, index, fen, wanted, result, ours: oursWhite ? "white" : "black",
        ok: succeeded(wanted, result, oursWhite), moves: record.moves.length, end: record.end.reason,
      };
      appendFileSync(results, JSON.stringify(d) + "\n");
      appendFileSync(pgnFile, formatPgn(record, { event: `tablebase conversion ${m}`, site: "wasmchess", round: String(index + 1), timeControl: pgnTimeControl(settings.limits) }) + "\n");
      console.log(`${m} ${index + 1}/${fens.length}: ${d.ok ? "ok" : "FAILED"} ${result} in ${d.moves} plies (${d.end}) ${fen}`);
    }
  }
}
ours.kill();
stockfish.kill();
core.dispose();
console.log(`movetime ${movetime} ms, tables ${syzygyPath}, seed ${values.seed}:`);
const state = new Map<string, Done>();
readState(state); // with the games other shards finished meanwhile
for (const [m, category] of runs) {
  const played = Array.from({ length: counts.get(m)! }, (_, i) => state.get(`${m}#${i}`)).filter((d) => d !== undefined);
  const ok = played.filter((d) => d.ok).length;
  console.log(`  ${m}: ${ok} of ${played.length} ${category === "win" ? "won (mated)" : "held (not lost)"}`);
}
