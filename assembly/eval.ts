// Static evaluation, tapered between midgame and endgame by the game phase: material and
// piece-square tables, mobility, pawn structure, passed pawns, king safety, piece terms,
// tempo, and endgame knowledge (dead draws, drawish scaling, mating a lone king).
// Each term is recorded per colour so that `eval` can show the breakdown.

import { Color, Square, WHITE, BLACK, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, fileOf, rankOf, relativeRank } from "./types";
import {
  FILE_A_BB, squareBB, fileBB, popcount, lsb, msb, distance, pawnAttacksBB, pawnPush,
  LIGHT_SQUARES_BB, DARK_SQUARES_BB,
} from "./bitboard";
import { knightAttacks, bishopAttacks, rookAttacks, kingAttacks } from "./attacks";
import { occupied, pieces, colorBB, piecesOf, pieceOn, sideToMove, kingSquare, insufficientMaterial } from "./position";
import { S, mgValue, egValue, VALUE_KNOWN_WIN } from "./score";
import { pawnEntry, structureScore, passedPawns, FORWARD_FILE, ATTACK_SPAN } from "./pawns";
import {
  PSQ, PHASE_WEIGHT, PHASE_MAX, PIECE_VALUE,
  KNIGHT_MOBILITY, BISHOP_MOBILITY, ROOK_MOBILITY, QUEEN_MOBILITY,
  PASSED_PAWN, PASSED_FREE_PATH,
  PASSED_THEIR_KING_DISTANCE, PASSED_OUR_KING_DISTANCE, PASSED_KING_DISTANCE_CAP, KING_ATTACKERS_MIN,
  MOPUP_EDGE, MOPUP_CORNER, MOPUP_KING_PROXIMITY, SCALE_NO_PAWNS_MINOR_AHEAD, SCALE_NO_PAWNS_PIECES,
  THREAT_BY_PAWN, THREAT_BY_MINOR, THREAT_BY_ROOK, HANGING,
  BISHOP_PAIR, ROOK_OPEN_FILE, ROOK_SEMI_OPEN_FILE, ROOK_ON_SEVENTH, KNIGHT_OUTPOST, BISHOP_OUTPOST, TEMPO,
  SHIELD_PAWN_NEAR, SHIELD_PAWN_FAR, SHIELD_MISSING, PAWN_STORM,
  KING_ATTACK_UNITS, KING_ATTACK_DIVISOR, KING_ATTACK_MAX,
} from "./params";

// Terms of the breakdown.
export const TERM_MATERIAL = 0; // material and piece-square tables
export const TERM_PAWNS = 1;
export const TERM_PASSED = 2;
export const TERM_MOBILITY = 3;
export const TERM_PIECES = 4;
export const TERM_KING = 5;
export const TERM_TEMPO = 6;
export const TERM_THREATS = 7;
export const TERM_NB = 8;
/** Packed score of each term for each colour from the last evaluation: [term * 2 + colour]. */
const trace = new StaticArray<i32>(TERM_NB * 2);
/** Phase (0 endgame .. PHASE_MAX midgame) and endgame scale (of 64) of the last evaluation. */
export let lastPhase: i32 = 0;
export let lastScale: i32 = 64;

/** Packed score of a term for a colour from the last evaluation. */
export function termScore(term: i32, c: Color): i32 {
  return trace[term * 2 + c];
}

// Per-evaluation scratch state.
let mobilityArea0: u64 = 0;
let mobilityArea1: u64 = 0;
let kingZone0: u64 = 0;
let kingZone1: u64 = 0;
let attackUnits0: i32 = 0; // units of pieces attacking king zone of colour 0 (by colour 1)
let attackUnits1: i32 = 0;
let attackers0: i32 = 0;
let attackers1: i32 = 0;
// Squares attacked by each colour (all pieces), by its pawns, by its minors, by its rooks.
let attacked0: u64 = 0;
let attacked1: u64 = 0;
let pawnAttacks0: u64 = 0;
let pawnAttacks1: u64 = 0;
let minorAttacks0: u64 = 0;
let minorAttacks1: u64 = 0;
let rookAttacks0: u64 = 0;
let rookAttacks1: u64 = 0;

