// Self-play data files: fixed-size 32-byte position records (marlinformat, laid out in
// assembly/packed-board.ts), read in chunks from a file or a directory of `.bin` files, and
// converted to and from `FEN | score | result` text lines through an engine instance.

import { closeSync, openSync, readSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { Core } from "../bindings/core.js";

export const RECORD_BYTES = 32;
export const RESULT_BLACK_WIN = 0;
export const RESULT_DRAW = 1;
export const RESULT_WHITE_WIN = 2;

/** Score (white's view, centipawns) of record i in buf. */
export function recordScore(buf: Uint8Array, i: number): number {
  const o = buf.byteOffset + i * RECORD_BYTES + 28;
  return new DataView(buf.buffer).getInt16(o, true);
}

/** Result (RESULT_*) of record i in buf. */
export function recordResult(buf: Uint8Array, i: number): number {
  return buf[i * RECORD_BYTES + 30];
}

/** Sets the result byte of every record in buf. */
export function setResults(buf: Uint8Array, result: number): void {
  for (let o = 30; o < buf.length; o += RECORD_BYTES) buf[o] = result;
}

/** The data files a path names: the file itself, or the `.bin` files of a directory in name
 *  order. Throws when there are none. */
export function dataFiles(path: string): string[] {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new Error(`no data at ${path}`);
  }
  const files = stat.isDirectory()
    ? readdirSync(path).filter((f) => f.endsWith(".bin")).sort().map((f) => join(path, f))
    : [path];
  if (files.length === 0) throw new Error(`no .bin data files in ${path}`);
  return files;
}

/** Number of whole records in a data file; throws when its size is not a multiple of 32
 *  (a truncated last record). */
export function recordCount(file: string): number {
  const size = statSync(file).size;
  if (size % RECORD_BYTES !== 0) {
    throw new Error(
      `${file}: ${size} bytes is not a multiple of ${RECORD_BYTES}: record ${Math.floor(size / RECORD_BYTES)} is truncated`,
    );
  }
  return size / RECORD_BYTES;
}

/** A run of records read from one file: records [first, first + count) of `file`. */
export interface RecordChunk {
  file: string;
  first: number;
  count: number;
  bytes: Uint8Array;
}

/** Reads the records of the given files in order, `chunkRecords` at a time. */
export function* readRecords(files: readonly string[], chunkRecords = 4096): Generator<RecordChunk> {
  for (const file of files) {
    const total = recordCount(file);
    const fd = openSync(file, "r");
    try {
      for (let first = 0; first < total; first += chunkRecords) {
        const count = Math.min(chunkRecords, total - first);
        const bytes = new Uint8Array(count * RECORD_BYTES);
        const got = readSync(fd, bytes, 0, bytes.length, first * RECORD_BYTES);
        if (got !== bytes.length) throw new Error(`${file}: short read at record ${first}`);
        yield { file, first, count, bytes };
      }
    } finally {
      closeSync(fd);
    }
  }
}

/** Reads records [first, first + count) of one file. */
export function readRecordRange(file: string, first: number, count: number): Uint8Array {
  const bytes = new Uint8Array(count * RECORD_BYTES);
  const fd = openSync(file, "r");
  try {
    const got = readSync(fd, bytes, 0, bytes.length, first * RECORD_BYTES);
    if (got !== bytes.length) throw new Error(`${file}: short read at record ${first}`);
  } finally {
    closeSync(fd);
  }
  return bytes;
}

/** Moves records between JavaScript buffers and an engine's position through the record
 *  area of its memory. */
export class RecordCodec {
  constructor(private readonly core: Core) {}

  private area(count: number): Uint8Array {
    const w = this.core.exports;
    if (count > w.recordCapacity()) throw new RangeError(`at most ${w.recordCapacity()} records at once`);
    return new Uint8Array(w.memory.buffer, w.recordBuffer(), count * RECORD_BYTES);
  }

  /** The current position as a record with a score (white's view) and result. */
  pack(score: number, result: number): Uint8Array {
    this.core.guard((w) => w.packPosition(0, score, result));
    return this.area(1).slice(0, RECORD_BYTES);
  }

  /** Sets the engine's position from record i of buf; throws an Error naming `where`. */
  unpack(buf: Uint8Array, i: number, where: string): void {
    this.area(1).set(buf.subarray(i * RECORD_BYTES, (i + 1) * RECORD_BYTES));
    this.core.guard((w) => {
      if (w.unpackPosition(0) !== 0) throw new Error(`${where}: ${w.recordError()}`);
    });
  }

  /** Record i of buf as a text line `FEN | score | result` (white's view; 1.0, 0.5, 0.0). */
  toText(buf: Uint8Array, i: number, where: string): string {
    this.unpack(buf, i, where);
    const result = ["0.0", "0.5", "1.0"][recordResult(buf, i)];
    return `${this.core.fen()} | ${recordScore(buf, i)} | ${result}`;
  }

  /** Parses a `FEN | score | result` line (result 1.0/0.5/0.0, 1-0/1/2-1/2/0-1 or [1.0]) into
   *  a record; throws an Error naming `where`. */
  fromText(line: string, where: string): Uint8Array {
    const parts = line.split("|").map((s) => s.trim());
    if (parts.length !== 3) throw new Error(`${where}: expected "FEN | score | result", got ${JSON.stringify(line.slice(0, 120))}`);
    const [fen, scoreText, resultText] = parts;
    if (!/^-?\d+$/.test(scoreText) || Math.abs(Number(scoreText)) > 32767) {
      throw new Error(`${where}: score ${JSON.stringify(scoreText)} is not an integer from -32767 to 32767`);
    }
    const result = parseResult(resultText);
    if (result === undefined) throw new Error(`${where}: result ${JSON.stringify(resultText)} is not 1.0, 0.5 or 0.0`);
    try {
      this.core.setPosition(fen);
    } catch (err) {
      throw new Error(`${where}: ${err instanceof Error ? err.message : String(err)}`);
    }
    return this.pack(Number(scoreText), result);
  }
}

function parseResult(text: string): number | undefined {
  const t = text.replace(/^\[(.*)\]$/, "$1");
  if (t === "1.0" || t === "1" || t === "1-0") return RESULT_WHITE_WIN;
  if (t === "0.5" || t === "1/2-1/2") return RESULT_DRAW;
  if (t === "0.0" || t === "0" || t === "0-1") return RESULT_BLACK_WIN;
  return undefined;
}
