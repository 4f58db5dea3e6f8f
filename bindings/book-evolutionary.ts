// The evolutionary opening book of the seed design (FUSc#): positions with the games that
// reached them (white wins, draws, black wins) and the results of the last 20 of those games.
// A move's score is the mover's result over these games, recent games weighing more; the
// book plays its moves with a probability that favours the most promising one, and learns
// from every finished game it is given. The file format is in docs/books.md.

import { polyglotKey } from "./book-polyglot.js";
import { BookError, byProbability } from "./book.js";
import type { BookMove, BookPosition, OpeningBook } from "./book.js";

/** Results a position keeps in its history. */
export const HISTORY_GAMES = 20;
/** Plies of a game that learning updates (the positions after its first 30 moves). */
export const LEARN_PLIES = 30;
/** Weight of the k-th most recent game: RECENT_DECAY^k (older games than the history:
 *  RECENT_DECAY^HISTORY_GAMES each). */
export const RECENT_DECAY = 0.85;
/** A move's score starts from this many virtual draws, so that one game decides little. */
export const PRIOR_DRAWS = 1;
/** Choice: a move's chance is proportional to exp(SHARPNESS * (score - best score)). */
export const SHARPNESS = 10;

const MAGIC = 0x42454357; // "WCEB" read little-endian
const VERSION = 1;
const HEADER_BYTES = 16;
const ENTRY_BYTES = 32;

/** Result codes, white's view: 0 black won, 1 draw, 2 white won. */
type ResultCode = 0 | 1 | 2;
const RESULT_CODES: Record<string, ResultCode> = { "1-0": 2, "1/2-1/2": 1, "0-1": 0 };

/** One position of the book. */
export interface BookEntry {
  whiteWins: number;
  draws: number;
  blackWins: number;
  /** Results of the last games through the position, newest first (0 black won, 1 draw,
   *  2 white won), at most HISTORY_GAMES. */
  history: ResultCode[];
}

/** FNV-1a over bytes (32 bits), the content hash of the file. */
function fnv1a(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0;
  return h >>> 0;
}

/** The mover's score of an entry (0 to 1): the mover is white when `white`. */
export function entryScore(e: BookEntry, white: boolean): number {
  const mover = (code: number) => (white ? code / 2 : 1 - code / 2);
  let weight = PRIOR_DRAWS;
  let sum = 0.5 * PRIOR_DRAWS;
  e.history.forEach((code, k) => {
    const w = RECENT_DECAY ** k;
    weight += w;
    sum += w * mover(code);
  });
  // The games older than the history, each with the weight of a game just beyond it.
  const recent = [0, 0, 0];
  for (const code of e.history) recent[code]++;
  const older = [e.blackWins - recent[0], e.draws - recent[1], e.whiteWins - recent[2]];
  const w = RECENT_DECAY ** HISTORY_GAMES;
  older.forEach((n, code) => {
    weight += n * w;
    sum += n * w * mover(code);
  });
  return sum / weight;
}

/** An evolutionary book: positions (by Polyglot key) with their games. */
export class EvolutionaryBook implements OpeningBook {
  readonly format = "evolutionary" as const;
  private readonly entries = new Map<bigint, BookEntry>();

  /** An empty book. */
  static create(): EvolutionaryBook {
    return new EvolutionaryBook();
  }

