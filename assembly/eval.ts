// Static evaluation, tapered between midgame and endgame by the game phase: material and
// piece-square tables, mobility, pawn structure, passed pawns, king safety, piece terms,
// tempo, and endgame knowledge (dead draws, drawish scaling, mating a lone king).
// Each term is recorded per colour so that `eval` can show the breakdown.

import { Color, Square, WHITE, BLACK, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, fileOf, rankOf, relativeRank, typeOf } from "./types";
import {
  FILE_A_BB, squareBB, fileBB, popcount, lsb, msb, distance, pawnAttacksBB, pawnPush,
  LIGHT_SQUARES_BB, DARK_SQUARES_BB,
} from "./bitboard";
import { knightAttacks, bishopAttacks, rookAttacks, kingAttacks } from "./attacks";
import { occupied, pieces, colorBB, piecesOf, pieceOn, sideToMove, kingSquare, insufficientMaterial } from "./position";
import { S, mgValue, egValue, VALUE_KNOWN_WIN } from "./score";
import { pawnEntry, structureScore, passedPawns, traceStructure, FORWARD_FILE, ATTACK_SPAN } from "./pawns";
import { trace, traceOn, traceKing, traceMarkSpecial } from "./trace";
import { USE_NNUE } from "./config";
import { ACC_HALF, hidden, outputSimd, outputScalar, outputBucket, simdKernels } from "./nnue";
import { currentAccumulator } from "./accumulator";
import { ARENA, ARENA_EVAL_TERMS, EVAL_TERM_SLOTS } from "./arena";
import {
  W_PIECE_VALUE, W_PAWN_PSQ, W_KNIGHT_MOBILITY, W_BISHOP_MOBILITY, W_ROOK_MOBILITY, W_QUEEN_MOBILITY,
  W_PASSED_PAWN, W_PASSED_FREE_PATH, W_PASSED_THEIR_KING_DISTANCE, W_PASSED_OUR_KING_DISTANCE, W_PAWN_STORM,
  W_BISHOP_PAIR, W_ROOK_OPEN_FILE, W_ROOK_SEMI_OPEN_FILE, W_ROOK_ON_SEVENTH, W_KNIGHT_OUTPOST, W_BISHOP_OUTPOST,
  W_TEMPO, W_THREAT_BY_PAWN, W_THREAT_BY_MINOR, W_THREAT_BY_ROOK, W_HANGING,
  W_SHIELD_PAWN_NEAR, W_SHIELD_PAWN_FAR, W_SHIELD_MISSING,
} from "./weights";
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
/** Names of the terms, by number, as the bindings show them. */
const TERM_NAMES: StaticArray<string> = ["Material", "Pawns", "Passed", "Mobility", "Pieces", "King safety", "Tempo", "Threats"];

/** The name of term t (0 <= t < TERM_NB). */
export function termName(t: i32): string {
  return TERM_NAMES[t];
}
// Packed score of each term for each colour from the last evaluation, [term * 2 + colour],
// in the thread's arena.
// @ts-ignore: decorator
if (TERM_NB * 2 > EVAL_TERM_SLOTS) ERROR("the arena has no room for every evaluation term");

// @ts-ignore: decorator
@inline function setTerm(i: i32, v: i32): void {
  store<i32>(ARENA + (<usize>i << 2), v, ARENA_EVAL_TERMS);
}

// @ts-ignore: decorator
@inline function termAt(i: i32): i32 {
  return load<i32>(ARENA + (<usize>i << 2), ARENA_EVAL_TERMS);
}
/** Phase (0 endgame .. PHASE_MAX midgame) and endgame scale (of 64) of the last evaluation. */
export let lastPhase: i32 = 0;
export let lastScale: i32 = 64;
/** The endgame scale of the last evaluation when it had no hand-crafted terms (the network,
 *  a dead draw, mating a lone king), whose report (the zeroed term table, the phase and this
 *  scale) only evaluateWithReport fills in; -1 when the hand-crafted evaluation filled it. */
let emptyReportScale = -1;

/** Packed score of a term for a colour from the last evaluation. */
export function termScore(term: i32, c: Color): i32 {
  return termAt(term * 2 + c);
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
    const pc = pieceOn(sq);
    s += unchecked(PSQ[(pc << 6) | sq]);
    if (traceOn()) tracePsq(c, typeOf(pc), sq);
  }
  return s; // PSQ is already signed by colour
}

