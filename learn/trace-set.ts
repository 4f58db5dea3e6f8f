// The tuner's data set: positions from data records, each resolved to a quiet position and
// traced by the tuning build of the engine (assembly/tuner.ts), kept compactly in typed arrays.

import { fileURLToPath } from "node:url";
import { Core } from "../bindings/core.js";
import { RECORD_BYTES, recordResult, recordScore } from "./records.js";

export const TUNE_WASM = new URL("../build/wasmchess-tune.wasm", import.meta.url);

// Layout of a trace in the engine's output (see assembly/tuner.ts).
const TRACE_OK = 0;
const TRACE_BAD_RECORD = 2;
const TRACE_HEADER = 15;

/** The traced positions: coefficients in CSR form plus per-position fields. */
export class TraceSet {
  count = 0;
  /** Coefficients of position p: entries start[p] .. start[p + 1] - 1 of index/coef. */
  start = new Int32Array(1024);
  index = new Uint16Array(1 << 16);
  coef = new Int16Array(1 << 16);
  phase = new Uint8Array(1024);
  scale = new Uint8Array(1024);
  /** Result from white's view: 1, 0.5, 0. */
  result = new Float32Array(1024);
  /** Search score from the data, white's view, centipawns. */
  score = new Float32Array(1024);
  /** The engine's own evaluation of the quiet position (white's view), for checks. */
  engineEval = new Int32Array(1024);
  /** King zone attackers [p * 10 + colour * 5 + k]: k = 0 the attack counts (0/1), 1..4
   *  knights, bishops, rooks, queens. */
  king = new Uint8Array(1024 * 10);
  private entries = 0;

  private grow(positions: number, entries: number): void {
    if (positions + 1 >= this.start.length) {
      const n = Math.max(positions + 1, this.start.length * 2);
      const resize = <T extends Int32Array | Uint8Array | Float32Array>(a: T, k = 1): T => {
        const b = new (a.constructor as new (n: number) => T)(n * k);
        b.set(a);
        return b;
      };
      this.start = resize(this.start);
      this.phase = resize(this.phase);
      this.scale = resize(this.scale);
      this.result = resize(this.result);
      this.score = resize(this.score);
      this.engineEval = resize(this.engineEval);
      this.king = resize(this.king, 10);
    }
    if (entries > this.index.length) {
      const n = Math.max(entries, this.index.length * 2);
      const index = new Uint16Array(n);
      index.set(this.index);
      this.index = index;
      const coef = new Int16Array(n);
      coef.set(this.coef);
      this.coef = coef;
    }
  }

  /** Appends one trace read from words at offset `at`; returns the words it used. */
  add(words: Int32Array, at: number, score: number, result: number): number {
    const n = words[at + 14];
    this.grow(this.count + 1, this.entries + n);
    const p = this.count++;
    this.start[p] = this.entries;
    this.phase[p] = words[at + 1];
    this.scale[p] = words[at + 2];
    this.engineEval[p] = words[at + 3];
    for (let k = 0; k < 10; k++) this.king[p * 10 + k] = words[at + 4 + k];
    this.score[p] = score;
    this.result[p] = result / 2;
    for (let k = 0; k < n; k++) {
      const w = words[at + TRACE_HEADER + k];
      this.index[this.entries] = w >>> 16;
      this.coef[this.entries] = (w << 16) >> 16;
      this.entries++;
    }
    this.start[p + 1] = this.entries;
    return TRACE_HEADER + n;
  }
}

/** Which positions to keep. */
export interface TraceFilter {
  /** Skip positions whose data score is beyond this (mates and decided games). */
  maxScore: number;
  /** Resolve each position to the leaf of a quiescence search before tracing. */
  quiet: boolean;
}

/** Traces records with an engine of the tuning build; skips specials and out-of-range
 *  scores; throws on a bad record naming `where(i)`. */
export class Tracer {
  private constructor(readonly core: Core) {}

  static async create(): Promise<Tracer> {
    const core = await Core.create({ hashMb: 1, wasmUrl: TUNE_WASM });
    if (!core.exports.evalTraceAvailable()) {
      throw new Error(`${fileURLToPath(TUNE_WASM)} cannot trace its evaluation; build it with npm run build:tune`);
    }
    return new Tracer(core);
  }

  /** Traces `count` records of bytes into set; returns how many were kept. */
  trace(set: TraceSet, bytes: Uint8Array, count: number, filter: TraceFilter, where: (i: number) => string): number {
    const w = this.core.exports;
    const capacity = w.recordCapacity();
    let kept = 0;
    for (let first = 0; first < count; first += capacity) {
      const n = Math.min(capacity, count - first);
      new Uint8Array(w.memory.buffer, w.recordBuffer(), n * RECORD_BYTES).set(bytes.subarray(first * RECORD_BYTES, (first + n) * RECORD_BYTES));
      const used = this.core.guard((x) => x.traceRecordSlots(n, filter.quiet));
      const words = new Int32Array(w.memory.buffer, w.traceBuffer(), used);
      let at = 0;
      for (let i = 0; i < n; i++) {
        const status = words[at];
        if (status === TRACE_BAD_RECORD) {
          const rec = first + i;
          new Uint8Array(w.memory.buffer, w.recordBuffer(), RECORD_BYTES).set(bytes.subarray(rec * RECORD_BYTES, (rec + 1) * RECORD_BYTES));
          w.unpackPosition(0);
          throw new Error(`${where(rec)}: ${w.recordError()}`);
        }
        const score = recordScore(bytes, first + i);
        if (status !== TRACE_OK || Math.abs(score) > filter.maxScore) {
          at += TRACE_HEADER + words[at + 14];
          continue;
        }
        at += set.add(words, at, score, recordResult(bytes, first + i));
        kept++;
      }
    }
    return kept;
  }
}
