// Polyglot opening books (.bin): the Polyglot hash key of a position, and a reader that
// checks the file and answers a position's moves with their weights. The format: 16-byte
// big-endian entries sorted by key: key (64 bits), move (16: to file 0-2, to row 3-5, from
// file 6-8, from row 9-11, promotion 12-14: 0 none, 1 knight ... 4 queen; castling as the
// king taking its rook, e1h1), weight (16), learn (32).

import { POLYGLOT_RANDOM } from "./polyglot-keys.js";
import { BookError, byProbability } from "./book.js";
import type { BookMove, BookPosition, OpeningBook } from "./book.js";

const ENTRY_BYTES = 16;
/** Piece letters by Polyglot's kind number (black pawn 0, white pawn 1, ..., white king 11). */
const KINDS = "pPnNbBrRqQkK";
const CASTLE_OFFSET = 768;
const EP_OFFSET = 772;
const TURN_OFFSET = 780;
const PROMOTIONS = ["", "n", "b", "r", "q"];

/** The board of a FEN's first field as 64 characters (a1 first, "." for an empty square). */
function boardOf(placement: string): string[] {
  const board: string[] = new Array(64).fill(".");
  const ranks = placement.split("/");
  if (ranks.length !== 8) throw new Error(`not a FEN board: ${JSON.stringify(placement)}`);
  ranks.forEach((text, i) => {
    let file = 0;
    for (const ch of text) {
      if (ch >= "1" && ch <= "8") file += Number(ch);
      else board[(7 - i) * 8 + file++] = ch;
    }
  });
  return board;
}

/** The Polyglot key of a position given as FEN (X-FEN and Shredder-FEN castling fields
 *  included): its pieces, castling rights, an en-passant file when a pawn of the side to move
 *  stands beside the pawn that has just advanced two squares, and white to move. */
export function polyglotKey(fen: string): bigint {
  const [placement, side, castling = "-", ep = "-"] = fen.trim().split(/\s+/);
  const board = boardOf(placement);
  let key = 0n;
  board.forEach((ch, sq) => {
    const kind = KINDS.indexOf(ch);
    if (kind >= 0) key ^= POLYGLOT_RANDOM[64 * kind + sq];
  });
  const kingFile = (king: string) => board.indexOf(king) & 7;
  for (const ch of castling === "-" ? "" : castling) {
    const white = ch === ch.toUpperCase();
    const letter = ch.toLowerCase();
    let kingside: boolean;
    if (letter === "k" || letter === "q") kingside = letter === "k";
    else kingside = letter.charCodeAt(0) - 97 > kingFile(white ? "K" : "k");
    key ^= POLYGLOT_RANDOM[CASTLE_OFFSET + (white ? 0 : 2) + (kingside ? 0 : 1)];
  }
  if (ep !== "-") {
    const file = ep.charCodeAt(0) - 97;
    const row = side === "w" ? 4 : 3; // where the capturing pawn stands
    const pawn = side === "w" ? "P" : "p";
    if ((file > 0 && board[row * 8 + file - 1] === pawn) || (file < 7 && board[row * 8 + file + 1] === pawn)) key ^= POLYGLOT_RANDOM[EP_OFFSET + file];
  }
  if (side === "w") key ^= POLYGLOT_RANDOM[TURN_OFFSET];
  return key;
}

function squareName(sq: number): string {
  return String.fromCharCode(97 + (sq & 7)) + String(1 + (sq >> 3));
}

/** A Polyglot book, checked when read: a whole number of entries, sorted by key, each with a
 *  move. The bytes are used in place. */
export class PolyglotBook implements OpeningBook {
  readonly format = "polyglot" as const;
  private readonly view: DataView;

  private constructor(bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Reads a .bin file; throws a BookError naming the defect (empty, truncated, unsorted, an
   *  entry without a move). */
  static fromBytes(bytes: Uint8Array): PolyglotBook {
    if (!(bytes instanceof Uint8Array)) throw new TypeError("a book file must be a Uint8Array");
    if (bytes.length === 0) throw new BookError("the book file is empty");
    if (bytes.length % ENTRY_BYTES !== 0) {
      throw new BookError(`not a Polyglot book, or truncated: ${bytes.length} bytes is not a whole number of ${ENTRY_BYTES}-byte entries`);
    }
    const book = new PolyglotBook(bytes);
    let previous = -1n;
    for (let i = 0; i < book.size; i++) {
      const key = book.keyAt(i);
      if (key < previous) throw new BookError(`not a Polyglot book: entry ${i} is out of key order (entries must be sorted by key)`);
      previous = key;
      const move = book.view.getUint16(i * ENTRY_BYTES + 8);
      if ((move & 63) === ((move >> 6) & 63) || move >> 12 > 4) throw new BookError(`not a Polyglot book: entry ${i} holds no valid move (${move.toString(16)})`);
    }
    return book;
  }

  /** Number of entries. */
  get size(): number {
    return this.view.byteLength / ENTRY_BYTES;
  }

  private keyAt(i: number): bigint {
    return this.view.getBigUint64(i * ENTRY_BYTES);
  }

  /** The raw entries of a key: move (Polyglot's encoding), weight and learn value. */
  entries(key: bigint): { move: number; weight: number; learn: number }[] {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.keyAt(mid) < key) lo = mid + 1;
      else hi = mid;
    }
    const out: { move: number; weight: number; learn: number }[] = [];
    for (let i = lo; i < this.size && this.keyAt(i) === key; i++) {
      const at = i * ENTRY_BYTES;
      out.push({ move: this.view.getUint16(at + 8), weight: this.view.getUint16(at + 10), learn: this.view.getUint32(at + 12) });
    }
    return out;
  }

  /** The book's legal moves for a position, with probabilities proportional to the weights
   *  (a move of weight 0 is listed and never played). */
  moves(position: BookPosition): BookMove[] {
    const board = boardOf(position.fen.trim().split(/\s+/)[0]);
    const legal = new Set(position.legalMoves);
    const weights = new Map<string, number>();
    for (const { move, weight } of this.entries(polyglotKey(position.fen))) {
      const uci = toUci(move, board, position.chess960);
      if (legal.has(uci)) weights.set(uci, (weights.get(uci) ?? 0) + weight);
    }
    const total = [...weights.values()].reduce((a, b) => a + b, 0);
    return [...weights].map(([uci, weight]) => ({ uci, weight, probability: total > 0 ? weight / total : 0 })).sort(byProbability);
  }
}

/** A Polyglot move in our UCI: castling (the king taking its own rook) becomes the king's
 *  move to g- or c-file unless the position is Chess960. */
function toUci(move: number, board: readonly string[], chess960: boolean): string {
  const from = (move >> 6) & 63;
  let to = move & 63;
  const piece = board[from];
  if (!chess960 && (piece === "K" || piece === "k") && board[to] === (piece === "K" ? "R" : "r")) {
    to = (from & 56) | ((to & 7) > (from & 7) ? 6 : 2);
  }
  return squareName(from) + squareName(to) + PROMOTIONS[(move >> 12) & 7];
}