  /** True when the bytes start as an evolutionary book file does. */
  static recognises(bytes: Uint8Array): boolean {
    return bytes.length >= 4 && new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true) === MAGIC;
  }

  /** Reads a book file (docs/books.md); throws a BookError naming the defect (truncated,
   *  corrupt, another version). */
  static fromBytes(bytes: Uint8Array): EvolutionaryBook {
    if (!EvolutionaryBook.recognises(bytes)) throw new BookError("not an evolutionary book (no WCEB header)");
    if (bytes.length < HEADER_BYTES) throw new BookError(`truncated evolutionary book: ${bytes.length} bytes, shorter than its ${HEADER_BYTES}-byte header`);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const version = view.getUint16(4, true);
    if (version !== VERSION) throw new BookError(`evolutionary book version ${version} is not supported (this engine reads version ${VERSION})`);
    const historyGames = view.getUint16(6, true);
    if (historyGames !== HISTORY_GAMES) throw new BookError(`evolutionary book keeps ${historyGames} games of history, not ${HISTORY_GAMES}`);
    const count = view.getUint32(8, true);
    const expected = HEADER_BYTES + count * ENTRY_BYTES;
    if (bytes.length !== expected) {
      throw new BookError(`${bytes.length < expected ? "truncated" : "corrupt"} evolutionary book: its header says ${count} positions (${expected} bytes), the file has ${bytes.length} bytes`);
    }
    if (fnv1a(bytes.subarray(HEADER_BYTES)) !== view.getUint32(12, true)) throw new BookError("corrupt evolutionary book: content hash mismatch");
    const book = new EvolutionaryBook();
    let previous = -1n;
    for (let i = 0; i < count; i++) {
      const at = HEADER_BYTES + i * ENTRY_BYTES;
      const key = view.getBigUint64(at, true);
      if (key <= previous) throw new BookError(`corrupt evolutionary book: position ${i} is out of key order`);
      previous = key;
      const entry: BookEntry = { whiteWins: view.getUint32(at + 8, true), draws: view.getUint32(at + 12, true), blackWins: view.getUint32(at + 16, true), history: [] };
      const n = view.getUint8(at + 20);
      const bits = view.getBigUint64(at + 24, true);
      if (n > HISTORY_GAMES || n > entry.whiteWins + entry.draws + entry.blackWins) throw new BookError(`corrupt evolutionary book: position ${i} has ${n} games of history`);
      for (let k = 0; k < n; k++) {
        const code = Number((bits >> BigInt(2 * k)) & 3n);
        if (code === 3) throw new BookError(`corrupt evolutionary book: position ${i} has an unknown result in its history`);
        entry.history.push(code as ResultCode);
      }
      book.entries.set(key, entry);
    }
    return book;
  }

  /** The book as a file (docs/books.md). */
  toBytes(): Uint8Array {
    const keys = [...this.entries.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const bytes = new Uint8Array(HEADER_BYTES + keys.length * ENTRY_BYTES);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, MAGIC, true);
    view.setUint16(4, VERSION, true);
    view.setUint16(6, HISTORY_GAMES, true);
    view.setUint32(8, keys.length, true);
    keys.forEach((key, i) => {
      const e = this.entries.get(key)!;
      const at = HEADER_BYTES + i * ENTRY_BYTES;
      view.setBigUint64(at, key, true);
      view.setUint32(at + 8, e.whiteWins, true);
      view.setUint32(at + 12, e.draws, true);
      view.setUint32(at + 16, e.blackWins, true);
      view.setUint8(at + 20, e.history.length);
      let bits = 0n;
      e.history.forEach((code, k) => (bits |= BigInt(code) << BigInt(2 * k)));
      view.setBigUint64(at + 24, bits, true);
    });
    view.setUint32(12, fnv1a(bytes.subarray(HEADER_BYTES)), true);
    return bytes;
  }

  /** Number of positions. */
  get size(): number {
    return this.entries.size;
  }

  /** The entry of a position (its FEN), if the book has it. */
  entry(fen: string): BookEntry | undefined {
    const e = this.entries.get(polyglotKey(fen));
    return e && { ...e, history: [...e.history] };
  }

  /** Learns from a finished game: `fens` are the positions after each of its moves, `result`
   *  "1-0", "0-1" or "1/2-1/2". The positions after the first `plies` moves (each once per
   *  game) count the game and put its result first in their history. Returns how many. */
  learn(fens: readonly string[], result: string, plies = LEARN_PLIES): number {
    const code = RESULT_CODES[result];
    if (code === undefined) throw new Error(`a book learns from finished games: result must be 1-0, 0-1 or 1/2-1/2, not ${JSON.stringify(result)}`);
    const keys = new Set(fens.slice(0, plies).map(polyglotKey));
    for (const key of keys) {
      const e = this.entries.get(key) ?? { whiteWins: 0, draws: 0, blackWins: 0, history: [] };
      if (code === 2) e.whiteWins++;
      else if (code === 1) e.draws++;
      else e.blackWins++;
      e.history.unshift(code);
      if (e.history.length > HISTORY_GAMES) e.history.length = HISTORY_GAMES;
      this.entries.set(key, e);
    }
    return keys.size;
  }

  /** The legal moves of a position that lead to a book position, each with the mover's
   *  games and score; the chance of each is proportional to exp(SHARPNESS * (score - best)). */
  moves(position: BookPosition): BookMove[] {
    const white = position.fen.trim().split(/\s+/)[1] === "w";
    const found: BookMove[] = [];
    for (const uci of position.legalMoves) {
      const e = this.entries.get(polyglotKey(position.fenAfter(uci)));
      if (!e) continue;
      const games = e.whiteWins + e.draws + e.blackWins;
      found.push({
        uci, weight: games, probability: 0,
        wins: white ? e.whiteWins : e.blackWins, draws: e.draws, losses: white ? e.blackWins : e.whiteWins,
        score: entryScore(e, white),
      });
    }
    const best = Math.max(...found.map((m) => m.score!));
    const odds = found.map((m) => Math.exp(SHARPNESS * (m.score! - best)));
    const total = odds.reduce((a, b) => a + b, 0);
    found.forEach((m, i) => (m.probability = odds[i] / total));
    return found.sort(byProbability);
  }
}