/** Traces a piece's material and its entry of the half-board piece-square table. */
function tracePsq(c: Color, pt: i32, sq: Square): void {
  const rel = c == WHITE ? sq : sq ^ 56;
  const half = rankOf(rel) * 4 + min(fileOf(rel), 7 - fileOf(rel));
  trace(W_PIECE_VALUE + pt, c);
  trace(W_PAWN_PSQ + (pt - PAWN) * 32 + half, c);
}

// Accumulators of pieceTerms for one colour.
let mobility = 0;
let extra = 0;
let units = 0;
let attackers = 0;
let minors: u64 = 0;
let rooks: u64 = 0;
let queens: u64 = 0;

/** A piece of type pt attacks the enemy king zone. */
// @ts-ignore: decorator
@inline function addZoneAttacker(pt: i32): void {
  attackers++;
  units += unchecked(KING_ATTACK_UNITS[pt]);
}

function knightTerms(us: Color, area: u64, zone: u64, support: u64): void {
  let b = piecesOf(us, KNIGHT);
  let zoneAttackers = 0;
  while (b) {
    const sq = lsb(b);
    b &= b - 1;
    const att = knightAttacks(sq);
    minors |= att;
    const n = popcount(att & area);
    mobility += unchecked(KNIGHT_MOBILITY[n]);
    trace(W_KNIGHT_MOBILITY + n, us);
    if (isOutpost(us, sq, support)) {
      extra += KNIGHT_OUTPOST;
      trace(W_KNIGHT_OUTPOST, us);
    }
    if (att & zone) {
      addZoneAttacker(KNIGHT);
      zoneAttackers++;
    }
  }
  traceKing(us ^ 1, KNIGHT, zoneAttackers);
}

function bishopTerms(us: Color, area: u64, zone: u64, support: u64): void {
  let b = piecesOf(us, BISHOP);
  let zoneAttackers = 0;
  if (b & LIGHT_SQUARES_BB && b & DARK_SQUARES_BB) {
    extra += BISHOP_PAIR;
    trace(W_BISHOP_PAIR, us);
  }
  while (b) {
    const sq = lsb(b);
    b &= b - 1;
    // Bishops see through their own queen.
    const att = bishopAttacks(sq, occupied() ^ piecesOf(us, QUEEN));
    minors |= att;
    const n = popcount(att & area);
    mobility += unchecked(BISHOP_MOBILITY[n]);
    trace(W_BISHOP_MOBILITY + n, us);
    if (isOutpost(us, sq, support)) {
      extra += BISHOP_OUTPOST;
      trace(W_BISHOP_OUTPOST, us);
    }
    if (att & zone) {
      addZoneAttacker(BISHOP);
      zoneAttackers++;
    }
  }
  traceKing(us ^ 1, BISHOP, zoneAttackers);
}

function rookTerms(us: Color, area: u64, zone: u64): void {
  const them = us ^ 1;
  const ourPawns = piecesOf(us, PAWN);
  const theirPawns = piecesOf(them, PAWN);
  let b = piecesOf(us, ROOK);
  let zoneAttackers = 0;
  while (b) {
    const sq = lsb(b);
    b &= b - 1;
    // Rooks see through their own rooks and queen (batteries).
    const att = rookAttacks(sq, occupied() ^ piecesOf(us, ROOK) ^ piecesOf(us, QUEEN));
    rooks |= att;
    const n = popcount(att & area);
    mobility += unchecked(ROOK_MOBILITY[n]);
    trace(W_ROOK_MOBILITY + n, us);
    const file = fileBB(fileOf(sq));
    if ((ourPawns & file) == 0) {
      const open = (theirPawns & file) == 0;
      extra += open ? ROOK_OPEN_FILE : ROOK_SEMI_OPEN_FILE;
      trace(open ? W_ROOK_OPEN_FILE : W_ROOK_SEMI_OPEN_FILE, us);
    }
    if (relativeRank(us, sq) == 6 && (relativeRank(us, kingSquare(them)) == 7 || (theirPawns & rankMask(them, 1)) != 0)) {
      extra += ROOK_ON_SEVENTH;
      trace(W_ROOK_ON_SEVENTH, us);
    }
    if (att & zone) {
      addZoneAttacker(ROOK);
      zoneAttackers++;
    }
  }
  traceKing(them, ROOK, zoneAttackers);
}

function queenTerms(us: Color, area: u64, zone: u64): void {
  const occ = occupied();
  let b = piecesOf(us, QUEEN);
  let zoneAttackers = 0;
  while (b) {
    const sq = lsb(b);
    b &= b - 1;
    const att = bishopAttacks(sq, occ) | rookAttacks(sq, occ);
    queens |= att;
    const n = popcount(att & area);
    mobility += unchecked(QUEEN_MOBILITY[n]);
    trace(W_QUEEN_MOBILITY + n, us);
    if (att & zone) {
      addZoneAttacker(QUEEN);
      zoneAttackers++;
    }
  }
  traceKing(us ^ 1, QUEEN, zoneAttackers);
}

