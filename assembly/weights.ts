// The evaluation weights of params.ts seen as one numbered list, for the tuners: each weight
// (a packed S(mg, eg) or a plain integer) has an index, a name and a getter and setter. The
// evaluation trace (trace.ts) reports coefficients against these indices.

import * as P from "./params";

// Kinds of weight: a packed midgame/endgame score, or a plain integer (king attack units).
export const KIND_PACKED = 0;
export const KIND_PLAIN = 1;

// First index of each weight; a table of n entries occupies n indices.
export const W_PIECE_VALUE = 0;
export const W_PAWN_PSQ = W_PIECE_VALUE + 7;
export const W_KNIGHT_PSQ = W_PAWN_PSQ + 32;
export const W_BISHOP_PSQ = W_KNIGHT_PSQ + 32;
export const W_ROOK_PSQ = W_BISHOP_PSQ + 32;
export const W_QUEEN_PSQ = W_ROOK_PSQ + 32;
export const W_KING_PSQ = W_QUEEN_PSQ + 32;
export const W_KNIGHT_MOBILITY = W_KING_PSQ + 32;
export const W_BISHOP_MOBILITY = W_KNIGHT_MOBILITY + 9;
export const W_ROOK_MOBILITY = W_BISHOP_MOBILITY + 14;
export const W_QUEEN_MOBILITY = W_ROOK_MOBILITY + 15;
export const W_CONNECTED_PAWN = W_QUEEN_MOBILITY + 28;
export const W_PASSED_PAWN = W_CONNECTED_PAWN + 8;
export const W_PASSED_FREE_PATH = W_PASSED_PAWN + 8;
export const W_PAWN_STORM = W_PASSED_FREE_PATH + 8;
export const W_KING_ATTACK_UNITS = W_PAWN_STORM + 4;
export const W_DOUBLED_PAWN = W_KING_ATTACK_UNITS + 7;
export const W_ISOLATED_PAWN = W_DOUBLED_PAWN + 1;
export const W_BACKWARD_PAWN = W_ISOLATED_PAWN + 1;
export const W_PASSED_THEIR_KING_DISTANCE = W_BACKWARD_PAWN + 1;
export const W_PASSED_OUR_KING_DISTANCE = W_PASSED_THEIR_KING_DISTANCE + 1;
export const W_BISHOP_PAIR = W_PASSED_OUR_KING_DISTANCE + 1;
export const W_ROOK_OPEN_FILE = W_BISHOP_PAIR + 1;
export const W_ROOK_SEMI_OPEN_FILE = W_ROOK_OPEN_FILE + 1;
export const W_ROOK_ON_SEVENTH = W_ROOK_SEMI_OPEN_FILE + 1;
export const W_KNIGHT_OUTPOST = W_ROOK_ON_SEVENTH + 1;
export const W_BISHOP_OUTPOST = W_KNIGHT_OUTPOST + 1;
export const W_TEMPO = W_BISHOP_OUTPOST + 1;
export const W_THREAT_BY_PAWN = W_TEMPO + 1;
export const W_THREAT_BY_MINOR = W_THREAT_BY_PAWN + 1;
export const W_THREAT_BY_ROOK = W_THREAT_BY_MINOR + 1;
export const W_HANGING = W_THREAT_BY_ROOK + 1;
export const W_SHIELD_PAWN_NEAR = W_HANGING + 1;
export const W_SHIELD_PAWN_FAR = W_SHIELD_PAWN_NEAR + 1;
export const W_SHIELD_MISSING = W_SHIELD_PAWN_FAR + 1;
export const WEIGHT_COUNT = W_SHIELD_MISSING + 1;

// The tables' names in index order, then the scalars' names in index order (functions, not
// globals, so that builds without the tuner do not carry them).
const TABLE_COUNT = 16;
const SCALAR_COUNT = 19;

function tableName(t: i32): string {
  return ("PIECE_VALUE PAWN_PSQ KNIGHT_PSQ BISHOP_PSQ ROOK_PSQ QUEEN_PSQ KING_PSQ KNIGHT_MOBILITY BISHOP_MOBILITY " +
    "ROOK_MOBILITY QUEEN_MOBILITY CONNECTED_PAWN PASSED_PAWN PASSED_FREE_PATH PAWN_STORM KING_ATTACK_UNITS").split(" ")[t];
}

function scalarName(i: i32): string {
  return ("DOUBLED_PAWN ISOLATED_PAWN BACKWARD_PAWN PASSED_THEIR_KING_DISTANCE PASSED_OUR_KING_DISTANCE BISHOP_PAIR " +
    "ROOK_OPEN_FILE ROOK_SEMI_OPEN_FILE ROOK_ON_SEVENTH KNIGHT_OUTPOST BISHOP_OUTPOST TEMPO THREAT_BY_PAWN " +
    "THREAT_BY_MINOR THREAT_BY_ROOK HANGING SHIELD_PAWN_NEAR SHIELD_PAWN_FAR SHIELD_MISSING").split(" ")[i];
}

function table(t: i32): StaticArray<i32> {
  switch (t) {
    case 0: return P.PIECE_VALUE;
    case 1: return P.PAWN_PSQ;
    case 2: return P.KNIGHT_PSQ;
    case 3: return P.BISHOP_PSQ;
    case 4: return P.ROOK_PSQ;
    case 5: return P.QUEEN_PSQ;
    case 6: return P.KING_PSQ;
    case 7: return P.KNIGHT_MOBILITY;
    case 8: return P.BISHOP_MOBILITY;
    case 9: return P.ROOK_MOBILITY;
    case 10: return P.QUEEN_MOBILITY;
    case 11: return P.CONNECTED_PAWN;
    case 12: return P.PASSED_PAWN;
    case 13: return P.PASSED_FREE_PATH;
    case 14: return P.PAWN_STORM;
    default: return P.KING_ATTACK_UNITS;
  }
}

