// Every evaluation weight, by name, in one place, as packed midgame/endgame scores S(mg, eg).
// Tables are mutable so that a tuner can read and write them; call initParams() after a
// change to rebuild the derived piece-square tables.

import { PIECE_NB, PAWN, KING, WHITE, BLACK, makePiece } from "./types";
import { S } from "./score";

// ---------------------------------------------------------------- material
/** Material by piece type (none, pawn, knight, bishop, rook, queen, king). */
export const PIECE_VALUE: StaticArray<i32> = [
  0, S(85, 105), S(320, 300), S(335, 320), S(470, 540), S(960, 1010), 0,
];
/** Game phase weight by piece type; a full board is PHASE_MAX. */
export const PHASE_WEIGHT: StaticArray<i32> = [0, 0, 1, 1, 2, 4, 0];
export const PHASE_MAX = 24;

// ---------------------------------------------------------------- piece-square tables
// Half boards from white's side: 8 ranks (rank 1 first) x files a..d; files e..h mirror them.
// prettier-ignore
export const PAWN_PSQ: StaticArray<i32> = [
  S(  0,   0), S(  0,   0), S(  0,   0), S(  0,   0),
  S(  0,   0), S(  5,   0), S(  5,   0), S(-10,   0),
  S(  0,   5), S(  0,   5), S(  5,   5), S(  5,   5),
  S(  0,  10), S(  0,  10), S( 10,  10), S( 20,  10),
  S(  5,  20), S(  5,  20), S( 15,  20), S( 25,  20),
  S( 10,  35), S( 15,  35), S( 20,  35), S( 30,  35),
  S( 30,  55), S( 30,  55), S( 30,  55), S( 30,  55),
  S(  0,   0), S(  0,   0), S(  0,   0), S(  0,   0),
];
// prettier-ignore
export const KNIGHT_PSQ: StaticArray<i32> = [
  S(-50, -40), S(-30, -25), S(-20, -15), S(-15, -10),
  S(-30, -25), S(-15, -10), S(  0,   0), S(  5,   5),
  S(-20, -15), S(  5,   0), S( 10,  10), S( 15,  15),
  S(-15, -10), S(  5,   5), S( 15,  15), S( 20,  20),
  S(-15, -10), S( 10,   5), S( 20,  15), S( 25,  20),
  S(-20, -15), S( 10,   0), S( 20,  10), S( 25,  15),
  S(-30, -25), S(-10, -10), S(  5,   0), S( 10,   5),
  S(-60, -40), S(-30, -25), S(-20, -15), S(-15, -10),
];
// prettier-ignore
export const BISHOP_PSQ: StaticArray<i32> = [
  S(-20, -15), S(-10, -10), S(-12,  -8), S(-10,  -5),
  S( -5, -10), S( 10,  -5), S(  5,   0), S(  5,   0),
  S( -5,  -8), S(  5,   0), S(  8,   5), S( 10,   5),
  S( -5,  -5), S(  5,   0), S( 10,   5), S( 12,  10),
  S( -5,  -5), S(  8,   0), S( 10,   5), S( 12,  10),
  S( -5,  -8), S(  5,   0), S(  8,   5), S(  8,   5),
  S(-10, -10), S(  0,  -5), S(  0,   0), S(  0,   0),
  S(-20, -15), S(-10, -10), S(-10,  -8), S(-10,  -5),
];
// prettier-ignore
export const ROOK_PSQ: StaticArray<i32> = [
  S( -5,   0), S(  0,   0), S(  5,   0), S( 10,   0),
  S(-10,   0), S( -5,   0), S(  0,   0), S(  0,   0),
  S(-10,   0), S( -5,   0), S(  0,   0), S(  0,   0),
  S(-10,   0), S( -5,   0), S(  0,   0), S(  0,   0),
  S( -5,   0), S(  0,   0), S(  0,   0), S(  5,   0),
  S(  0,   0), S(  5,   0), S(  5,   0), S( 10,   0),
  S( 15,  10), S( 20,  10), S( 20,  10), S( 20,  10),
  S(  5,   5), S(  5,   5), S( 10,   5), S( 10,   5),
];
// prettier-ignore
export const QUEEN_PSQ: StaticArray<i32> = [
  S(-15, -20), S(-10, -15), S( -5, -10), S(  0,  -5),
  S(-10, -15), S(  0,  -5), S(  5,   0), S(  5,   5),
  S( -5, -10), S(  0,   0), S(  5,  10), S(  5,  15),
  S( -5,  -5), S(  0,   5), S(  5,  15), S(  5,  20),
  S( -5,  -5), S(  0,   5), S(  5,  15), S(  5,  20),
  S( -5, -10), S(  0,   0), S(  5,  10), S(  5,  15),
  S(-10, -15), S( -5,  -5), S(  0,   0), S(  0,   5),
  S(-15, -20), S(-10, -15), S( -5, -10), S( -5,  -5),
];
// prettier-ignore
export const KING_PSQ: StaticArray<i32> = [
  S( 20, -50), S( 30, -35), S( 10, -25), S(  0, -20),
  S( 15, -35), S( 15, -20), S( -5, -10), S(-15,  -5),
  S(-10, -25), S(-20, -10), S(-25,   5), S(-30,  10),
  S(-20, -20), S(-30,  -5), S(-35,  10), S(-40,  20),
  S(-30, -20), S(-40,  -5), S(-45,  10), S(-50,  20),
  S(-40, -25), S(-50, -10), S(-55,   5), S(-60,  10),
  S(-50, -35), S(-60, -20), S(-65, -10), S(-70,  -5),
  S(-60, -50), S(-70, -35), S(-75, -25), S(-80, -20),
];