// @ts-ignore: decorator
@inline function idx(c: Color, sq: Square): i32 {
  return (c << 6) | sq;
}

function materialPsq(c: Color): i32 {
  let s = 0;
  let b = colorBB(c);
  while (b) {
    const sq = lsb(b);
    b &= b - 1;
    s += unchecked(PSQ[(pieceOn(sq) << 6) | sq]);
  }
  return s; // PSQ is already signed by colour
}

/** Mobility, outposts, bishop pair and rook files; also gathers attacks on the enemy king zone. */
function pieceTerms(us: Color): void {
  const them = us ^ 1;
  const occ = occupied();
  const area = us == WHITE ? mobilityArea0 : mobilityArea1;
  const zone = us == WHITE ? kingZone1 : kingZone0;
  const ourPawns = piecesOf(us, PAWN);
  const theirPawns = piecesOf(them, PAWN);
  const support = pawnAttacksBB(us, ourPawns);
  let mobility = 0;
  let extra = 0;
  let units = 0;
  let attackers = 0;
  let minors: u64 = 0;
  let rooks: u64 = 0;
  let queens: u64 = 0;

  let b = piecesOf(us, KNIGHT);
  while (b) {
    const sq = lsb(b);
    b &= b - 1;
    const att = knightAttacks(sq);
    minors |= att;
    mobility += unchecked(KNIGHT_MOBILITY[popcount(att & area)]);
    if (isOutpost(us, sq, support)) extra += KNIGHT_OUTPOST;
    if (att & zone) {
      attackers++;
      units += unchecked(KING_ATTACK_UNITS[KNIGHT]);
    }
  }
  b = piecesOf(us, BISHOP);
  if (b & LIGHT_SQUARES_BB && b & DARK_SQUARES_BB) extra += BISHOP_PAIR;
  while (b) {
    const sq = lsb(b);
    b &= b - 1;
    // Bishops see through their own queen.
    const att = bishopAttacks(sq, occ ^ piecesOf(us, QUEEN));
    minors |= att;
    mobility += unchecked(BISHOP_MOBILITY[popcount(att & area)]);
    if (isOutpost(us, sq, support)) extra += BISHOP_OUTPOST;
    if (att & zone) {
      attackers++;
      units += unchecked(KING_ATTACK_UNITS[BISHOP]);
    }
  }
  b = piecesOf(us, ROOK);
  while (b) {
    const sq = lsb(b);
    b &= b - 1;
    // Rooks see through their own rooks and queen (batteries).
    const att = rookAttacks(sq, occ ^ piecesOf(us, ROOK) ^ piecesOf(us, QUEEN));
    rooks |= att;
    mobility += unchecked(ROOK_MOBILITY[popcount(att & area)]);
    const file = fileBB(fileOf(sq));
    if ((ourPawns & file) == 0) extra += (theirPawns & file) == 0 ? ROOK_OPEN_FILE : ROOK_SEMI_OPEN_FILE;
    if (relativeRank(us, sq) == 6 && (relativeRank(us, kingSquare(them)) == 7 || (theirPawns & rankMask(them, 1)) != 0)) {
      extra += ROOK_ON_SEVENTH;
    }
    if (att & zone) {
      attackers++;
      units += unchecked(KING_ATTACK_UNITS[ROOK]);
    }
  }
  b = piecesOf(us, QUEEN);
  while (b) {
    const sq = lsb(b);
    b &= b - 1;
    const att = bishopAttacks(sq, occ) | rookAttacks(sq, occ);
    queens |= att;
    mobility += unchecked(QUEEN_MOBILITY[popcount(att & area)]);
    if (att & zone) {
      attackers++;
      units += unchecked(KING_ATTACK_UNITS[QUEEN]);
    }
  }
  if (us == WHITE) {
    attackUnits1 = units;
    attackers1 = attackers;
    minorAttacks0 = minors;
    rookAttacks0 = rooks;
    attacked0 |= minors | rooks | queens;
  } else {
    attackUnits0 = units;
    attackers0 = attackers;
    minorAttacks1 = minors;
    rookAttacks1 = rooks;
    attacked1 |= minors | rooks | queens;
  }
  const sign = us == WHITE ? 1 : -1;
  unchecked((trace[TERM_MOBILITY * 2 + us] = mobility * sign));
  unchecked((trace[TERM_PIECES * 2 + us] = extra * sign));
}

