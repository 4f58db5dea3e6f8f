// Reading PGN: parsePgn(text) for a whole text and readPgn(source) for a stream of any size,
// one game at a time. Every move is checked by the engine (the in-thread rules instance). A
// game that cannot be read to its end keeps what was read before the problem and carries a
// PgnError naming the game number, the line, the column and the move; the games after it
// are read as usual.

import { START_FEN } from "./core.js";
import type { Core } from "./core.js";
import { Game } from "./game.js";
import type { MoveNode } from "./move-tree.js";
import { PgnError } from "./pgn-error.js";
import { loadRules, boardFor } from "./rules.js";
import { PgnSplitter } from "./pgn-split.js";
import type { GameText } from "./pgn-split.js";
import { tokenize, PgnSyntaxError } from "./pgn-tokens.js";
import type { PgnToken } from "./pgn-tokens.js";

/** Variant tag values that name Chess960. */
const CHESS960_VARIANT = /^(chess[ -]?960|fischer ?random( chess)?|fischerandom|frc)$/i;

/** A line being read: its moves, and the UCI moves that lead to the position before them. */
interface Frame {
  nodes: MoveNode[];
  base: string[];
  /** The "(" that opened it (for an unterminated variation). */
  opened?: { line: number; column: number };
  startingComment?: string;
}

/** "12." or "12..." and the SAN, for a move about to be played in the board's position. */
function moveName(board: Core, text: string): string {
  const [, side, , , , fullmove] = board.fen().split(" ");
  return `${fullmove}${side === "w" ? "." : "..."} ${text}`;
}

function append(existing: string | undefined, text: string): string {
  return existing === undefined || existing === "" ? text : `${existing} ${text}`;
}

/** Reads one game's text into a Game (which carries a PgnError if the text has one). */
export function readGame(source: GameText): Game {
  const headers = new Map<string, string>();
  const owner = {};
  let board: Core | undefined;
  let comment: string | undefined;
  let result: string | undefined;
  let start = START_FEN;
  let chess960 = false; // from the Variant tag
  const root: Frame = { nodes: [], base: [] };
  const stack: Frame[] = [root];
  let synced = false; // the board holds the position at the end of the top frame
  let error: PgnError | undefined;
  let at: PgnToken | undefined;

  const fail = (problem: string, token: { line: number; column: number } | undefined = at, move?: string): never => {
    throw new PgnError(problem, { game: source.number, line: token?.line ?? source.line, column: token?.column ?? 1, move });
  };

  /** Sets up the board at the first move: the start position from the FEN tag, if any. */
  const begin = (): Core => {
    const fen = headers.get("FEN");
    const variant = headers.get("Variant");
    if (variant !== undefined) {
      if (CHESS960_VARIANT.test(variant)) chess960 = true;
      else if (!/^(standard|chess)$/i.test(variant)) fail(`variant ${JSON.stringify(variant)} is not supported (standard chess and Chess960 only)`);
    }
    try {
      const b = boardFor(owner, (core) => core.setPosition(fen ?? START_FEN, [], chess960));
      start = b.fen();
      return b;
    } catch (err) {
      return fail(`FEN tag: ${(err as Error).message}`);
    }
  };

  const play = (token: Extract<PgnToken, { kind: "move" }>): void => {
    board ??= begin();
    const frame = stack[stack.length - 1];
    if (!synced) {
      board.setPosition(start, [...frame.base, ...frame.nodes.map((n) => n.uci)], chess960);
      synced = true;
    }
    let move: { uci: string; san: string };
    try {
      move = board.playSanOrUci(token.text);
    } catch (err) {
      const over = board.legalMoves().length === 0;
      const why = over ? "the game is over" : err instanceof Error && err.message.startsWith("ambiguous") ? "ambiguous" : "illegal or malformed";
      return fail(`${JSON.stringify(token.text)} is not a legal move (${why}) in ${board.fen()}`, token, moveName(board, token.text));
    }
    const node: MoveNode = { san: move.san, uci: move.uci, nags: [], variations: [] };
    if (frame.startingComment !== undefined && frame.nodes.length === 0) node.startingComment = frame.startingComment;
    frame.nodes.push(node);
  };

  try {
    let moves = false; // movetext started
    for (const token of tokenize(source.text, source.line)) {
      at = token;
      const frame = stack[stack.length - 1];
      const last = frame.nodes[frame.nodes.length - 1];
      if (result !== undefined) fail(`unexpected text after the result ${result}`);
      switch (token.kind) {
        case "tag":
          if (moves) fail(`tag ${token.name} after the moves`);
          headers.set(token.name, token.value);
          break;
        case "comment":
          if (last) last.comment = append(last.comment, token.text);
          else if (frame === root) comment = append(comment, token.text);
          else frame.startingComment = append(frame.startingComment, token.text);
          break;
        case "number":
          moves = true;
          break;
        case "move":
          moves = true;
          play(token);
          break;
        case "nag":
          moves = true;
          if (!last) fail("a NAG must follow a move");
          last.nags.push(token.nag);
          break;
        case "open":
          moves = true;
          if (!last) fail("a variation must follow the move it replaces");
          stack.push({ nodes: [], base: [...frame.base, ...frame.nodes.slice(0, -1).map((n) => n.uci)], opened: token });
          last.variations.push(stack[stack.length - 1].nodes);
          synced = false;
          break;
        case "close":
          if (frame === root) fail("')' without a variation to close");
          if (frame.nodes.length === 0) fail("empty variation");
          stack.pop();
          synced = false;
          break;
        case "result":
          if (frame !== root) fail(`result ${token.text} inside a variation`);
          result = token.text;
          break;
      }
    }
    if (stack.length > 1) fail("unterminated variation (no closing ')')", stack[stack.length - 1].opened);
    board ??= begin(); // a game without moves still has its start position
  } catch (err) {
    if (err instanceof PgnError) error = err;
    else if (err instanceof PgnSyntaxError) error = new PgnError(err.message, { game: source.number, line: err.line, column: err.column });
    else throw err;
    // Variations left open keep the moves read so far; an empty one is dropped.
    pruneEmpty(root.nodes);
  }
  if (result !== undefined && (!headers.has("Result") || headers.get("Result") === "?")) headers.set("Result", result);
  const game = Game.fromParsed(start, headers, root.nodes, comment, chess960);
  if (error) game.error = error;
  return game;
}

