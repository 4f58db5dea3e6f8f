// The UCI protocol over any line transport: parses commands, drives a Core, and sends
// replies through a callback. Errors become `info string error: ...` and the session goes on.

import { Core, START_FEN, MAX_PERFT_DEPTH } from "./core.js";

export const ENGINE_NAME = "WasmChess 0.1.0";
export const ENGINE_AUTHOR = "the WasmChess developers";

/** Splits a command line into tokens (any run of whitespace separates, CR is dropped). */
export function tokenize(line: string): string[] {
  return line.trim().split(/\s+/).filter((t) => t.length > 0);
}

/** Renders the board the way Stockfish's `d` does, from a FEN. */
export function boardDiagram(fen: string): string[] {
  const rows = fen.split(" ")[0].split("/");
  const sep = " +---+---+---+---+---+---+---+---+";
  const out = [sep];
  rows.forEach((row, i) => {
    const cells = row.replace(/[1-8]/g, (d) => " ".repeat(Number(d))).split("");
    out.push(" | " + cells.join(" | ") + " | " + (8 - i), sep);
  });
  out.push("   a   b   c   d   e   f   g   h");
  return out;
}

function squareList(bb: bigint): string {
  const names: string[] = [];
  for (let sq = 0; sq < 64; sq++) {
    if ((bb >> BigInt(sq)) & 1n) names.push(String.fromCharCode(97 + (sq & 7)) + String(1 + (sq >> 3)));
  }
  return names.join(" ");
}

/** A UCI session on one Core. `handle` returns false after `quit`. */
export class UciSession {
  constructor(
    private readonly core: Core,
    private readonly send: (line: string) => void,
  ) {}

  /** Handles one input line. */
  handle(line: string): boolean {
    const tokens = tokenize(line);
    if (tokens.length === 0) return true;
    try {
      return this.dispatch(tokens);
    } catch (err) {
      this.error(err instanceof Error ? err.message : String(err));
      return true;
    }
  }

  private error(message: string): void {
    this.send(`info string error: ${message.replace(/[\r\n]+/g, " ")}`);
  }

  private dispatch(tokens: string[]): boolean {
    switch (tokens[0]) {
      case "uci":
        this.send(`id name ${ENGINE_NAME}`);
        this.send(`id author ${ENGINE_AUTHOR}`);
        this.send("uciok");
        return true;
      case "isready":
        this.send("readyok");
        return true;
      case "ucinewgame":
        return true;
      case "position":
        this.position(tokens);
        return true;
      case "go":
        this.go(tokens);
        return true;
      case "d":
        this.display();
        return true;
      case "quit":
        return false;
      default:
        this.error(`unknown command '${tokens[0].slice(0, 40)}'`);
        return true;
    }
  }

  /** position startpos|fen <FEN> [moves ...]: a bad FEN keeps the previous position; an
   *  illegal move keeps the position reached just before it. */
  private position(tokens: string[]): void {
    const movesAt = tokens.indexOf("moves");
    const head = movesAt < 0 ? tokens.slice(1) : tokens.slice(1, movesAt);
    const moves = movesAt < 0 ? [] : tokens.slice(movesAt + 1);
    let fen: string;
    if (head[0] === "startpos" && head.length === 1) fen = START_FEN;
    else if (head[0] === "fen" && head.length > 1) fen = head.slice(1).join(" ");
    else throw new Error("expected 'position startpos' or 'position fen <FEN>', optionally followed by 'moves ...'");
    this.core.setPosition(fen);
    for (const m of moves) {
      if (!this.core.playMove(m)) {
        throw new Error(`illegal move '${m.slice(0, 20)}' in ${this.core.fen()}; the position stays there`);
      }
    }
  }

  private go(tokens: string[]): void {
    if (tokens[1] === "perft") {
      const depth = Number(tokens[2]);
      if (!Number.isInteger(depth) || depth < 1 || depth > MAX_PERFT_DEPTH) {
        throw new Error(`go perft needs a depth from 1 to ${MAX_PERFT_DEPTH}`);
      }
      let total = 0;
      for (const { move, nodes } of this.core.divide(depth)) {
        this.send(`${move}: ${nodes}`);
        total += nodes;
      }
      this.send("");
      this.send(`Nodes searched: ${total}`);
      this.send("");
      return;
    }
    throw new Error("only 'go perft <depth>' is supported so far");
  }

  private display(): void {
    const fen = this.core.fen();
    for (const l of boardDiagram(fen)) this.send(l);
    this.send("");
    this.send(`Fen: ${fen}`);
    this.send(`Key: ${this.core.key().toString(16).toUpperCase().padStart(16, "0")}`);
    this.send(`Checkers: ${squareList(this.core.guard((w) => w.checkersBB()))}`);
  }
}