/** Threats: enemy pieces attacked by pawns, heavy pieces attacked by lighter ones, and
 *  enemy men attacked and not defended. Needs the attack maps of both colours. */
function threatTerms(us: Color): void {
  const them = us ^ 1;
  const enemies = colorBB(them) & ~piecesOf(them, KING);
  const heavy = piecesOf(them, ROOK) | piecesOf(them, QUEEN);
  const ours = us == WHITE ? attacked0 : attacked1;
  const theirs = us == WHITE ? attacked1 : attacked0;
  let s = popcount((us == WHITE ? pawnAttacks0 : pawnAttacks1) & enemies & ~piecesOf(them, PAWN)) * THREAT_BY_PAWN;
  s += popcount((us == WHITE ? minorAttacks0 : minorAttacks1) & heavy) * THREAT_BY_MINOR;
  s += popcount((us == WHITE ? rookAttacks0 : rookAttacks1) & piecesOf(them, QUEEN)) * THREAT_BY_ROOK;
  s += popcount(ours & ~theirs & enemies) * HANGING;
  unchecked((trace[TERM_THREATS * 2 + us] = us == WHITE ? s : -s));
}

/** The rank `r` as seen by colour c (0 = its back rank) as a bitboard. */
// @ts-ignore: decorator
@inline function rankMask(c: Color, r: i32): u64 {
  return (<u64>0xff) << (<u64>((r ^ (c * 7)) << 3));
}

function isOutpost(us: Color, sq: Square, support: u64): bool {
  const r = relativeRank(us, sq);
  return r >= 3 && r <= 5 && (support & squareBB(sq)) != 0 &&
    (piecesOf(us ^ 1, PAWN) & unchecked(ATTACK_SPAN[idx(us, sq)])) == 0;
}

/** Pawn structure (cached by the pawn table) and passed pawns of colour us. */
function pawnTerms(us: Color, entry: usize): void {
  const occ = occupied();
  let passed = 0;
  let b = passedPawns(entry, us);
  while (b) {
    const sq = lsb(b);
    b &= b - 1;
    const stop = us == WHITE ? sq + 8 : sq - 8;
    passed += passedPawn(us, sq, relativeRank(us, sq), stop, unchecked(FORWARD_FILE[idx(us, sq)]) & occ);
  }
  const sign = us == WHITE ? 1 : -1;
  unchecked((trace[TERM_PAWNS * 2 + us] = structureScore(entry, us) * sign));
  unchecked((trace[TERM_PASSED * 2 + us] = passed * sign));
}

function passedPawn(us: Color, sq: Square, r: i32, stop: Square, blockers: u64): i32 {
  let s = unchecked(PASSED_PAWN[r]);
  if (blockers == 0) s += unchecked(PASSED_FREE_PATH[r]);
  if (r >= 3) {
    const w = r - 2;
    const theirs = min(distance(kingSquare(us ^ 1), stop), PASSED_KING_DISTANCE_CAP);
    const ours = distance(kingSquare(us), stop);
    s += S(0, (theirs * PASSED_THEIR_KING_DISTANCE - ours * PASSED_OUR_KING_DISTANCE) * w);
  }
  return s;
}

