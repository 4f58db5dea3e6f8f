// The PGN tokenizer: turns the text of one game into tag pairs, comments, move numbers, moves
// (SAN symbols), NAGs (suffix annotations such as "!?" become their NAG numbers), variation
// brackets and the result, each with its line and column for error messages.

export type PgnToken =
  | { kind: "tag"; name: string; value: string; line: number; column: number }
  | { kind: "comment"; text: string; line: number; column: number }
  | { kind: "move"; text: string; line: number; column: number }
  | { kind: "number"; text: string; line: number; column: number }
  | { kind: "nag"; nag: number; line: number; column: number }
  | { kind: "open" | "close"; line: number; column: number }
  | { kind: "result"; text: string; line: number; column: number };

/** A syntax error at a place in the text. */
export class PgnSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
  }
}

export const RESULTS: ReadonlySet<string> = new Set(["1-0", "0-1", "1/2-1/2", "*"]);

/** Suffix annotations and their NAGs (PGN standard, section 10). */
const SUFFIX_NAGS: Record<string, number> = { "!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6 };

/** White space: ASCII controls and the space (PGN is ASCII text), and the no-break space. */
function isSpace(c: number): boolean {
  return c <= 32 || c === 160;
}

/** True for the characters that end a symbol (a move, a move number, a result): white space
 *  and { } ( ) [ ] ; $ " ! ? */
function endsSymbol(c: number): boolean {
  return isSpace(c) || c === 123 || c === 125 || c === 40 || c === 41 || c === 91 || c === 93 || c === 59 || c === 36 || c === 34 || c === 33 || c === 63;
}

/** Collapses whitespace inside a comment, so that a comment wrapped over lines reads back the same. */
export function normalizeComment(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Tokens of one game's text; `firstLine` is the line of the text's first character in the
 *  file. Throws a PgnSyntaxError at the first thing that is not PGN. */
export function* tokenize(text: string, firstLine = 1): Generator<PgnToken> {
  let i = 0;
  let line = firstLine;
  let lineStart = 0;
  const n = text.length;
  const where = () => ({ line, column: i - lineStart + 1 });
  const fail = (message: string, at = where()): never => {
    throw new PgnSyntaxError(message, at.line, at.column);
  };
  const newline = (at: number) => {
    line++;
    lineStart = at + 1;
  };

  while (i < n) {
    const c = text[i];
    if (c === "\n") {
      newline(i);
      i++;
      continue;
    }
    if (isSpace(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const at = where();
    if (c === "%" && i === lineStart) {
      // An escape line: skipped whole.
      while (i < n && text[i] !== "\n") i++;
    } else if (c === "[") {
      yield readTag();
    } else if (c === "{") {
      const end = text.indexOf("}", i + 1);
      if (end < 0) fail("unterminated comment (no closing '}')");
      const body = text.slice(i + 1, end);
      for (let k = body.indexOf("\n"); k >= 0; k = body.indexOf("\n", k + 1)) newline(i + 1 + k);
      yield { kind: "comment", text: normalizeComment(body), ...at };
      i = end + 1;
    } else if (c === ";") {
      let end = text.indexOf("\n", i);
      if (end < 0) end = n;
      yield { kind: "comment", text: normalizeComment(text.slice(i + 1, end)), ...at };
      i = end;
    } else if (c === "(" || c === ")") {
      yield { kind: c === "(" ? "open" : "close", ...at };
      i++;
    } else if (c === "$") {
      let end = i + 1;
      while (end < n && text[end] >= "0" && text[end] <= "9") end++;
      if (end === i + 1 || end - i > 4) fail(`a NAG is '$' and a number from 0 to 255, not '${text.slice(i, Math.max(end, i + 2))}'`);
      const nag = Number(text.slice(i + 1, end));
      if (nag > 255) fail(`a NAG is '$' and a number from 0 to 255, not '${text.slice(i, end)}'`);
      yield { kind: "nag", nag, ...at };
      i = end;
    } else if (c === "!" || c === "?") {
      let end = i;
      while (end < n && (text[end] === "!" || text[end] === "?")) end++;
      const suffix = text.slice(i, end);
      if (!(suffix in SUFFIX_NAGS)) fail(`unknown annotation '${suffix}'`);
      yield { kind: "nag", nag: SUFFIX_NAGS[suffix], ...at };
      i = end;
    } else if (c === "]" || c === "}" || c === '"') {
      fail(`unexpected '${c}'`);
    } else {
      yield* readSymbol(at);
    }
  }

  function readTag(): PgnToken {
    const at = where();
    let k = i + 1;
    while (k < n && (text[k] === " " || text[k] === "\t")) k++;
    const nameStart = k;
    while (k < n && /[A-Za-z0-9_]/.test(text[k])) k++;
    const name = text.slice(nameStart, k);
    if (!name) fail("a tag needs a name: [Name \"value\"]", at);
    while (k < n && (text[k] === " " || text[k] === "\t")) k++;
    if (text[k] !== '"') fail(`tag ${name}: the value must be a string in double quotes`, at);
    let value = "";
    k++;
    for (;;) {
      if (k >= n || text[k] === "\n") fail(`tag ${name}: unterminated string`, at);
      const ch = text[k];
      if (ch === "\\" && (text[k + 1] === '"' || text[k + 1] === "\\")) {
        value += text[k + 1];
        k += 2;
      } else if (ch === '"') {
        k++;
        break;
      } else {
        value += ch;
        k++;
      }
    }
    while (k < n && (text[k] === " " || text[k] === "\t")) k++;
    if (text[k] !== "]") fail(`tag ${name}: expected ']' after the value`, at);
    i = k + 1;
    return { kind: "tag", name, value, ...at };
  }

  function* readSymbol(at: { line: number; column: number }): Generator<PgnToken> {
    let end = i;
    while (end < n && !endsSymbol(text.charCodeAt(end))) end++;
    let symbol = text.slice(i, end);
    i = end;
    // A move number, possibly glued to its move: "12.", "12...", "12.Nf3", or a lone "...".
    const number = /^(\d*)(\.+)/.exec(symbol);
    if (number || /^\d+$/.test(symbol)) {
      const length = number ? number[0].length : symbol.length;
      if (number?.[1] || !number) yield { kind: "number", text: symbol.slice(0, length), ...at };
      symbol = symbol.slice(length);
      at = { line: at.line, column: at.column + length };
      if (!symbol) return;
    }
    if (RESULTS.has(symbol)) yield { kind: "result", text: symbol, ...at };
    else if (symbol === "--" || symbol === "Z0" || symbol === "null") fail(`null move '${symbol}' is not supported`, at);
    else if (!/^[A-Za-z0-9]/.test(symbol)) fail(`unexpected '${symbol.slice(0, 20)}'`, at);
    else yield { kind: "move", text: symbol, ...at };
  }
}
