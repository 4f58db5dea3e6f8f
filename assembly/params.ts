// Every evaluation weight, by name, in one place, as packed midgame/endgame scores S(mg, eg).
// Tables are mutable so that a tuner can read and write them; call initParams() after a
// change to rebuild the derived piece-square tables.
// Tuned by `npm run tune -- --data data/hce1 --data data/hce2 --epochs 20 --lr 1 --params-out data/params-texel2.ts` (learn/tune.ts, Texel's method):
//   data/hce1/positions.bin, data/hce2/positions.bin: 920968 training and 111960 validation positions, quiet: true, |score| <= 2000;
//   K = 1.0869, target = 0.5 * result + 0.50 * winProbability(search score);
//   loss (training / validation) 0.029170 / 0.029204 -> 0.027760 / 0.028127.
// Then, from those weights, by TD-Leaf(lambda) (learn/tdleaf.ts; these are the run's weights as it
// wrote them; docs/learning.md has its SPRT against the Texel weights it started from):
//   `npm run tune -- --method tdleaf --games 2000 --nodes 5000 --lambda 0.7 --alpha 30 --k 1.0869 --optimizer sgd --seed 21 --state data/tdleaf/sgd1.json --params-out data/tdleaf/params-sgd1.ts` (learn/tdleaf.ts, TD-Leaf(lambda)):
//   2000 self-play games at 5000 nodes per move in 0.14 h, lambda 0.7, alpha 30 (sgd), K 1.0869, seed 21.

import { PIECE_NB, PAWN, KING, WHITE, BLACK, makePiece } from "./types";
import { S } from "./score";

// ---------------------------------------------------------------- material
/** Material by piece type (none, pawn, knight, bishop, rook, queen, king). */
export const PIECE_VALUE: StaticArray<i32> = [
  0, S(80, 93), S(331, 323), S(346, 346), S(466, 583), S(999, 1105), 0,
];
/** Game phase weight by piece type; a full board is PHASE_MAX. */
export const PHASE_WEIGHT: StaticArray<i32> = [0, 0, 1, 1, 2, 4, 0];
export const PHASE_MAX = 24;

// ---------------------------------------------------------------- piece-square tables
// Half boards from white's side: 8 ranks (rank 1 first) x files a..d; files e..h mirror them.
// prettier-ignore
export const PAWN_PSQ: StaticArray<i32> = [
  S(  0,   0), S(  0,   0), S(  0,   0), S(  0,   0),
  S( -6,   9), S( 13,   9), S(  6,  18), S(-13,  27),
  S( -4,   8), S(  2,   1), S(  4,   9), S(  0,  10),
  S( -7,  13), S(  4,   6), S( 19,   3), S( 23,   0),
  S( -2,  24), S( 12,  14), S( 15,  10), S( 23,   7),
  S( 13,  31), S(  5,  34), S( 23,  23), S(  4,  30),
  S( 96, -25), S(-26,  30), S( 16,  48), S( 25,  25),
  S(  0,   0), S(  0,   0), S(  0,   0), S(  0,   0),
];
// prettier-ignore
export const KNIGHT_PSQ: StaticArray<i32> = [
  S(-41,  -2), S(-18,   6), S(-10,   2), S( -2,  -8),
  S(-17, -38), S( -6, -19), S( -5, -28), S(  1,   3),
  S(-23,  -9), S(  6,  -7), S(  2,   5), S( 13,  17),
  S( -4,  13), S( -1,  -5), S(  6,  22), S( 11,  26),
  S( 24,  -6), S(  9,  12), S( 19,  27), S( 22,  35),
  S( -3, -16), S( 22,   3), S( 32,   6), S( 31,  20),
  S( -9, -27), S( -9,  -7), S( -1,   0), S(  7,  11),
  S(-83, -28), S(-61,  -3), S(-74,   0), S(-14,   4),
];
// prettier-ignore
export const BISHOP_PSQ: StaticArray<i32> = [
  S(-29,   6), S( -6,  -5), S( -7, -10), S(-18,   3),
  S(-12,  19), S( 14,  -8), S( 13,   0), S(  2,  -4),
  S( -4,   1), S( 19,   2), S(  6,   5), S(  9,   1),
  S( 13, -11), S( -8,   4), S(  7,  14), S( 22,   7),
  S( -4,   2), S( 11,   2), S( -3,   8), S( 25,  10),
  S( 10,  -6), S(-16,  19), S(  7,  15), S( 10,  -4),
  S(-44,   9), S(-14,  12), S(-20,   6), S(  5,  -4),
  S( -2,  11), S(-26,   6), S(-42, -10), S( 36,  -1),
];
// prettier-ignore
export const ROOK_PSQ: StaticArray<i32> = [
  S( -5, -14), S( -3,  -5), S(  3,  -9), S(  8, -17),
  S(-28,   6), S( -5,  -8), S( -7,   8), S( -9,  -2),
  S( -8,   5), S( -1, -10), S(  0,   3), S(-32,  13),
  S(-21,  20), S(-12,  15), S( -9,  13), S( -8,  17),
  S(  7,  10), S( 28,   9), S(  7,  16), S( 22,   7),
  S(  7,  16), S( 25,  11), S( 10,  16), S( 28,  15),
  S( 19,  13), S(  8,  12), S( 34,  11), S( 42,   5),
  S( 52,   4), S( 42,  27), S(  6,  23), S( 37,  19),
];
// prettier-ignore
export const QUEEN_PSQ: StaticArray<i32> = [
  S(-24,  -6), S( 12, -59), S( -7, -54), S( -1, -52),
  S(-22, -19), S( 17, -59), S(  9, -27), S(  4, -19),
  S(-19,  30), S( 11, -13), S( -6,  30), S( -1,  14),
  S( -3,  -4), S( -3,  23), S(-13,  33), S( -4,  35),
  S( 23,   6), S(-11,  49), S(  2,  60), S(-10,  81),
  S( 31,  -6), S( 40,   3), S(  2,  62), S( 19,  50),
  S(-11,   7), S(-21,  47), S(  0,  34), S(  7,  57),
  S(-16,  37), S(  6,  14), S( 57,  22), S( -8,  59),
];
// prettier-ignore
export const KING_PSQ: StaticArray<i32> = [
  S(  13,  -50), S(  33,  -44), S(   8,  -41), S(   5,  -48),
  S(  13,  -37), S(  13,  -26), S( -10,  -19), S( -24,  -18),
  S( -13,  -21), S(  -2,  -11), S( -41,    0), S( -68,   10),
  S(-114,   13), S( -33,    4), S( -52,   13), S( -92,   25),
  S( -45,    3), S( -76,   21), S(   1,   14), S( -74,   22),
  S(  24,  -14), S(  88,    6), S( -12,   25), S(   2,    8),
  S(  88,    3), S( -52,   38), S(   5,   17), S(  30,   19),
  S( -32, -118), S( 137,   21), S( 127,  -35), S(  71,    6),
];

