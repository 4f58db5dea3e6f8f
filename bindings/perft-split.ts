// The positions a perft passes through at a given ply, each once with how many move sequences
// reach it: perft(d) of the root is the sum over them of count × perft(d - ply). This is how
// the deep perft records were split over machines (the Distributed Perft Project's perft(11),
// the Grand Chess Tree's perft(12) in 72,078 tasks: the unique positions four plies from the
// start), and what a distributed perft queues.

import type { Core } from "./core.js";

/** A position `ply` plies below the root, reached by `count` move sequences. */
export interface SplitPosition {
  /** The first path that reached it: UCI moves from the root. */
  moves: string[];
  count: bigint;
}

/** Deepest split (the engine's SPLIT_MAX_PLY). */
export const MAX_SPLIT_PLY = 5;

/** Words (u32) of a leaf's record in the engine's chunk (perft-split.ts SPLIT_RECORD_BYTES):
 *  the position's identity, then its path of MAX_SPLIT_PLY u16 moves. */
const IDENTITY_WORDS = 16;
export const SPLIT_RECORD_BYTES = 80;
const RECORD_WORDS = SPLIT_RECORD_BYTES / 4;
/** Records a chunk holds at most (the engine's SPLIT_CHUNK_RECORDS). */
export const SPLIT_CHUNK_RECORDS = 256;

/** The positions found so far, each once: their identities in one typed array, found again
 *  through an open-addressing table of their numbers (a Map of 64-byte strings took 3 µs a
 *  position, most of it hashing and garbage). */
class IdentitySet {
  private identities = new Uint32Array(IDENTITY_WORDS * (1 << 14));
  private slots = new Int32Array(1 << 15).fill(-1);
  size = 0;

  private static hash(words: Uint32Array, at: number): number {
    let h = 0x811c9dc5;
    for (let k = 0; k < IDENTITY_WORDS; k++) h = Math.imul(h ^ words[at + k], 0x01000193) ^ (h >>> 15);
    return h;
  }

  /** The number of the identity at words[at..], added when new (then equal to size - 1). */
  find(words: Uint32Array, at: number): number {
    const mask = this.slots.length - 1;
    for (let s = IdentitySet.hash(words, at) & mask; ; s = (s + 1) & mask) {
      const id = this.slots[s];
      if (id < 0) {
        this.slots[s] = this.size;
        this.store(words, at);
        if (this.size * 2 > this.slots.length) this.grow();
        return this.size - 1;
      }
      if (this.equals(id, words, at)) return id;
    }
  }

  private equals(id: number, words: Uint32Array, at: number): boolean {
    const base = id * IDENTITY_WORDS;
    for (let k = 0; k < IDENTITY_WORDS; k++) if (this.identities[base + k] !== words[at + k]) return false;
    return true;
  }

  private store(words: Uint32Array, at: number): void {
    if ((this.size + 1) * IDENTITY_WORDS > this.identities.length) {
      const bigger = new Uint32Array(this.identities.length * 2);
      bigger.set(this.identities);
      this.identities = bigger;
    }
    const base = this.size * IDENTITY_WORDS;
    for (let k = 0; k < IDENTITY_WORDS; k++) this.identities[base + k] = words[at + k];
    this.size++;
  }

  /** Twice the slots, the identities numbered into them again. */
  private grow(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(-1);
    const mask = this.slots.length - 1;
    for (let id = 0; id < this.size; id++) {
      let s = IdentitySet.hash(this.identities, id * IDENTITY_WORDS) & mask;
      while (this.slots[s] >= 0) s = (s + 1) & mask;
      this.slots[s] = id;
    }
  }
}

/** The unique positions `ply` plies below core's position (0 to MAX_SPLIT_PLY), with how many
 *  paths reach each, in the order they are first reached. The engine walks the paths and
 *  hands over each leaf's identity (bitboards, side to move, castling, en passant: exactly
 *  what a perft below it depends on, not a hash) and path; transpositions are merged here
 *  by the identity. The position is left as it was. */
export function uniquePositions(core: Core, ply: number): SplitPosition[] {
  if (!Number.isInteger(ply) || ply < 0 || ply > MAX_SPLIT_PLY) throw new RangeError(`ply must be an integer from 0 to ${MAX_SPLIT_PLY}, got ${ply}`);
  if (ply === 0) return [{ moves: [], count: 1n }];
  const seen = new IdentitySet();
  const counts: number[] = []; // paths to each position (at most 218^5 < 2^53)
  const paths: number[] = []; // the first path of each, ply move numbers
  const uci = new Map<number, string>(); // UCI text by move number
  const records = new Uint32Array(SPLIT_CHUNK_RECORDS * RECORD_WORDS); // a chunk's copy
  const moves = new Uint16Array(records.buffer);
  core.guard((w) => {
    if (!w.splitStart(ply)) throw new Error("no room for the split's moves in the position's history");
    try {
      for (let n = w.splitNext(); n > 0; n = w.splitNext()) {
        records.set(new Uint32Array(w.memory.buffer, w.splitChunk(), n * RECORD_WORDS));
        for (let r = 0; r < n; r++) {
          const id = seen.find(records, r * RECORD_WORDS);
          if (id < counts.length) {
            counts[id]++;
            continue;
          }
          counts.push(1);
          for (let p = 0; p < ply; p++) {
            const m = moves[2 * (r * RECORD_WORDS + IDENTITY_WORDS) + p];
            if (!uci.has(m)) uci.set(m, w.moveText(m));
            paths.push(m);
          }
        }
      }
    } finally {
      w.splitEnd();
    }
  });
  return counts.map((count, id) => ({ moves: paths.slice(id * ply, (id + 1) * ply).map((m) => uci.get(m)!), count: BigInt(count) }));
}