/** Index of the table holding weight i, or -1 for a scalar; tableStart gives its first index. */
function tableOf(i: i32): i32 {
  let start = 0;
  for (let t = 0; t < TABLE_COUNT; t++) {
    const n = table(t).length;
    if (i < start + n) return t;
    start += n;
  }
  return -1;
}

function tableStart(t: i32): i32 {
  let start = 0;
  for (let k = 0; k < t; k++) start += table(k).length;
  return start;
}

function scalarStart(): i32 {
  return tableStart(TABLE_COUNT);
}

/** Name of weight i: "PAWN_PSQ[12]" for a table entry, "TEMPO" for a scalar. */
export function weightName(i: i32): string {
  const t = tableOf(i);
  if (t >= 0) return tableName(t) + "[" + (i - tableStart(t)).toString() + "]";
  return scalarName(i - scalarStart());
}

/** KIND_PACKED or KIND_PLAIN. */
export function weightKind(i: i32): i32 {
  return i >= W_KING_ATTACK_UNITS && i < W_KING_ATTACK_UNITS + 7 ? KIND_PLAIN : KIND_PACKED;
}

/** Value of weight i (packed for KIND_PACKED). */
export function getWeight(i: i32): i32 {
  const t = tableOf(i);
  if (t >= 0) return table(t)[i - tableStart(t)];
  switch (i - scalarStart()) {
    case 0: return P.DOUBLED_PAWN;
    case 1: return P.ISOLATED_PAWN;
    case 2: return P.BACKWARD_PAWN;
    case 3: return P.PASSED_THEIR_KING_DISTANCE;
    case 4: return P.PASSED_OUR_KING_DISTANCE;
    case 5: return P.BISHOP_PAIR;
    case 6: return P.ROOK_OPEN_FILE;
    case 7: return P.ROOK_SEMI_OPEN_FILE;
    case 8: return P.ROOK_ON_SEVENTH;
    case 9: return P.KNIGHT_OUTPOST;
    case 10: return P.BISHOP_OUTPOST;
    case 11: return P.TEMPO;
    case 12: return P.THREAT_BY_PAWN;
    case 13: return P.THREAT_BY_MINOR;
    case 14: return P.THREAT_BY_ROOK;
    case 15: return P.HANGING;
    case 16: return P.SHIELD_PAWN_NEAR;
    case 17: return P.SHIELD_PAWN_FAR;
    default: return P.SHIELD_MISSING;
  }
}

/** Sets weight i; call initParams() and clearPawnTable() after a batch of changes. */
export function setWeight(i: i32, v: i32): void {
  const t = tableOf(i);
  if (t >= 0) {
    table(t)[i - tableStart(t)] = v;
    return;
  }
  switch (i - scalarStart()) {
    case 0: P.DOUBLED_PAWN = v; break;
    case 1: P.ISOLATED_PAWN = v; break;
    case 2: P.BACKWARD_PAWN = v; break;
    case 3: P.PASSED_THEIR_KING_DISTANCE = v; break;
    case 4: P.PASSED_OUR_KING_DISTANCE = v; break;
    case 5: P.BISHOP_PAIR = v; break;
    case 6: P.ROOK_OPEN_FILE = v; break;
    case 7: P.ROOK_SEMI_OPEN_FILE = v; break;
    case 8: P.ROOK_ON_SEVENTH = v; break;
    case 9: P.KNIGHT_OUTPOST = v; break;
    case 10: P.BISHOP_OUTPOST = v; break;
    case 11: P.TEMPO = v; break;
    case 12: P.THREAT_BY_PAWN = v; break;
    case 13: P.THREAT_BY_MINOR = v; break;
    case 14: P.THREAT_BY_ROOK = v; break;
    case 15: P.HANGING = v; break;
    case 16: P.SHIELD_PAWN_NEAR = v; break;
    case 17: P.SHIELD_PAWN_FAR = v; break;
    default: P.SHIELD_MISSING = v;
  }
}

/** Checks that the index constants above match the tables' lengths; "" when they do. */
export function checkWeightLayout(): string {
  const starts: i32[] = [
    W_PIECE_VALUE, W_PAWN_PSQ, W_KNIGHT_PSQ, W_BISHOP_PSQ, W_ROOK_PSQ, W_QUEEN_PSQ, W_KING_PSQ,
    W_KNIGHT_MOBILITY, W_BISHOP_MOBILITY, W_ROOK_MOBILITY, W_QUEEN_MOBILITY,
    W_CONNECTED_PAWN, W_PASSED_PAWN, W_PASSED_FREE_PATH, W_PAWN_STORM, W_KING_ATTACK_UNITS, W_DOUBLED_PAWN,
  ];
  for (let t = 0; t < TABLE_COUNT; t++) {
    if (tableStart(t) != starts[t]) return tableName(t) + " starts at " + tableStart(t).toString() + ", not " + starts[t].toString();
  }
  if (scalarStart() != W_DOUBLED_PAWN) return "scalars start at " + scalarStart().toString();
  if (scalarStart() + SCALAR_COUNT != WEIGHT_COUNT) return "WEIGHT_COUNT is not the number of weights";
  return "";
}