// ---------------------------------------------------------------- mobility
// Bonus by the number of reachable squares (not own pawns or king, not attacked by enemy pawns).
// prettier-ignore
export const KNIGHT_MOBILITY: StaticArray<i32> = [
  S(-32, -82), S(-17, -60), S(-6, -11), S(1, 9), S(6, 22), S(11, 30), S(17, 28), S(26, 24), S(15, 14),
];
// prettier-ignore
export const BISHOP_MOBILITY: StaticArray<i32> = [
  S(-29, -47), S(-14, -23), S(-2, -28), S(6, -3), S(10, 14), S(17, 21), S(20, 26),
  S(21, 35), S(29, 31), S(27, 39), S(30, 33), S(18, 44), S(26, 34), S(-96, 70),
];
// prettier-ignore
export const ROOK_MOBILITY: StaticArray<i32> = [
  S(-56, -88), S(-16, -50), S(1, -19), S(0, -7), S(6, 7), S(4, 26), S(5, 27), S(10, 30),
  S(13, 37), S(14, 44), S(16, 47), S(21, 50), S(24, 54), S(24, 56), S(24, 56),
];
// prettier-ignore
export const QUEEN_MOBILITY: StaticArray<i32> = [
  S(-15, -30), S(-13, -2), S(-10, -137), S(-3, -38), S(-3, -2), S(-3, -2), S(1, -7), S(1, -6),
  S(2, 27), S(3, 26), S(8, 31), S(11, 30), S(13, 41), S(17, 40), S(14, 51), S(17, 58),
  S(21, 61), S(23, 56), S(28, 68), S(33, 53), S(58, 36), S(47, 47), S(49, 38), S(73, 38),
  S(90, 30), S(27, 28), S(89, 81), S(81, 36),
];

// ---------------------------------------------------------------- pawn structure
export let DOUBLED_PAWN: i32 = S(-15, -15);
export let ISOLATED_PAWN: i32 = S(-3, -16);
export let BACKWARD_PAWN: i32 = S(0, -19);
/** Phalanx or protected pawns, by relative rank. */
export const CONNECTED_PAWN: StaticArray<i32> = [0, S(4, -4), S(13, 0), S(11, 5), S(18, 16), S(61, 52), S(194, 82), 0];
/** Passed pawns by relative rank. */
export const PASSED_PAWN: StaticArray<i32> = [0, S(0, 24), S(10, 18), S(12, 13), S(31, 22), S(64, 36), S(94, 73), 0];
/** Extra for a passed pawn whose path to promotion is empty, by relative rank. */
export const PASSED_FREE_PATH: StaticArray<i32> = [0, S(-1, -1), S(-19, 10), S(-16, 16), S(8, 19), S(35, 39), S(58, 72), 0];
/** Per square of king distance to a passed pawn's stop square (theirs, ours), times the
 *  pawn's relative rank - 2, from the 4th rank on. */
