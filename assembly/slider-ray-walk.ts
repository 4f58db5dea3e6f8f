// Slider attacks by stepping along each ray square by square up to the first blocker, the
// way an array board (mailbox) engine generates them. Not a backend to ship: bench:sliders
// builds it as the baseline the table-driven backends are measured against.

import { Bitboard, Square } from "./types";

// Per square and direction (E, W, N, S, NE, SE, NW, SW): squares to the board edge.
// @ts-ignore: decorator
@lazy const STEPS: usize = memory.data(64 * 8, 8);

/** Bytes of lookup data (the step counts), for the backend comparison. */
export const rayWalkTableBytes: i32 = 64 * 8;
// @ts-ignore: decorator
@lazy const DIR_FILE: StaticArray<i32> = [1, -1, 0, 0, 1, 1, -1, -1];
// @ts-ignore: decorator
@lazy const DIR_RANK: StaticArray<i32> = [0, 0, 1, -1, 1, -1, 1, -1];

// @ts-ignore: decorator
@inline function walk(sq: Square, occ: Bitboard, dir: i32, delta: i32): Bitboard {
  let att: u64 = 0;
  let s = sq;
  for (let n = <i32>load<u8>(STEPS + (<usize>sq << 3) + <usize>dir); n > 0; n--) {
    s += delta;
    const b = (<u64>1) << <u64>s;
    att |= b;
    if (occ & b) break;
  }
  return att;
}

/** Rook attacks from sq given the occupancy occ. */
// @ts-ignore: decorator
@inline export function rayWalkRookAttacks(sq: Square, occ: Bitboard): Bitboard {
  return walk(sq, occ, 0, 1) | walk(sq, occ, 1, -1) | walk(sq, occ, 2, 8) | walk(sq, occ, 3, -8);
}

/** Bishop attacks from sq given the occupancy occ. */
// @ts-ignore: decorator
@inline export function rayWalkBishopAttacks(sq: Square, occ: Bitboard): Bitboard {
  return walk(sq, occ, 4, 9) | walk(sq, occ, 5, -7) | walk(sq, occ, 6, 7) | walk(sq, occ, 7, -9);
}

/** Fills the step counts; runs at start-up in the ray-walk build only. */
export function initRayWalk(): void {
  for (let sq = 0; sq < 64; sq++) {
    for (let d = 0; d < 8; d++) {
      let n = 0;
      let f = (sq & 7) + DIR_FILE[d];
      let r = (sq >> 3) + DIR_RANK[d];
      for (; f >= 0 && f < 8 && r >= 0 && r < 8; n++) {
        f += DIR_FILE[d];
        r += DIR_RANK[d];
      }
      store<u8>(STEPS + (<usize>sq << 3) + <usize>d, <u8>n);
    }
  }
}