// ---------------------------------------------------------------- mobility
// Bonus by the number of reachable squares (not own pawns or king, not attacked by enemy pawns).
// prettier-ignore
export const KNIGHT_MOBILITY: StaticArray<i32> = [
  S(-35, -40), S(-20, -25), S(-8, -12), S(0, -2), S(6, 6), S(12, 12), S(17, 16), S(21, 19), S(24, 21),
];
// prettier-ignore
export const BISHOP_MOBILITY: StaticArray<i32> = [
  S(-30, -40), S(-18, -25), S(-8, -12), S(0, -3), S(7, 5), S(13, 12), S(18, 18),
  S(22, 23), S(26, 27), S(29, 30), S(31, 33), S(33, 35), S(35, 37), S(36, 38),
];
// prettier-ignore
export const ROOK_MOBILITY: StaticArray<i32> = [
  S(-20, -45), S(-12, -28), S(-7, -15), S(-3, -5), S(0, 4), S(3, 12), S(6, 19), S(9, 25),
  S(12, 30), S(14, 34), S(16, 38), S(18, 41), S(19, 43), S(20, 45), S(21, 46),
];
// prettier-ignore
export const QUEEN_MOBILITY: StaticArray<i32> = [
  S(-15, -30), S(-10, -22), S(-6, -16), S(-3, -10), S(-1, -5), S(1, 0), S(3, 4), S(5, 8),
  S(7, 12), S(8, 15), S(10, 18), S(11, 21), S(12, 24), S(13, 26), S(14, 28), S(15, 30),
  S(16, 32), S(17, 34), S(18, 35), S(19, 36), S(20, 37), S(20, 38), S(21, 39), S(21, 40),
  S(22, 40), S(22, 41), S(23, 41), S(23, 42),
];

// ---------------------------------------------------------------- pawn structure
export let DOUBLED_PAWN: i32 = S(-10, -25);
export let ISOLATED_PAWN: i32 = S(-8, -12);
export let BACKWARD_PAWN: i32 = S(-7, -10);
/** Phalanx or protected pawns, by relative rank. */
export const CONNECTED_PAWN: StaticArray<i32> = [0, S(3, 2), S(5, 4), S(8, 6), S(15, 11), S(25, 19), S(40, 30), 0];
/** Passed pawns by relative rank. */
export const PASSED_PAWN: StaticArray<i32> = [0, S(5, 10), S(8, 15), S(15, 30), S(30, 55), S(55, 90), S(90, 140), 0];
/** Extra for a passed pawn whose path to promotion is empty, by relative rank. */
export const PASSED_FREE_PATH: StaticArray<i32> = [0, 0, S(0, 5), S(0, 10), S(0, 20), S(0, 35), S(0, 60), 0];
/** Per square of king distance to a passed pawn's stop square (theirs, ours), times the
 *  pawn's relative rank - 2, from the 4th rank on. */
export let PASSED_THEIR_KING_DISTANCE: i32 = S(0, 5);
export let PASSED_OUR_KING_DISTANCE: i32 = S(0, 2);
/** The enemy king's distance counts up to this many squares. */
export let PASSED_KING_DISTANCE_CAP: i32 = 5;

// ---------------------------------------------------------------- pieces
export let BISHOP_PAIR: i32 = S(30, 50);
export let ROOK_OPEN_FILE: i32 = S(25, 12);
export let ROOK_SEMI_OPEN_FILE: i32 = S(10, 8);
export let ROOK_ON_SEVENTH: i32 = S(5, 20);
export let KNIGHT_OUTPOST: i32 = S(20, 12);
export let BISHOP_OUTPOST: i32 = S(10, 5);
export let TEMPO: i32 = S(10, 5);

// ---------------------------------------------------------------- threats
/** Enemy pieces (not pawns) attacked by our pawns. */
export let THREAT_BY_PAWN: i32 = S(40, 25);
/** Enemy rooks and queens attacked by our knights or bishops. */
export let THREAT_BY_MINOR: i32 = S(25, 15);
/** Enemy queens attacked by our rooks. */
export let THREAT_BY_ROOK: i32 = S(25, 15);
/** Enemy pieces and pawns we attack that nothing of theirs defends. */
export let HANGING: i32 = S(20, 12);

// ---------------------------------------------------------------- king safety
/** Own pawn in front of the king, by distance in ranks (1, 2), and for an empty file. */
export let SHIELD_PAWN_NEAR: i32 = S(15, 0);
export let SHIELD_PAWN_FAR: i32 = S(8, 0);
export let SHIELD_MISSING: i32 = S(-15, 0);
/** Enemy pawn storming the king's files, by its distance in ranks from the king (1..3). */
export const PAWN_STORM: StaticArray<i32> = [0, S(-5, 0), S(-25, 0), S(-12, 0)];
/** Attack units per piece type attacking the king zone; penalty = units^2 / KING_ATTACK_DIVISOR
 *  (midgame), at most KING_ATTACK_MAX. Units are in quarters, so the tuner can set them finely. */
export const KING_ATTACK_UNITS: StaticArray<i32> = [0, 0, 8, 8, 12, 20, 0];
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
