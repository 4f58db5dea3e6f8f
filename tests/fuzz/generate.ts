// Hostile UCI input for the fuzzer, from a seeded generator: valid commands, the same with
// wrong arguments, huge numbers, truncations and byte-level mutations of them, binary junk,
// go/stop storms, and `position` lines with 10,000 moves. Legal moves come from our own Core.

import { Core, START_FEN } from "../../bindings/core.js";

/** A small seeded PRNG (mulberry32): the same seed gives the same input. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

const FENS = [
  START_FEN,
  "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
  "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
  "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
  "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
  "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1",
  "4k3/8/8/8/8/8/8/4K3 w - - 99 80",
  "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
  // In the 3-4-piece tables, and a capture away from them (SyzygyPath).
  "8/8/8/4k3/8/8/3KP3/8 w - - 0 1",
  "8/8/8/8/3k4/6p1/3r4/3QK3 w - - 0 1",
];

const HUGE = [
  "99999999999999999999999", "18446744073709551616", "18446744073709551615", "4294967296", "4294967295",
  "2147483648", "2147483647", "-2147483649", "1e308", "1e400", "-1e400", "Infinity", "-Infinity", "NaN",
  "0x7fffffff", "9".repeat(400), "-0", "1.5", "0b101", "1_000", "+5", "٣", "１０",
];

const JUNK_WORDS = [
  "", "banana", "-1", "0", "value", "name", "moves", "fen", "startpos", "perft", "searchmoves", "ponder",
  "infinite", "e2e4", "e7e8q", "e1g1", "0000", "a9a1", "e2e4e5", "zz", "\u0000", "\u00a0", "\u2028", "\ufeff",
  "\uffff", "💥", "é", "\t", "%s%n", "${x}", "'", '"', "\\",
];

const OPTIONS = [
  "Hash", "Threads", "MultiPV", "Move Overhead", "Ponder", "Clear Hash", "Debug Search Features", "hash", "MULTIPV", "Nope",
  "SyzygyPath", "SyzygyProbeLimit", "Syzygy50MoveRule", "Search Mode",
];

export class InputGenerator {
  constructor(
    readonly rng: Rng,
    private readonly core: Core,
  ) {}

  /** A random legal game of up to maxPlies from fen, as UCI moves. */
  legalGame(fen: string, maxPlies: number): string[] {
    this.core.setPosition(fen);
    const moves: string[] = [];
    for (let i = 0; i < maxPlies; i++) {
      const legal = this.core.legalMoves();
      if (legal.length === 0) break;
      const m = this.rng.pick(legal);
      this.core.playMove(m);
      moves.push(m);
    }
    return moves;
  }

  private number(): string {
    const r = this.rng;
    return r.chance(0.3) ? r.pick(HUGE) : r.chance(0.5) ? String(r.range(0, 20)) : String(r.range(-5, 100000));
  }

  private positionLine(): string {
    const r = this.rng;
    const fen = r.pick(FENS);
    const head = fen === START_FEN && r.chance(0.5) ? "position startpos" : `position fen ${fen}`;
    return r.chance(0.3) ? head : `${head} moves ${this.legalGame(fen, r.range(1, 40)).join(" ")}`;
  }

  private goLine(): string {
    const r = this.rng;
    const parts = ["go"];
    const n = r.range(0, 3);
    for (let i = 0; i < n; i++) {
      switch (r.int(7)) {
        case 0: parts.push("depth", String(r.range(1, 6))); break;
        case 1: parts.push("nodes", String(r.range(1, 20000))); break;
        case 2: parts.push("movetime", String(r.range(1, 40))); break;
        case 3: parts.push("wtime", String(r.range(0, 2000)), "btime", String(r.range(0, 2000)), "winc", String(r.range(0, 50))); break;
        case 4: parts.push(r.pick(["infinite", "ponder"])); break;
        case 5: parts.push("mate", String(r.range(1, 4))); break;
        default: parts.push("searchmoves", ...this.legalGame(START_FEN, 1), r.pick(["e2e4", "a1a8", "d2d4"]));
      }
    }
    return parts.join(" ");
  }

  /** A well-formed command. */
  valid(): string {
    const r = this.rng;
    switch (r.int(14)) {
      case 0: return "uci";
      case 1: return "isready";
      case 2: return "ucinewgame";
      case 3: case 4: return this.positionLine();
      case 5: case 6: return this.goLine();
      case 7: return "stop";
      case 8: return "ponderhit";
      case 9: {
        const o = r.pick(["Hash", "MultiPV", "Move Overhead", "Debug Search Features", "Threads"]);
        const v = o === "Hash" ? r.range(1, 64) : o === "MultiPV" ? r.range(1, 5) : o === "Threads" ? 1 : r.range(0, 511);
        return `setoption name ${o} value ${v}`;
      }
      case 10: return r.pick([
        "setoption name Clear Hash", "setoption name Ponder value true", "debug on", "debug off", "register later",
        "setoption name SyzygyPath value app/public/syzygy/3-4", "setoption name SyzygyPath value <empty>",
        "setoption name Syzygy50MoveRule value false", "setoption name SyzygyProbeLimit value 4",
        "setoption name Search Mode value mcts", "setoption name Search Mode value alphabeta",
      ]);
      case 11: return r.pick(["d", "eval"]);
      case 12: return `go perft ${r.range(1, 3)}`;
      default: return r.chance(0.05) ? "debug crash" : "bench 1";
    }
  }

  /** A known command with arguments that are missing, misplaced or of the wrong kind. */
  wrongArguments(): string {
    const r = this.rng;
    const w = () => r.pick(JUNK_WORDS);
    switch (r.int(10)) {
      case 0: return `go ${r.pick(["depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo", "mate"])} ${r.chance(0.5) ? w() : this.number()}`;
      case 1: return `go ${w()} ${w()} ${r.pick(["infinite", "ponder", "searchmoves", ""])}`;
      case 2: return `setoption ${r.pick(["name", "", "value", "nome"])} ${r.pick(OPTIONS)} ${r.pick(["value", "", "valeur"])} ${w()}`;
      case 3: return `position ${r.pick(["", "fen", "startpos", "fen startpos", "moves"])} ${w()} ${w()}`;
      case 4: return `position fen ${this.mutateText(r.pick(FENS))}`;
      case 5: return `position startpos moves ${Array.from({ length: r.range(1, 8) }, w).join(" ")}`;
      case 6: return `go perft ${r.pick(["-1", "0", "21", "2.5", "x", ""])}`;
      case 7: return `bench ${r.pick(["-1", "65", "x", "2.5"])}`;
      case 8: return `${r.pick([...OPTIONS, "joho", "xyzzy"])} ${this.valid()}`;
      default: return `${this.valid()} ${w()} ${w()}`;
    }
  }

  /** A command with a number from the edges: 2^32, 2^64, 1e400, NaN, 400 nines, ... */
  hugeNumbers(): string {
    const r = this.rng;
    const n = () => r.pick(HUGE);
    switch (r.int(6)) {
      case 0: return `go ${r.pick(["depth", "nodes", "mate", "movestogo"])} ${n()}`;
      case 1: return `go wtime ${n()} btime ${n()} winc ${n()} binc ${n()} movestogo ${n()}`;
      case 2: return `go movetime ${r.pick(["1", n()])} depth ${r.pick(["2", n()])}`;
      case 3: return `setoption name ${r.pick(["Hash", "MultiPV", "Move Overhead", "Debug Search Features", "Threads", "SyzygyProbeDepth", "SyzygyProbeLimit"])} value ${n()}`;
      case 4: return `position fen 4k3/8/8/8/8/8/8/4K3 w - - ${n()} ${n()}`;
      default: return `go perft ${n()}`;
    }
  }

  /** Character-level damage: insertions, deletions, replacements, case flips, odd spaces. */
  mutateText(s: string): string {
    const r = this.rng;
    let t = s;
    const edits = r.range(1, 4);
    for (let e = 0; e < edits; e++) {
      const at = r.int(t.length + 1);
      switch (r.int(5)) {
        case 0: t = t.slice(0, at) + String.fromCharCode(r.int(128)) + t.slice(at); break;
        case 1: t = t.slice(0, at) + t.slice(at + 1); break;
        case 2: t = t.slice(0, at) + r.pick(["  ", "\t", "\u000b", "\f", "\u00a0", "\u3000", " \r "]) + t.slice(at); break;
        case 3: t = t.slice(0, at) + (t[at] ?? "").toUpperCase() + t.slice(at + 1); break;
        default: t = t.slice(0, at) + r.pick(JUNK_WORDS) + t.slice(at);
      }
    }
    return t;
  }

  /** Token-level damage: a token dropped, duplicated, swapped or replaced. */
  mutateTokens(s: string): string {
    const r = this.rng;
    const t = s.split(" ");
    const i = r.int(t.length);
    const j = r.int(t.length);
    switch (r.int(4)) {
      case 0: t.splice(i, 1); break;
      case 1: t.splice(i, 0, t[j]); break;
      case 2: [t[i], t[j]] = [t[j], t[i]]; break;
      default: t[i] = r.chance(0.5) ? r.pick(JUNK_WORDS) : r.pick(HUGE);
    }
    return t.join(" ");
  }

  /** A line cut short. */
  truncated(): string {
    const s = this.rng.chance(0.5) ? this.valid() : this.goLine();
    return s.slice(0, this.rng.int(Math.max(1, s.length)));
  }

  /** Random bytes (no newline; CR may split them into several lines). */
  binaryJunk(): Buffer {
    const r = this.rng;
    const n = r.chance(0.05) ? r.range(1000, 20000) : r.range(0, 200);
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) {
      let c = r.int(256);
      if (c === 10) c = 0;
      b[i] = c;
    }
    return b;
  }

  /** One line of any kind except the storms and the 10,000-move positions. */
  anyLine(): string | Buffer {
    const r = this.rng;
    switch (r.int(9)) {
      case 0: case 1: return this.valid();
      case 2: return this.wrongArguments();
      case 3: return this.hugeNumbers();
      case 4: return this.mutateText(this.valid());
      case 5: return this.mutateTokens(r.chance(0.5) ? this.valid() : this.positionLine());
      case 6: return this.truncated();
      case 7: return this.binaryJunk();
      default: return r.chance(0.02) ? "x".repeat(r.range(10_000, 100_000)) : this.valid();
    }
  }

  /** Go and stop interleaved, with ponderhit, isready and position changes among them. */
  storm(lines: number): string[] {
    const r = this.rng;
    const out: string[] = [];
    for (let i = 0; i < lines; i++) {
      const k = r.int(10);
      out.push(
        k < 4 ? this.goLine() : k < 8 ? "stop" : k === 8 ? r.pick(["ponderhit", "isready", "go ponder", "go infinite"]) : this.positionLine(),
      );
    }
    return out;
  }

  /** `position` with 10,000 moves: a legal knight shuffle, a random legal game padded with
   *  junk, or junk alone; then a search on whatever position it left. */
  longPosition(moves = 10_000): string[] {
    const r = this.rng;
    let list: string[];
    switch (r.int(3)) {
      case 0: {
        const cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        list = Array.from({ length: moves }, (_, i) => cycle[i % 4]);
        break;
      }
      case 1: {
        const game = this.legalGame(START_FEN, moves);
        list = game.concat(Array.from({ length: moves - game.length }, () => r.pick(["e2e4", "a1a1", "zz", "0000"])));
        break;
      }
      default:
        list = Array.from({ length: moves }, () => r.pick(JUNK_WORDS.filter((w) => w.trim() !== "")));
    }
    return [`position startpos moves ${list.join(" ")}`, r.pick(["go depth 3", "go movetime 20", "d", "go infinite"])];
  }
}