/** Pawn shield and storm in front of colour us's king, and the attack on its zone. */
function kingTerms(us: Color): void {
  const them = us ^ 1;
  const k = kingSquare(us);
  const ourPawns = piecesOf(us, PAWN);
  const theirPawns = piecesOf(them, PAWN);
  const center = min(max(fileOf(k), 1), 6);
  let s = 0;
  for (let f = center - 1; f <= center + 1; f++) {
    const front = unchecked(FORWARD_FILE[idx(us, makeSq(f, rankOf(k)))]);
    const mine = ourPawns & front;
    const d = mine ? abs(rankOf(us == WHITE ? lsb(mine) : msb(mine)) - rankOf(k)) : 0;
    s += d == 1 ? SHIELD_PAWN_NEAR : d == 2 ? SHIELD_PAWN_FAR : SHIELD_MISSING;
    const storm = theirPawns & front;
    if (storm) {
      const e = abs(rankOf(us == WHITE ? lsb(storm) : msb(storm)) - rankOf(k));
      if (e <= 3) s += unchecked(PAWN_STORM[e]);
    }
  }
  const units = us == WHITE ? attackUnits0 : attackUnits1;
  const attackers = us == WHITE ? attackers0 : attackers1;
  if (attackers >= KING_ATTACKERS_MIN && piecesOf(them, QUEEN) != 0) {
    s -= S(min((units * units) / KING_ATTACK_DIVISOR, KING_ATTACK_MAX), 0);
  }
  unchecked((trace[TERM_KING * 2 + us] = us == WHITE ? s : -s));
}

// @ts-ignore: decorator
@inline function makeSq(f: i32, r: i32): Square {
  return (r << 3) | f;
}

function gamePhase(): i32 {
  const p =
    popcount(pieces(KNIGHT)) * PHASE_WEIGHT[KNIGHT] + popcount(pieces(BISHOP)) * PHASE_WEIGHT[BISHOP] +
    popcount(pieces(ROOK)) * PHASE_WEIGHT[ROOK] + popcount(pieces(QUEEN)) * PHASE_WEIGHT[QUEEN];
  return min(p, PHASE_MAX);
}

/** Midgame non-pawn material of colour c. */
function nonPawnMaterial(c: Color): i32 {
  return (
    popcount(piecesOf(c, KNIGHT)) * mgValue(PIECE_VALUE[KNIGHT]) +
    popcount(piecesOf(c, BISHOP)) * mgValue(PIECE_VALUE[BISHOP]) +
    popcount(piecesOf(c, ROOK)) * mgValue(PIECE_VALUE[ROOK]) +
    popcount(piecesOf(c, QUEEN)) * mgValue(PIECE_VALUE[QUEEN])
  );
}

/** True when colour c has only its king. */
// @ts-ignore: decorator
@inline function bareKing(c: Color): bool {
  return colorBB(c) == piecesOf(c, KING);
}

/** Score (white's view) for mating a lone king: drive it to the edge (to a corner of the
 *  bishop's colour with bishop and knight) and bring the kings together. */
function mopUp(strong: Color): i32 {
  const weak = strong ^ 1;
  const wk = kingSquare(weak);
  const sk = kingSquare(strong);
  const edge = max(abs(2 * fileOf(wk) - 7), abs(2 * rankOf(wk) - 7)); // 1 centre .. 7 edge
  let corner = 0;
  const bishops = piecesOf(strong, BISHOP);
  if (bishops != 0 && piecesOf(strong, QUEEN) == 0 && piecesOf(strong, ROOK) == 0 && popcount(bishops) == 1) {
    // The right corners are those of the bishop's colour.
    const light = (bishops & LIGHT_SQUARES_BB) != 0;
    const d1 = light ? min(distance(wk, 7), distance(wk, 56)) : min(distance(wk, 0), distance(wk, 63));
    corner = 7 - d1;
  }
  const v = VALUE_KNOWN_WIN + nonPawnMaterial(strong) + MOPUP_EDGE * edge + MOPUP_CORNER * corner +
    MOPUP_KING_PROXIMITY * (7 - distance(sk, wk));
  return strong == WHITE ? v : -v;
}