/** Mobility, outposts, bishop pair and rook files; also gathers attacks on the enemy king zone. */
function pieceTerms(us: Color): void {
  const area = us == WHITE ? mobilityArea0 : mobilityArea1;
  const zone = us == WHITE ? kingZone1 : kingZone0;
  const support = pawnAttacksBB(us, piecesOf(us, PAWN));
  mobility = 0;
  extra = 0;
  units = 0;
  attackers = 0;
  minors = 0;
  rooks = 0;
  queens = 0;
  knightTerms(us, area, zone, support);
  bishopTerms(us, area, zone, support);
  rookTerms(us, area, zone);
  queenTerms(us, area, zone);
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
  setTerm(TERM_MOBILITY * 2 + us, mobility * sign);
  setTerm(TERM_PIECES * 2 + us, extra * sign);
}

/** Threats: enemy pieces attacked by pawns, heavy pieces attacked by lighter ones, and
 *  enemy men attacked and not defended. Needs the attack maps of both colours. */
function threatTerms(us: Color): void {
  const them = us ^ 1;
  const enemies = colorBB(them) & ~piecesOf(them, KING);
  const heavy = piecesOf(them, ROOK) | piecesOf(them, QUEEN);
  const ours = us == WHITE ? attacked0 : attacked1;
  const theirs = us == WHITE ? attacked1 : attacked0;
  const byPawn = popcount((us == WHITE ? pawnAttacks0 : pawnAttacks1) & enemies & ~piecesOf(them, PAWN));
  const byMinor = popcount((us == WHITE ? minorAttacks0 : minorAttacks1) & heavy);
  const byRook = popcount((us == WHITE ? rookAttacks0 : rookAttacks1) & piecesOf(them, QUEEN));
  const hanging = popcount(ours & ~theirs & enemies);
  const s = byPawn * THREAT_BY_PAWN + byMinor * THREAT_BY_MINOR + byRook * THREAT_BY_ROOK + hanging * HANGING;
  trace(W_THREAT_BY_PAWN, us, byPawn);
  trace(W_THREAT_BY_MINOR, us, byMinor);
  trace(W_THREAT_BY_ROOK, us, byRook);
  trace(W_HANGING, us, hanging);
  setTerm(TERM_THREATS * 2 + us, us == WHITE ? s : -s);
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
  // The tuner's trace needs each pawn's terms, which the cache does not keep.
  const structure = traceOn() ? traceStructure(us) : structureScore(entry, us);
  setTerm(TERM_PAWNS * 2 + us, structure * sign);
  setTerm(TERM_PASSED * 2 + us, passed * sign);
}

function passedPawn(us: Color, sq: Square, r: i32, stop: Square, blockers: u64): i32 {
  let s = unchecked(PASSED_PAWN[r]);
  trace(W_PASSED_PAWN + r, us);
  if (blockers == 0) {
    s += unchecked(PASSED_FREE_PATH[r]);
    trace(W_PASSED_FREE_PATH + r, us);
  }
  if (r >= 3) {
    // King distances to the stop square, weighted by how far the pawn has come.
    const w = r - 2;
    const theirs = min(distance(kingSquare(us ^ 1), stop), PASSED_KING_DISTANCE_CAP) * w;
    const ours = distance(kingSquare(us), stop) * w;
    s += theirs * PASSED_THEIR_KING_DISTANCE - ours * PASSED_OUR_KING_DISTANCE;
    trace(W_PASSED_THEIR_KING_DISTANCE, us, theirs);
    trace(W_PASSED_OUR_KING_DISTANCE, us, -ours);
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
    const shield = d == 1 ? W_SHIELD_PAWN_NEAR : d == 2 ? W_SHIELD_PAWN_FAR : W_SHIELD_MISSING;
    s += d == 1 ? SHIELD_PAWN_NEAR : d == 2 ? SHIELD_PAWN_FAR : SHIELD_MISSING;
    trace(shield, us);
    const storm = theirPawns & front;
    if (storm) {
      const e = abs(rankOf(us == WHITE ? lsb(storm) : msb(storm)) - rankOf(k));
      if (e <= 3) {
        s += unchecked(PAWN_STORM[e]);
        trace(W_PAWN_STORM + e, us);
      }
    }
  }
  // The attack on the king zone: squared attack units, not linear in the weights.
  const zoneUnits = us == WHITE ? attackUnits0 : attackUnits1;
  const zoneAttackers = us == WHITE ? attackers0 : attackers1;
  const counts = zoneAttackers >= KING_ATTACKERS_MIN && piecesOf(them, QUEEN) != 0;
  if (counts) s -= S(min((zoneUnits * zoneUnits) / KING_ATTACK_DIVISOR, KING_ATTACK_MAX), 0);
  traceKing(us, 0, counts ? 1 : 0);
  setTerm(TERM_KING * 2 + us, us == WHITE ? s : -s);
}

