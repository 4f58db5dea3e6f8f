// PGN export format: the seven tag roster first, Variant "Chess960" for a Chess960 game,
// SetUp and FEN for a game that starts elsewhere (and every Chess960 game), the other tags in
// their order, then the movetext with move numbers, comments in
// braces, NAGs as $n and variations in parentheses, wrapped at 79 characters, and the result.

import { START_FEN } from "./core.js";
import type { MoveNode } from "./move-tree.js";

/** What the writer reads of a game. */
export interface PgnGameData {
  readonly headers: ReadonlyMap<string, string>;
  readonly startFen: string;
  readonly comment?: string;
  readonly result: string;
  readonly chess960: boolean;
}

/** PGN's seven tag roster in its order, with the value of an unknown tag. */
export const SEVEN_TAG_ROSTER: readonly (readonly [string, string])[] = [
  ["Event", "?"],
  ["Site", "?"],
  ["Date", "????.??.??"],
  ["Round", "?"],
  ["White", "?"],
  ["Black", "?"],
  ["Result", "*"],
];
const ROSTER_NAMES = new Set([...SEVEN_TAG_ROSTER.map(([name]) => name), "SetUp", "FEN"]);
const MAX_LINE = 79;
const RESULTS = new Set(["1-0", "0-1", "1/2-1/2", "*"]);

function tag(name: string, value: string): string {
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`PGN tag names are letters, digits and '_': ${JSON.stringify(name)}`);
  const escaped = value.replace(/[\r\n]+/g, " ").replace(/\\/g, "\\\\").replace(/"/g, '\\"');
  return `[${name} "${escaped}"]`;
}

/** The words of a brace comment (a comment cannot hold '}': it becomes ')'). */
function commentWords(text: string): string[] {
  const words = text.replace(/}/g, ")").split(/\s+/).filter((w) => w.length > 0);
  if (words.length === 0) return ["{}"];
  words[0] = "{" + words[0];
  words[words.length - 1] += "}";
  return words;
}

/** Move numbering from a FEN: the side to move first and the number of its move. */
function numbering(fen: string): { blackFirst: boolean; firstMove: number } {
  const fields = fen.split(" ");
  return { blackFirst: fields[1] === "b", firstMove: Math.max(1, Number(fields[5]) || 1) };
}

/** The movetext words of a line whose first move is ply `ply` (0 = the start position's). */
function lineWords(line: readonly MoveNode[], ply: number, start: { blackFirst: boolean; firstMove: number }, words: string[]): void {
  let needNumber = true; // black's move gets "N..." at the start, after a comment or a variation
  line.forEach((node, k) => {
    const p = ply + k + (start.blackFirst ? 1 : 0);
    const number = start.firstMove + Math.floor(p / 2);
    const white = p % 2 === 0;
    if (node.startingComment !== undefined) {
      words.push(...commentWords(node.startingComment));
      needNumber = true;
    }
    if (white) words.push(`${number}.`);
    else if (needNumber) words.push(`${number}...`);
    words.push(node.san);
    for (const nag of node.nags) words.push(`$${nag}`);
    needNumber = false;
    if (node.comment !== undefined) {
      words.push(...commentWords(node.comment));
      needNumber = true;
    }
    for (const variation of node.variations) {
      if (variation.length === 0) continue;
      const inner: string[] = [];
      lineWords(variation, ply + k, start, inner);
      inner[0] = "(" + inner[0];
      inner[inner.length - 1] += ")";
      words.push(...inner);
      needNumber = true;
    }
  });
}

function wrap(words: readonly string[]): string[] {
  const lines: string[] = [];
  let current = "";
  for (const w of words) {
    if (current && current.length + 1 + w.length > MAX_LINE) {
      lines.push(current);
      current = w;
    } else current = current ? `${current} ${w}` : w;
  }
  if (current) lines.push(current);
  return lines;
}

/** The game's PGN text, ending with a newline. */
export function writePgn(game: PgnGameData, line: readonly MoveNode[]): string {
  const tags = SEVEN_TAG_ROSTER.map(([name, unknown]) => tag(name, name === "Result" ? game.result : (game.headers.get(name) ?? unknown)));
  if (game.chess960) tags.push(tag("Variant", "Chess960"));
  if (game.startFen !== START_FEN || game.chess960) tags.push(tag("SetUp", "1"), tag("FEN", game.startFen));
  for (const [name, value] of game.headers) if (!ROSTER_NAMES.has(name) && !(game.chess960 && name === "Variant")) tags.push(tag(name, value));
  const words: string[] = [];
  if (game.comment !== undefined) words.push(...commentWords(game.comment));
  lineWords(line, 0, numbering(game.startFen), words);
  words.push(RESULTS.has(game.result) ? game.result : "*");
  return `${tags.join("\n")}\n\n${wrap(words).join("\n")}\n`;
}
