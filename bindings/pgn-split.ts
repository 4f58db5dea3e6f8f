// Splits PGN text into the texts of single games while it streams in, chunk by chunk, so
// that a file of any size is read one game at a time and one bad game never hides the next.
// A game ends at its result (outside tags, comments and variations), or where a tag starts
// after movetext (a game without a result). A brace comment left open ends at a line that
// starts with an [Event tag, so that the damage stays in its own game.

/** The text of one game and where it starts in the input. */
export interface GameText {
  /** 1 for the first game of the input. */
  number: number;
  /** Line of the text's first character (1-based). */
  line: number;
  text: string;
}

const enum State {
  Normal,
  Brace, // inside { ... }
  LineComment, // inside a ; comment or a % escape line
  TagString, // inside the "..." of a tag
  TagEscape, // after a backslash in a tag string
}

const NEWLINE = 10;
const RESYNC = '[Event "';

function isSymbolChar(c: number): boolean {
  // Not white space and not one of { } ( ) [ ] ; $ "
  return c > 32 && c !== 123 && c !== 125 && c !== 40 && c !== 41 && c !== 91 && c !== 93 && c !== 59 && c !== 36 && c !== 34;
}

/** Feed chunks with push(), then call end(); each returns the games completed so far. */
export class PgnSplitter {
  private state = State.Normal;
  private parts: string[] = [];
  private line = 1; // line of the character being read
  private startLine = 1; // line of the current game's first character
  private lineStart = true; // the character being read starts a line
  private inTag = false;
  private moves = false; // movetext seen in the current game
  private depth = 0; // open variations
  private symbol = ""; // the first characters of the symbol being read, to spot results
  private symbolLength = 0;
  private games = 0;
  private first = true;
  private carry = ""; // the end of the last chunk, held back until the next one decides it

  push(chunk: string): GameText[] {
    if (this.first && chunk.length > 0) {
      this.first = false;
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1); // byte order mark
    }
    return this.read(this.carry + chunk, false);
  }

  end(): GameText[] {
    const out = this.read(this.carry, true);
    this.emit(out);
    return out;
  }

  private read(chunk: string, final: boolean): GameText[] {
    this.carry = "";
    const out: GameText[] = [];
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      // Inside a brace comment, a '[' that starts a line may start a new game: wait for the
      // characters that decide it.
      if (!final && this.state === State.Brace && this.lineStart && c === 91 && chunk.length - i < RESYNC.length && RESYNC.startsWith(chunk.slice(i))) {
        this.carry = chunk.slice(i);
        this.parts.push(chunk.slice(from, i));
        return out;
      }
      if (this.endsGameBefore(chunk, i, c)) {
        this.parts.push(chunk.slice(from, i));
        this.emit(out);
        from = i;
        this.endsGameBefore(chunk, i, c); // the character starts the next game
      }
      this.lineStart = c === NEWLINE;
      if (c === NEWLINE) this.line++;
    }
    this.parts.push(chunk.slice(from));
    return out;
  }

  /** Reads one character; true when the current game ends just before it. */
  private endsGameBefore(chunk: string, i: number, c: number): boolean {
    switch (this.state) {
      case State.Brace:
        if (c === 125) this.state = State.Normal;
        // An unterminated comment: a line starting a new game ends it.
        return this.lineStart && c === 91 && chunk.startsWith(RESYNC, i);
      case State.LineComment:
        if (c === NEWLINE) this.state = State.Normal;
        return false;
      case State.TagString:
        if (c === 92) this.state = State.TagEscape;
        else if (c === 34 || c === NEWLINE) this.state = State.Normal;
        return false;
      case State.TagEscape:
        this.state = State.TagString;
        return false;
    }
    if (isSymbolChar(c)) {
      if (c === 37 && this.lineStart && this.symbolLength === 0) {
        this.state = State.LineComment; // a % escape line
        return false;
      }
      if (this.symbolLength++ < 8) this.symbol += String.fromCharCode(c);
      if (!this.inTag) this.moves = true;
      return false;
    }
    if (this.symbolLength > 0) {
      const s = this.symbolLength < 8 ? this.symbol : "";
      this.symbol = "";
      this.symbolLength = 0;
      if (!this.inTag && this.depth === 0 && (s === "1-0" || s === "0-1" || s === "1/2-1/2" || s === "*")) return true;
    }
    switch (c) {
      case 91: // [
        if (!this.inTag && this.moves) return true;
        this.inTag = true;
        break;
      case 93: // ]
        this.inTag = false;
        break;
      case 34: // "
        if (this.inTag) this.state = State.TagString;
        break;
      case 123: // {
        this.state = State.Brace;
        break;
      case 59: // ;
        this.state = State.LineComment;
        break;
      case 40: // (
        this.depth++;
        this.moves = true;
        break;
      case 41: // )
        if (this.depth > 0) this.depth--;
        this.moves = true;
        break;
      case 36: // $
        this.moves = true;
        break;
    }
    return false;
  }

  private emit(out: GameText[]): void {
    const text = this.parts.join("");
    this.parts = [];
    const line = this.startLine;
    this.startLine = this.line;
    this.state = State.Normal;
    this.inTag = false;
    this.moves = false;
    this.depth = 0;
    this.symbol = "";
    this.symbolLength = 0;
    if (text.trim().length > 0) out.push({ number: ++this.games, line, text });
  }
}