/** True when colour c has material to force mate against a bare king. */
function canMate(c: Color): bool {
  if (piecesOf(c, QUEEN) | piecesOf(c, ROOK) | piecesOf(c, PAWN)) return true;
  const bishops = piecesOf(c, BISHOP);
  const knights = piecesOf(c, KNIGHT);
  if (bishops & LIGHT_SQUARES_BB && bishops & DARK_SQUARES_BB) return true;
  return bishops != 0 && knights != 0;
}

/** Endgame scale of 64 for the side that is ahead: a side without pawns whose extra
 *  material is at most a minor piece rarely wins. */
function endgameScale(strong: Color): i32 {
  if (piecesOf(strong, PAWN) != 0) return 64;
  const diff = nonPawnMaterial(strong) - nonPawnMaterial(strong ^ 1);
  if (diff <= mgValue(PIECE_VALUE[BISHOP])) {
    return nonPawnMaterial(strong) < mgValue(PIECE_VALUE[ROOK]) ? SCALE_NO_PAWNS_MINOR_AHEAD : SCALE_NO_PAWNS_PIECES;
  }
  return 64;
}

/** The evaluation from the side to move's point of view, in centipawns. */
export function evaluate(): i32 {
  if (insufficientMaterial()) {
    memory.fill(changetype<usize>(trace), 0, TERM_NB * 2 * 4);
    lastPhase = gamePhase();
    lastScale = 0;
    return 0;
  }
  for (let c = WHITE; c <= BLACK; c++) {
    if (bareKing(c) && canMate(c ^ 1) && piecesOf(c ^ 1, PAWN) == 0) {
      memory.fill(changetype<usize>(trace), 0, TERM_NB * 2 * 4);
      const v = mopUp(c ^ 1);
      return sideToMove == WHITE ? v : -v;
    }
  }
  prepare();
  const entry = pawnEntry();
  for (let c = WHITE; c <= BLACK; c++) {
    unchecked((trace[TERM_MATERIAL * 2 + c] = materialPsq(c)));
    pieceTerms(c);
    pawnTerms(c, entry);
  }
  kingTerms(WHITE);
  kingTerms(BLACK);
  threatTerms(WHITE);
  threatTerms(BLACK);
  unchecked((trace[TERM_TEMPO * 2 + sideToMove] = sideToMove == WHITE ? TEMPO : -TEMPO));
  unchecked((trace[TERM_TEMPO * 2 + (sideToMove ^ 1)] = 0));
  let total = 0;
  for (let i = 0; i < TERM_NB * 2; i++) total += unchecked(trace[i]);
  const mg = mgValue(total);
  let eg = egValue(total);
  const scale = endgameScale(eg >= 0 ? WHITE : BLACK);
  eg = (eg * scale) / 64;
  const phase = gamePhase();
  lastPhase = phase;
  lastScale = scale;
  const v = (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
  return sideToMove == WHITE ? v : -v;
}

function prepare(): void {
  const wk = kingSquare(WHITE);
  const bk = kingSquare(BLACK);
  const wp = piecesOf(WHITE, PAWN);
  const bp = piecesOf(BLACK, PAWN);
  mobilityArea0 = ~(wp | squareBB(wk)) & ~pawnAttacksBB(BLACK, bp);
  mobilityArea1 = ~(bp | squareBB(bk)) & ~pawnAttacksBB(WHITE, wp);
  kingZone0 = kingAttacks(wk) | squareBB(wk);
  kingZone1 = kingAttacks(bk) | squareBB(bk);
  kingZone0 |= pawnPush(WHITE, kingZone0 & ~(<u64>0xff << 56));
  kingZone1 |= pawnPush(BLACK, kingZone1 & ~(<u64>0xff));
  pawnAttacks0 = pawnAttacksBB(WHITE, wp);
  pawnAttacks1 = pawnAttacksBB(BLACK, bp);
  attacked0 = pawnAttacks0 | kingAttacks(wk);
  attacked1 = pawnAttacks1 | kingAttacks(bk);
}

