// Zobrist keys from a seeded PRNG: one per piece and square, castling-rights set,
// en-passant file and side to move; and the eight lane keys of hashed perft's second key
// (perft.ts). Another seed draws them all anew (seedKeys): a deep perft run twice with two
// seeds checks itself, as the trusted records were checked.

import { Key, Piece, Square } from "./types";

// xorshift64* (Vigna); the seed is fixed so every build hashes alike.
const DEFAULT_SEED: u64 = 1070372;
let prngState: u64 = DEFAULT_SEED;

/** Next value of the seeded generator. */
export function rand64(): u64 {
  prngState ^= prngState >> 12;
  prngState ^= prngState << 25;
  prngState ^= prngState >> 27;
  return prngState * 2685821657736338717;
}

const PSQ_KEYS = new StaticArray<u64>(16 * 64); // [piece * 64 + square]
const CASTLING_KEYS = new StaticArray<u64>(16); // one per set of rights
const EP_KEYS = new StaticArray<u64>(8); // one per file
export let SIDE_KEY: Key = 0;
const LANE_KEYS = new StaticArray<u64>(8); // perft's second key, one per word of the position

/** Key of a piece on a square. */
// @ts-ignore: decorator
@inline export function psqKey(pc: Piece, sq: Square): Key {
  return unchecked(PSQ_KEYS[(pc << 6) | sq]);
}

/** Key of a set of castling rights (0..15). */
// @ts-ignore: decorator
@inline export function castlingKey(rights: i32): Key {
  return unchecked(CASTLING_KEYS[rights]);
}

/** Key of an en-passant file (0..7). */
// @ts-ignore: decorator
@inline export function epKey(file: i32): Key {
  return unchecked(EP_KEYS[file]);
}

/** Lane key i (0..7) of hashed perft's second key. */
// @ts-ignore: decorator
@inline export function laneKey(i: i32): u64 {
  return unchecked(LANE_KEYS[i]);
}

function initKeys(): void {
  for (let i = 0; i < 16 * 64; i++) PSQ_KEYS[i] = (i >> 6) & 7 ? rand64() : 0;
  CASTLING_KEYS[0] = 0;
  for (let i = 1; i < 16; i++) CASTLING_KEYS[i] = rand64();
  for (let i = 0; i < 8; i++) EP_KEYS[i] = rand64();
  SIDE_KEY = rand64();
  for (let i = 0; i < 8; i++) LANE_KEYS[i] = rand64();
}

/** Draws every key anew from seed (0: the built-in seed, the keys every build has). The
 *  current position's key is stale until the position is set again. */
export function seedKeys(seed: u64): void {
  prngState = seed == 0 ? DEFAULT_SEED : seed;
  initKeys();
}

initKeys();
