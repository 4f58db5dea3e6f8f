// Obstruction-difference slider attacks (Michael Hoffmann's member of the subtraction family
// that hyperbola quintessence belongs to): per line, the nearest blocker above the slider
// minus the nearest blocker below it spans exactly the attacked squares. No attack tables,
// only two ray masks per line and square; no byte swap (which wasm lacks), one clz instead.

import { Bitboard, Square } from "./types";
import { slowRookAttacks, slowBishopAttacks } from "./rays";

// Per square 64 bytes: four lines (rank, file, diagonal, anti-diagonal; rook lines first),
// two ray masks each:
//
//   +0 lower ray (the line's squares below sq) | +8 upper ray (the line's squares above sq)
const LINE_SIZE = 16;
const SQUARE_SIZE = 4 * LINE_SIZE;
// @ts-ignore: decorator
@lazy const MASKS: usize = memory.data(64 * SQUARE_SIZE, 16);

/** Bytes of lookup data (the ray masks), for the backend comparison. */
export const obstructionTableBytes: i32 = 64 * SQUARE_SIZE;

// Attacks along one line given its two rays at `masks`. The lowest blocker above (ls1b) and
// the highest blocker below (ms1b, or bit 0 when none) bound the attack set:
// 2 * ls1b - ms1b has ones from ms1b up to ls1b, and the line mask keeps the line's part.
// @ts-ignore: decorator
@inline function lineAttacks(masks: usize, occ: Bitboard): Bitboard {
  const lowerRay = load<u64>(masks);
  const upperRay = load<u64>(masks, 8);
  const lower = lowerRay & occ;
  const upper = upperRay & occ;
  const ms1b = (<u64>-1) << (63 - clz<u64>(lower | 1));
  const ls1b = upper & (0 - upper);
  return (lowerRay | upperRay) & ((ls1b << 1) + ms1b);
}

/** Rook attacks from sq given the occupancy occ. */
// @ts-ignore: decorator
@inline export function obstructionRookAttacks(sq: Square, occ: Bitboard): Bitboard {
  const at = MASKS + <usize>sq * SQUARE_SIZE;
  return lineAttacks(at, occ) | lineAttacks(at + LINE_SIZE, occ);
}

/** Bishop attacks from sq given the occupancy occ. */
// @ts-ignore: decorator
@inline export function obstructionBishopAttacks(sq: Square, occ: Bitboard): Bitboard {
  const at = MASKS + <usize>sq * SQUARE_SIZE + 2 * LINE_SIZE;
  return lineAttacks(at, occ) | lineAttacks(at + LINE_SIZE, occ);
}

// The empty-board rays from sq in the direction (df, dr), taken from the reference attacks.
function ray(sq: Square, df: i32, dr: i32): u64 {
  let all = df != 0 && dr != 0 ? slowBishopAttacks(sq, 0) : slowRookAttacks(sq, 0);
  let r: u64 = 0;
  while (all) {
    const t = <i32>ctz<u64>(all);
    all &= all - 1;
    if (sign((t & 7) - (sq & 7)) == df && sign((t >> 3) - (sq >> 3)) == dr) r |= (<u64>1) << <u64>t;
  }
  return r;
}

// @ts-ignore: decorator
@inline function sign(x: i32): i32 {
  return x > 0 ? 1 : x < 0 ? -1 : 0;
}

/** Fills the ray masks; runs at start-up in the obstruction-difference build only. */
export function initObstruction(): void {
  // Up directions of rank, file, diagonal and anti-diagonal; the lower ray is the opposite.
  const df: StaticArray<i32> = [1, 0, 1, -1];
  const dr: StaticArray<i32> = [0, 1, 1, 1];
  for (let sq = 0; sq < 64; sq++) {
    for (let l = 0; l < 4; l++) {
      const at = MASKS + <usize>sq * SQUARE_SIZE + <usize>l * LINE_SIZE;
      store<u64>(at, ray(sq, -df[l], -dr[l]));
      store<u64>(at, ray(sq, df[l], dr[l]), 8);
    }
  }
}
