// PGN of match games, written by the package's own writer (Game.toPgn): the seven-tag roster,
// SetUp and FEN for a game from another position, then ECO, Opening, TimeControl (with time
// odds WhiteTimeControl and BlackTimeControl), Termination and PlyCount; SAN movetext with
// optional per-move comments ({book}, {score/depth time}) and the reason for the result as the
// last move's comment (after its own, which is how the package's reader joins two comments
// that follow one move).

import { Game } from "../bindings/index.js";
import { formatScore } from "./engine.js";
import { GameRecord } from "./game.js";

/** The tag values that do not come from the game itself. */
export interface PgnContext {
  event: string;
  site: string;
  round: string;
  /** The TimeControl tag, or White's and Black's (time odds: the WhiteTimeControl and
   *  BlackTimeControl tags when they differ, as cutechess-cli writes them). */
  timeControl: string | readonly [string, string];
  /** Add {score/depth time} after engine moves and {book} after opening moves. */
  moveComments?: boolean;
}

/** "2026.11.22" */
function pgnDate(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}.${pad(d.getMonth() + 1)}.${pad(d.getDate())}`;
}

/** "+0.35/12 0.377s, n=123456, tbhits=7" for an engine move (nodes and tbhits as fastchess
 *  writes them, when the engine reported them), "book" for an opening move. */
function moveComment(m: GameRecord["moves"][number]): string | undefined {
  if (m.book) return "book";
  const parts: string[] = [];
  if (m.score) parts.push(formatScore(m.score) + (m.depth !== undefined ? `/${m.depth}` : ""));
  if (m.timeMs !== undefined) parts.push(`${(m.timeMs / 1000).toFixed(3)}s`);
  if (!parts.length) return undefined;
  const counts = [m.nodes !== undefined ? `n=${m.nodes}` : "", m.tbhits !== undefined ? `tbhits=${m.tbhits}` : ""].filter(Boolean);
  return [parts.join(" "), ...counts].join(", ");
}

function timeControlTags(tc: PgnContext["timeControl"]): [string, string][] {
  if (typeof tc === "string") return [["TimeControl", tc]];
  return tc[0] === tc[1] ? [["TimeControl", tc[0]]] : [["WhiteTimeControl", tc[0]], ["BlackTimeControl", tc[1]]];
}

/** The match game as a package Game: its tags, moves and comments. The package's rules must
 *  be loaded first (`await Game.create()` once; Match.run does it). */
export function toGame(record: GameRecord, ctx: PgnContext): Game {
  const game = new Game(record.opening.fen);
  const tags: [string, string | undefined][] = [
    ["Event", ctx.event],
    ["Site", ctx.site],
    ["Date", pgnDate(record.startedAt)],
    ["Round", ctx.round],
    ["White", record.white],
    ["Black", record.black],
    ["Result", record.end.result],
    ["ECO", record.opening.eco],
    ["Opening", record.opening.name],
    ...timeControlTags(ctx.timeControl),
    ["Termination", record.end.termination],
    ["PlyCount", String(record.moves.length)],
  ];
  for (const [name, value] of tags) if (value !== undefined) game.headers.set(name, value);
  let last: ReturnType<Game["play"]> | undefined;
  for (const m of record.moves) {
    last = game.play(m.uci);
    const comment = ctx.moveComments ? moveComment(m) : undefined;
    if (comment !== undefined) last.comment = comment;
  }
  const reason = record.end.reason;
  if (!last) game.comment = reason;
  else last.comment = last.comment === undefined ? reason : `${last.comment} ${reason}`;
  return game;
}

/** One game as PGN text, ending with a blank line (games of a file are appended). */
export function formatPgn(record: GameRecord, ctx: PgnContext): string {
  return toGame(record, ctx).toPgn() + "\n";
}
