// What the fuzzer expects of the engine, line by line, written from the UCI specification
// and the README rather than from bindings/uci.ts: how input splits into lines and tokens,
// which command a line carries (unknown tokens before it are skipped), the replies it owes
// (one bestmove per go, one readyok per isready, one uciok per uci), and which lines must
// not be sent because they end the session or legitimately run for minutes.

/** The commands a UCI engine understands (the specification's, and `d`, `eval`, `bench`). */
export const UCI_COMMANDS: ReadonlySet<string> = new Set([
  "uci", "debug", "isready", "setoption", "register", "ucinewgame", "position", "go", "stop",
  "ponderhit", "quit", "d", "eval", "bench",
]);

/** The lines an engine reading text sees: CR LF, a lone CR and LF all end a line. */
export function logicalLines(text: string): string[] {
  const parts = text.split(/\r\n|\r|\n/);
  if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
  return parts;
}

/** Whitespace-separated tokens of a line. */
export function tokensOf(line: string): string[] {
  return line.split(/\s+/).filter((t) => t.length > 0);
}

/** The command a line carries and its arguments (unknown leading tokens skipped), or
 *  undefined for a line with no command. */
export function commandOf(line: string): { cmd: string; args: string[] } | undefined {
  const tokens = tokensOf(line);
  const at = tokens.findIndex((t) => UCI_COMMANDS.has(t));
  return at < 0 ? undefined : { cmd: tokens[at], args: tokens.slice(at + 1) };
}

/** Replies a line owes. */
export interface Owed {
  bestmove: number;
  readyok: number;
  uciok: number;
  /** `debug crash` (a test hook): the wasm traps on purpose and the worker recovers. */
  trap: number;
}

export function owedBy(line: string): Owed {
  const c = commandOf(line);
  return {
    bestmove: c?.cmd === "go" && c.args[0] !== "perft" ? 1 : 0,
    readyok: c?.cmd === "isready" ? 1 : 0,
    uciok: c?.cmd === "uci" ? 1 : 0,
    trap: c?.cmd === "debug" && c.args[0] === "crash" ? 1 : 0,
  };
}

// Deepest perft and bench the fuzzer lets through: deeper ones are valid work that takes
// seconds to hours and cannot be stopped (as in Stockfish), which would read as hangs.
const PERFT_FUZZ_MAX = 4;
const BENCH_FUZZ_MAX = 3;

/** The line to send in place of `line`: "" for quit (it would end the session), a shallow
 *  perft or bench for a deep one, (only when maxHashMb is given, to keep a short run short) a
 *  smaller Hash, and (only when threads is given, for a run on that many threads) that
 *  Threads value for any number; the line itself otherwise. Numbers are read as the
 *  engine's language (JavaScript's Number) reads them, so that "1e1" counts as 10. */
export function sanitize(line: string, maxHashMb = Infinity, threads?: number): string {
  const c = commandOf(line);
  if (!c) return line;
  if (c.cmd === "quit") return "";
  if (c.cmd === "setoption" && (maxHashMb < Infinity || threads !== undefined)) {
    const lower = c.args.map((t) => t.toLowerCase());
    const valueAt = lower.indexOf("value");
    const name = lower.slice(1, valueAt < 0 ? undefined : valueAt).join(" ");
    const n = Math.round(Number(c.args.slice(valueAt + 1).join(" ")));
    if (name === "hash" && valueAt >= 0 && Number.isFinite(n) && n > maxHashMb) return `setoption name Hash value ${maxHashMb}`;
    // Any number: the engine clamps one out of range to 1..256.
    if (name === "threads" && threads !== undefined && valueAt >= 0 && !Number.isNaN(n)) return `setoption name Threads value ${threads}`;
  }
  if (c.cmd === "go" && c.args[0] === "perft") {
    const d = Number(c.args[1]);
    if (Number.isInteger(d) && d > PERFT_FUZZ_MAX) return `go perft ${PERFT_FUZZ_MAX}`;
  }
  if (c.cmd === "bench") {
    const d = c.args[0] === undefined ? 0 : Number(c.args[0]);
    if (Number.isInteger(d) && (d === 0 || d > BENCH_FUZZ_MAX)) return `bench ${BENCH_FUZZ_MAX}`;
  }
  return line;
}

/** Sanitizes every line of a text, keeping its line separators. */
export function sanitizeText(text: string, maxHashMb = Infinity, threads?: number): string {
  return text
    .split(/(\r\n|\r|\n)/)
    .map((part, i) => (i % 2 === 1 ? part : sanitize(part, maxHashMb, threads)))
    .join("");
}

/** The replies owed by a whole text. */
export function owedByText(text: string): Owed {
  const total: Owed = { bestmove: 0, readyok: 0, uciok: 0, trap: 0 };
  for (const line of logicalLines(text)) {
    const o = owedBy(line);
    total.bestmove += o.bestmove;
    total.readyok += o.readyok;
    total.uciok += o.uciok;
    total.trap += o.trap;
  }
  return total;
}
