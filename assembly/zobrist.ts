// Zobrist keys from a seeded PRNG: one per piece and square, castling-rights set,
// en-passant file and side to move.

import { Key, Piece, Square } from "./types";

// xorshift64* (Vigna); the seed is fixed so every build hashes alike.
let prngState: u64 = 1070372;

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

function initKeys(): void {
  for (let i = 0; i < 16 * 64; i++) PSQ_KEYS[i] = (i >> 6) & 7 ? rand64() : 0;
  CASTLING_KEYS[0] = 0;
  for (let i = 1; i < 16; i++) CASTLING_KEYS[i] = rand64();
  for (let i = 0; i < 8; i++) EP_KEYS[i] = rand64();
  SIDE_KEY = rand64();
}

initKeys();