/** Drops variations left empty by an error. */
function pruneEmpty(line: MoveNode[]): void {
  for (const n of line) {
    n.variations = n.variations.filter((v) => v.length > 0);
    for (const v of n.variations) pruneEmpty(v);
  }
}

/** Reads every game of a PGN text. A game with a problem has `error` set (see PgnError) and
 *  holds what was read before it; the other games are read as usual. */
export async function parsePgn(text: string): Promise<Game[]> {
  if (typeof text !== "string") throw new TypeError(`parsePgn needs the PGN text as a string, got ${typeof text}`);
  await loadRules();
  const splitter = new PgnSplitter();
  return [...splitter.push(text), ...splitter.end()].map(readGame);
}

/** Something readPgn can read: a string, an async iterable of strings or bytes (a Node
 *  stream such as fs.createReadStream(path)), or a web ReadableStream (fetch's response.body). */
export type PgnSource = string | AsyncIterable<string | Uint8Array> | Iterable<string> | ReadableStream<string | Uint8Array>;

async function* chunks(source: PgnSource): AsyncGenerator<string | Uint8Array> {
  if (typeof source === "string") {
    yield source;
  } else if (typeof (source as ReadableStream).getReader === "function") {
    const reader = (source as ReadableStream<string | Uint8Array>).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      reader.releaseLock();
    }
  } else if (source !== null && typeof source === "object" && (Symbol.asyncIterator in source || Symbol.iterator in source)) {
    yield* source as AsyncIterable<string | Uint8Array>;
  } else {
    throw new TypeError("readPgn needs a string, an (async) iterable of strings or bytes, or a ReadableStream");
  }
}

/** Reads the games of a PGN source one at a time, as it streams in: memory stays that of one
 *  game, whatever the size of the file. Bytes are decoded as UTF-8. A game with a problem has
 *  `error` set; the games after it are read as usual. */
export async function* readPgn(source: PgnSource): AsyncGenerator<Game, void, undefined> {
  await loadRules();
  const splitter = new PgnSplitter();
  const decoder = new TextDecoder();
  for await (const chunk of chunks(source)) {
    const text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    for (const g of splitter.push(text)) yield readGame(g);
  }
  for (const g of splitter.push(decoder.decode())) yield readGame(g);
  for (const g of splitter.end()) yield readGame(g);
}
