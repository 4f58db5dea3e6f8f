// PGN export of match games: the seven-tag roster plus FEN/SetUp, TimeControl, Termination
// and the opening, SAN movetext with move numbers, optional per-move comments, and the
// reason for the result as a final comment; lines wrapped at 79 characters.

import { START_FEN } from "../bindings/core.js";
import { formatScore } from "./engine.js";
import { GameRecord } from "./game.js";

/** Tag order and the values that do not come from the game itself. */
export interface PgnContext {
  event: string;
  site: string;
  round: string;
  timeControl: string;
  /** Add {score/depth time} after engine moves and {book} after opening moves. */
  moveComments?: boolean;
}

/** Escapes a tag value (backslash and double quote). */
function tagValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
}

/** "2026.11.22" */
export function pgnDate(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}.${pad(d.getMonth() + 1)}.${pad(d.getDate())}`;
}

/** Joins words into lines of at most `width` characters (a longer word gets its own line).
 *  Braced comments may be broken across lines, which PGN allows. */
export function wrapWords(words: readonly string[], width = 79): string[] {
  const lines: string[] = [];
  let line = "";
  for (const w of words) {
    if (line && line.length + 1 + w.length > width) {
      lines.push(line);
      line = w;
    } else {
      line = line ? `${line} ${w}` : w;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** A braced comment as words; braces inside are dropped (PGN comments cannot nest). */
function commentWords(text: string): string[] {
  return `{${text.replace(/[{}]/g, "").trim()}}`.split(/\s+/);
}

/** Movetext tokens: "1." before White's moves, "N..." before Black's first move when the
 *  game starts with Black, SAN, comments, then the result. */
export function movetextWords(
  startFen: string,
  moves: readonly { san: string; comment?: string }[],
  result: string,
  finalComment?: string,
): string[] {
  const fields = startFen.split(" ");
  let black = fields[1] === "b";
  let number = Number(fields[5] ?? 1) || 1;
  const words: string[] = [];
  moves.forEach((m, i) => {
    if (!black) words.push(`${number}.`);
    else if (i === 0) words.push(`${number}...`);
    words.push(m.san);
    if (m.comment) words.push(...commentWords(m.comment));
    if (black) number++;
    black = !black;
  });
  if (finalComment) words.push(...commentWords(finalComment));
  words.push(result);
  return words;
}

function moveComment(m: GameRecord["moves"][number]): string | undefined {
  if (m.book) return "book";
  const parts: string[] = [];
  if (m.score) parts.push(formatScore(m.score) + (m.depth !== undefined ? `/${m.depth}` : ""));
  if (m.timeMs !== undefined) parts.push(`${(m.timeMs / 1000).toFixed(3)}s`);
  return parts.length ? parts.join(" ") : undefined;
}

/** One game as PGN text, ending with a blank line. */
export function formatPgn(game: GameRecord, ctx: PgnContext): string {
  const fen = game.opening.fen;
  const tags: [string, string][] = [
    ["Event", ctx.event],
    ["Site", ctx.site],
    ["Date", pgnDate(game.startedAt)],
    ["Round", ctx.round],
    ["White", game.white],
    ["Black", game.black],
    ["Result", game.end.result],
  ];
  if (fen !== START_FEN) tags.push(["FEN", fen], ["SetUp", "1"]);
  if (game.opening.eco) tags.push(["ECO", game.opening.eco]);
  tags.push(["Opening", game.opening.name]);
  tags.push(["TimeControl", ctx.timeControl]);
  tags.push(["Termination", game.end.termination]);
  tags.push(["PlyCount", String(game.moves.length)]);
  const moves = game.moves.map((m) => ({ san: m.san, comment: ctx.moveComments ? moveComment(m) : undefined }));
  const words = movetextWords(fen, moves, game.end.result, game.end.reason);
  return [...tags.map(([k, v]) => `[${k} "${tagValue(v)}"]`), "", ...wrapWords(words), "", ""].join("\n");
}