// @ts-ignore: decorator
@inline function makeSq(f: i32, r: i32): Square {
  return (r << 3) | f;
}

function gamePhase(): i32 {
  const p =
    popcount(pieces(KNIGHT)) * unchecked(PHASE_WEIGHT[KNIGHT]) + popcount(pieces(BISHOP)) * unchecked(PHASE_WEIGHT[BISHOP]) +
    popcount(pieces(ROOK)) * unchecked(PHASE_WEIGHT[ROOK]) + popcount(pieces(QUEEN)) * unchecked(PHASE_WEIGHT[QUEEN]);
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

/** Brings the evaluation's incremental state up to the current position (the network's
 *  accumulators), so that every node the search visits has it at hand for its children even
 *  when it is not evaluated itself (a transposition-table hit, a check). */
// @ts-ignore: decorator
@inline export function keepEvalState(): void {
  if (USE_NNUE && hidden != 0) currentAccumulator(simdKernels);
}

/** The network's evaluation (network build with a network loaded), kept below the scores of
 *  known wins. It leaves the term report alone (the search does not read it). */
function nnueEvaluate(): i32 {
  emptyReportScale = 64;
  const acc = currentAccumulator(simdKernels);
  const us = acc + (sideToMove == WHITE ? 0 : <usize>ACC_HALF * 2);
  const them = acc + (sideToMove == WHITE ? <usize>ACC_HALF * 2 : 0);
  const bucket = outputBucket(popcount(occupied()));
  const v = simdKernels ? outputSimd(us, them, bucket) : outputScalar(us, them, bucket);
  return min(max(v, -VALUE_KNOWN_WIN + 1), VALUE_KNOWN_WIN - 1);
}

/** evaluate() with its report complete for the eval command and the tuner: after an
 *  evaluation without hand-crafted terms the term breakdown is empty, the phase that of the
 *  material and the scale 64 (0 for a dead draw). */
export function evaluateWithReport(): i32 {
  const v = evaluate();
  if (emptyReportScale >= 0) emptyReport(emptyReportScale);
  return v;
}

/** The report of an evaluation without hand-crafted terms: every term zero, the phase of the
 *  material on the board and the given endgame scale. */
function emptyReport(scale: i32): void {
  memory.fill(ARENA + ARENA_EVAL_TERMS, 0, TERM_NB * 2 * 4);
  lastPhase = gamePhase();
  lastScale = scale;
}

/** The evaluation from the side to move's point of view, in centipawns: the network's in the
 *  network build (when one is loaded), the hand-crafted one otherwise; dead draws and
 *  mating a lone king are decided by the hand-crafted knowledge in both. */
export function evaluate(): i32 {
  emptyReportScale = -1;
  if (insufficientMaterial()) {
    traceMarkSpecial();
    emptyReportScale = 0;
    return 0;
  }
  for (let c = WHITE; c <= BLACK; c++) {
    if (bareKing(c) && canMate(c ^ 1) && piecesOf(c ^ 1, PAWN) == 0) {
      traceMarkSpecial();
      emptyReportScale = 64;
      const v = mopUp(c ^ 1);
      return sideToMove == WHITE ? v : -v;
    }
  }
  if (USE_NNUE && hidden != 0) return nnueEvaluate();
  prepare();
  const entry = pawnEntry();
  for (let c = WHITE; c <= BLACK; c++) {
    setTerm(TERM_MATERIAL * 2 + c, materialPsq(c));
    pieceTerms(c);
    pawnTerms(c, entry);
  }
  kingTerms(WHITE);
  kingTerms(BLACK);
  threatTerms(WHITE);
  threatTerms(BLACK);
  setTerm(TERM_TEMPO * 2 + sideToMove, sideToMove == WHITE ? TEMPO : -TEMPO);
  trace(W_TEMPO, sideToMove);
  setTerm(TERM_TEMPO * 2 + (sideToMove ^ 1), 0);
  let total = 0;
  for (let i = 0; i < TERM_NB * 2; i++) total += termAt(i);
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