export let PASSED_THEIR_KING_DISTANCE: i32 = S(-5, 18);
export let PASSED_OUR_KING_DISTANCE: i32 = S(0, 7);
/** The enemy king's distance counts up to this many squares. */
export let PASSED_KING_DISTANCE_CAP: i32 = 5;

// ---------------------------------------------------------------- pieces
export let BISHOP_PAIR: i32 = S(31, 47);
export let ROOK_OPEN_FILE: i32 = S(41, -3);
export let ROOK_SEMI_OPEN_FILE: i32 = S(17, 12);
export let ROOK_ON_SEVENTH: i32 = S(1, 18);
export let KNIGHT_OUTPOST: i32 = S(22, 14);
export let BISHOP_OUTPOST: i32 = S(21, 3);
export let TEMPO: i32 = S(9, 3);

// ---------------------------------------------------------------- threats
/** Enemy pieces (not pawns) attacked by our pawns. */
export let THREAT_BY_PAWN: i32 = S(47, 20);
/** Enemy rooks and queens attacked by our knights or bishops. */
export let THREAT_BY_MINOR: i32 = S(45, 1);
/** Enemy queens attacked by our rooks. */
export let THREAT_BY_ROOK: i32 = S(40, 16);
/** Enemy pieces and pawns we attack that nothing of theirs defends. */
export let HANGING: i32 = S(14, 28);

// ---------------------------------------------------------------- king safety
/** Own pawn in front of the king, by distance in ranks (1, 2), and for an empty file. */
export let SHIELD_PAWN_NEAR: i32 = S(17, -3);
export let SHIELD_PAWN_FAR: i32 = S(3, 1);
export let SHIELD_MISSING: i32 = S(-14, 2);
/** Enemy pawn storming the king's files, by its distance in ranks from the king (1..3). */
export const PAWN_STORM: StaticArray<i32> = [0, S(-8, 2), S(-14, -6), S(-8, 3)];
/** Attack units per piece type attacking the king zone; penalty = units^2 / KING_ATTACK_DIVISOR
 *  (midgame), at most KING_ATTACK_MAX. Units are in quarters, so the tuner can set them finely. */
export const KING_ATTACK_UNITS: StaticArray<i32> = [0, 0, 12, 10, 19, 17, 0];
export let KING_ATTACK_DIVISOR: i32 = 32;
export let KING_ATTACK_MAX: i32 = 600;
/** The attack counts only with at least this many attackers (and the enemy queen on board). */
export let KING_ATTACKERS_MIN: i32 = 2;

// ---------------------------------------------------------------- endgames
/** Mating a lone king: bonus per step of the weak king towards the edge (1 centre .. 7 edge),
 *  towards the right corner with bishop and knight (0..7), and per step the kings close in. */
export let MOPUP_EDGE: i32 = 20;
export let MOPUP_CORNER: i32 = 30;
export let MOPUP_KING_PROXIMITY: i32 = 15;
/** Endgame scale (of 64) when the side ahead has no pawns and at most a minor piece more:
 *  with less than a rook in all, and with more. */
export let SCALE_NO_PAWNS_MINOR_AHEAD: i32 = 0;
export let SCALE_NO_PAWNS_PIECES: i32 = 16;

// ---------------------------------------------------------------- derived tables
/** Material plus piece-square value of each piece on each square, signed for white (+)
 *  and black (-). Rebuilt by initParams. */
export const PSQ = new StaticArray<i32>(PIECE_NB * 64);

function halfBoard(pt: i32): StaticArray<i32> {
  switch (pt) {
    case PAWN:
      return PAWN_PSQ;
    case 2:
      return KNIGHT_PSQ;
    case 3:
      return BISHOP_PSQ;
    case 4:
      return ROOK_PSQ;
    case 5:
      return QUEEN_PSQ;
    default:
      return KING_PSQ;
  }
}

/** Rebuilds the derived tables from the weights above. */
export function initParams(): void {
  for (let pt = PAWN; pt <= KING; pt++) {
    const table = halfBoard(pt);
    for (let sq = 0; sq < 64; sq++) {
      const file = sq & 7;
      const rank = sq >> 3;
      const v = PIECE_VALUE[pt] + table[rank * 4 + min(file, 7 - file)];
      PSQ[makePiece(WHITE, pt) * 64 + sq] = v;
      PSQ[makePiece(BLACK, pt) * 64 + (sq ^ 56)] = -v;
    }
  }
}

initParams();
