// Legal move generation by construction: check mask, pin masks and king-danger squares
// are computed once per node, so every generated move is legal without make-and-test.
// Also counts legal moves without listing them (the bulk count at perft's last ply).

import {
  Bitboard, Color, Move, Square, MAX_MOVES,
  PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, SQ_NONE,
  EN_PASSANT, CASTLING, makePromotion, makeSpecial, castlingKingTo,
} from "./types";
import {
  ALL_BB, RANK_1_BB, RANK_8_BB, RANK_3_BB, RANK_6_BB,
  squareBB, popcount, lsb, between, pawnPush, pawnWest, pawnEast, pawnAttacksBB, PAWN_PUSH,
} from "./bitboard";
import {
  knightAttacks, kingAttacks, pawnAttacks, bishopAttacks, rookAttacks,
  rookPseudoAttacks, bishopPseudoAttacks,
} from "./attacks";
import {
  sideToMove, castlingRights, epSquare, occupied, colorBB, piecesOf, kingSquare,
  castlingEmpty, castlingSafe, castlingShield, castlingRookSquare,
} from "./position";
import { ARENA, ARENA_MOVE_LISTS } from "./arena";

/** Generation kinds. NOISY: captures, en passant and all promotions. QUIET: the rest.
 *  ALL: both. In check every kind yields only evasions, so EVASIONS is ALL in check. */
export const GEN_ALL = 0;
export const GEN_NOISY = 1;
export const GEN_QUIET = 2;
export const GEN_EVASIONS = GEN_ALL;

// Per-node masks, filled by computeMasks for the side to move.
let ksq: Square = 0;
/** Enemy pieces giving check, from the last computeMasks. */
export let checkersBB: Bitboard = 0;
let checkMask: Bitboard = ALL_BB; // squares that resolve a single check (all squares if none)
let pinHV: Bitboard = 0; // rays (with pinner) of pieces pinned on ranks and files
let pinD: Bitboard = 0; // rays (with pinner) of pieces pinned on diagonals

// Promotion rank by colour, and the rank a single push must reach for a double push.
const PROMO_RANK: StaticArray<u64> = [RANK_8_BB, RANK_1_BB];
const DOUBLE_RANK: StaticArray<u64> = [RANK_3_BB, RANK_6_BB];
// Origin offset of captures towards the a-file and towards the h-file, by colour.
const WEST_DELTA: StaticArray<i32> = [7, -9];
const EAST_DELTA: StaticArray<i32> = [9, -7];

/** Sliders of the enemy on a line through our king (`snipers`): those with nothing between
 *  them and the king join the checkers and the check mask; those behind exactly one of our
 *  pieces pin it. Returns the pin rays (pinner included). */
// @ts-ignore: decorator
@inline function scanSnipers(snipers: Bitboard, k: Square, occ: Bitboard, own: Bitboard): Bitboard {
  let pins: u64 = 0;
  while (snipers) {
    const s = lsb(snipers);
    snipers &= snipers - 1;
    const ray = between(k, s) | squareBB(s);
    const blockers = ray & occ & ~squareBB(s);
    if (blockers == 0) {
      checkersBB |= squareBB(s);
      checkMask |= ray;
    } else if ((blockers & (blockers - 1)) == 0 && (blockers & own) != 0) {
      pins |= ray;
    }
  }
  return pins;
}

// @ts-ignore: decorator
@inline function computeMasks(us: Color): void {
  const them = us ^ 1;
  const occ = occupied();
  const own = colorBB(us);
  const k = kingSquare(us);
  ksq = k;
  // Leapers check from where they stand; sliders are added by scanSnipers.
  const leapers = (pawnAttacks(us, k) & piecesOf(them, PAWN)) | (knightAttacks(k) & piecesOf(them, KNIGHT));
  checkersBB = leapers;
  checkMask = leapers;
  const queens = piecesOf(them, QUEEN);
  pinHV = scanSnipers(rookPseudoAttacks(k) & (piecesOf(them, ROOK) | queens), k, occ, own);
  pinD = scanSnipers(bishopPseudoAttacks(k) & (piecesOf(them, BISHOP) | queens), k, occ, own);
  if (checkersBB == 0) checkMask = ALL_BB;
}

/** Squares attacked by colour them, with the defending king removed from the board so
 *  that it cannot step back along a checking ray. */
function kingDanger(them: Color, occ: Bitboard): Bitboard {
  let att = pawnAttacksBB(them, piecesOf(them, PAWN)) | kingAttacks(kingSquare(them));
  let b = piecesOf(them, KNIGHT);
  while (b) {
    att |= knightAttacks(lsb(b));
    b &= b - 1;
  }
  const queens = piecesOf(them, QUEEN);
  b = piecesOf(them, BISHOP) | queens;
  while (b) {
    att |= bishopAttacks(lsb(b), occ);
    b &= b - 1;
  }
  b = piecesOf(them, ROOK) | queens;
  while (b) {
    att |= rookAttacks(lsb(b), occ);
    b &= b - 1;
  }
  return att;
}

/** True when the en-passant capture from `from` leaves our king safe; the capture can
 *  uncover a rank attack through both pawns, which no pin mask describes. */
function epIsLegal(us: Color, from: Square, ep: Square): bool {
  const them = us ^ 1;
  const capSq = ep ^ 8;
  const occ = (occupied() ^ squareBB(from) ^ squareBB(capSq)) | squareBB(ep);
  const queens = piecesOf(them, QUEEN);
  if (bishopAttacks(ksq, occ) & (piecesOf(them, BISHOP) | queens)) return false;
  if (rookAttacks(ksq, occ) & (piecesOf(them, ROOK) | queens)) return false;
  // A knight's check is not answered by en passant; a pawn's only when it is the captured one.
  if (knightAttacks(ksq) & piecesOf(them, KNIGHT)) return false;
  return (pawnAttacks(us, ksq) & piecesOf(them, PAWN) & ~squareBB(capSq)) == 0;
}

/** Castling moves whose rights are held and whose path is empty (bit 0 king side,
 *  bit 1 queen side); call only when not in check. */
// @ts-ignore: decorator
@inline function castlingCandidates(us: Color, occ: Bitboard): i32 {
  const rights = (castlingRights >> (us << 1)) & 3;
  if (rights == 0) return 0;
  const i = us << 1;
  let r = 0;
  if ((rights & 1) != 0 && (occ & castlingEmpty(i)) == 0) r |= 1;
  if ((rights & 2) != 0 && (occ & castlingEmpty(i + 1)) == 0) r |= 2;
  return r;
}

/** The castling candidates whose king path is not attacked, and (Chess960) whose rook does
 *  not shield the king's destination from a rook or queen on the rank. */
// @ts-ignore: decorator
@inline function safeCastling(us: Color, candidates: i32, danger: Bitboard, occ: Bitboard): i32 {
  let r = candidates;
  const i = us << 1;
  if ((r & 1) != 0 && ((danger & castlingSafe(i)) != 0 || (castlingShield(i) && shieldBroken(us, i, occ)))) r ^= 1;
  if ((r & 2) != 0 && ((danger & castlingSafe(i + 1)) != 0 || (castlingShield(i + 1) && shieldBroken(us, i + 1, occ)))) r ^= 2;
  return r;
}

/** True when, with the castling rook of right index i lifted, an enemy rook or queen on the
 *  rank attacks the king's destination. */
function shieldBroken(us: Color, i: i32, occ: Bitboard): bool {
  const them = us ^ 1;
  const sliders = piecesOf(them, ROOK) | piecesOf(them, QUEEN);
  return (rookAttacks(castlingKingTo(i), occ ^ squareBB(castlingRookSquare(i))) & sliders) != 0;
}

// ---------------------------------------------------------------- shared by counting and generation
// The pin and check-mask rules, written once for both paths. Helpers that take `counting`
// (always a constant) either count the moves or write them to the list: inlined, each path
// compiles to its own code without the other's branch.

// @ts-ignore: decorator
@inline function emit(list: usize, n: i32, m: i32): i32 {
  store<u16>(list + (<usize>n << 1), <u16>m);
  return n + 1;
}

// @ts-ignore: decorator
@inline function emitTargets(list: usize, n: i32, from: Square, targets: Bitboard): i32 {
  const base = from << 6;
  while (targets) {
    n = emit(list, n, base | lsb(targets));
    targets &= targets - 1;
  }
  return n;
}

/** Moves from `from` to targets: n plus their number when counting, else written to list. */
// @ts-ignore: decorator
@inline function addTargets(list: usize, n: i32, from: Square, targets: Bitboard, counting: bool): i32 {
  return counting ? n + popcount(targets) : emitTargets(list, n, from, targets);
}

/** King moves to kingTargets that no enemy attacks, then the legal castling moves among the
 *  candidates (castlingCandidates). The enemy attack map is only computed when the king has
 *  somewhere to go. */
// @ts-ignore: decorator
@inline function kingMoves(us: Color, occ: Bitboard, kingTargets: Bitboard, castling: i32, list: usize, n: i32, counting: bool): i32 {
  if (kingTargets == 0 && castling == 0) return n;
  const k = ksq;
  const danger = kingDanger(us ^ 1, occ ^ squareBB(k));
  n = addTargets(list, n, k, kingTargets & ~danger, counting);
  const options = castling ? safeCastling(us, castling, danger, occ) : 0;
  if (counting) return n + popcount(<u64>options);
  if (options & 1) n = emit(list, n, makeSpecial(k, castlingKingTo(us << 1), CASTLING));
  if (options & 2) n = emit(list, n, makeSpecial(k, castlingKingTo((us << 1) + 1), CASTLING));
  return n;
}

/** Knight, bishop, rook and queen moves to `movable` (check mask applied): pinned knights
 *  stay, pinned sliders move along their pin ray only. */
// @ts-ignore: decorator
@inline function pieceMoves(us: Color, occ: Bitboard, movable: Bitboard, list: usize, n: i32, counting: bool): i32 {
  const hv = pinHV;
  const d = pinD;
  let b = piecesOf(us, KNIGHT) & ~(hv | d);
  while (b) {
    const sq = lsb(b);
    b &= b - 1;
    n = addTargets(list, n, sq, knightAttacks(sq) & movable, counting);
  }
  const queens = piecesOf(us, QUEEN);
  b = (piecesOf(us, BISHOP) | queens) & ~hv;
  while (b) {
    const sq = lsb(b);
    b &= b - 1;
    let t = bishopAttacks(sq, occ) & movable;
    if (squareBB(sq) & d) t &= d;
    n = addTargets(list, n, sq, t, counting);
  }
  b = (piecesOf(us, ROOK) | queens) & ~d;
  while (b) {
    const sq = lsb(b);
    b &= b - 1;
    let t = rookAttacks(sq, occ) & movable;
    if (squareBB(sq) & hv) t &= hv;
    n = addTargets(list, n, sq, t, counting);
  }
  return n;
}

/** Squares single pushes reach (before the check mask; double pushes start from them):
 *  pawns pinned on a diagonal cannot push, those pinned on a file stay on it. */
// @ts-ignore: decorator
@inline function pawnSinglePushes(us: Color, pawns: Bitboard, empty: Bitboard): Bitboard {
  const hv = pinHV;
  const pushers = pawns & ~pinD;
  return (pawnPush(us, pushers & ~hv) | (pawnPush(us, pushers & hv) & hv)) & empty;
}

/** Squares double pushes reach, check mask applied, from the single pushes' squares. */
// @ts-ignore: decorator
@inline function pawnDoublePushes(us: Color, push1: Bitboard, empty: Bitboard): Bitboard {
  return pawnPush(us, push1 & unchecked(DOUBLE_RANK[us])) & empty & checkMask;
}

/** Pawns that may capture: those pinned on a rank or file cannot. */
// @ts-ignore: decorator
@inline function pawnCapturers(pawns: Bitboard): Bitboard {
  return pawns & ~pinHV;
}

/** Enemies a pawn capture may take: those that resolve the check, if any. */
// @ts-ignore: decorator
@inline function pawnVictims(us: Color): Bitboard {
  return colorBB(us ^ 1) & checkMask;
}

/** Squares of victims that capturers (pawnCapturers) take towards the a-file (west) or the
 *  h-file; those pinned on a diagonal capture along it only. */
// @ts-ignore: decorator
@inline function pawnCaptures(us: Color, capturers: Bitboard, victims: Bitboard, west: bool): Bitboard {
  const d = pinD;
  const free = capturers & ~d;
  const pinned = capturers & d;
  return west
    ? (pawnWest(us, free) | (pawnWest(us, pinned) & d)) & victims
    : (pawnEast(us, free) | (pawnEast(us, pinned) & d)) & victims;
}

/** The legal en-passant captures by capturers (pawnCapturers). */
// @ts-ignore: decorator
@inline function enPassantMoves(us: Color, capturers: Bitboard, list: usize, n: i32, counting: bool): i32 {
  const ep = epSquare;
  if (ep == SQ_NONE) return n;
  let b = pawnAttacks(us ^ 1, ep) & capturers;
  while (b) {
    const from = lsb(b);
    b &= b - 1;
    if (epIsLegal(us, from, ep)) n = counting ? n + 1 : emit(list, n, makeSpecial(from, ep, EN_PASSANT));
  }
  return n;
}

// ---------------------------------------------------------------- counting
// The counting path and the helpers it shares with generation are inlined: perft calls it
// for every position before the leaves, and the calls cost more than their bodies
// (CPU time, best of 9: startpos depth 6 274 -> 213 ms, Kiwipete depth 5 252 -> 217 ms with
// computeMasks, the castling helpers, the pawn count, countLegalMoves itself and the
// bitboard-only make and unmake inlined; the wasm grows by 3.8 kB).

/** Number of legal moves in the current position. */
// @ts-ignore: decorator
@inline export function countLegalMoves(): i32 {
  const us = sideToMove;
  computeMasks(us);
  const occ = occupied();
  const own = colorBB(us);
  const chk = checkersBB;
  const castling = chk == 0 ? castlingCandidates(us, occ) : 0;
  const n = kingMoves(us, occ, kingAttacks(ksq) & ~own, castling, 0, 0, true);
  if (chk & (chk - 1)) return n;
  return pieceMoves(us, occ, ~own & checkMask, 0, n, true) + countPawnMoves(us, occ);
}

// @ts-ignore: decorator
@inline function countPawnMoves(us: Color, occ: Bitboard): i32 {
  const pawns = piecesOf(us, PAWN);
  const empty = ~occ;
  const promo = unchecked(PROMO_RANK[us]);
  const push1 = pawnSinglePushes(us, pawns, empty);
  const push2 = pawnDoublePushes(us, push1, empty);
  const single = push1 & checkMask;
  const capturers = pawnCapturers(pawns);
  const victims = pawnVictims(us);
  const west = pawnCaptures(us, capturers, victims, true);
  const east = pawnCaptures(us, capturers, victims, false);
  const n =
    popcount(single & ~promo) + popcount(push2) + popcount(west & ~promo) + popcount(east & ~promo) +
    ((popcount(single & promo) + popcount(west & promo) + popcount(east & promo)) << 2);
  return enPassantMoves(us, capturers, 0, n, true);
}

// ---------------------------------------------------------------- generation

/** Writes the legal moves of the given kind to list (u16 each) and returns their number. */
export function generateMoves(kind: i32, list: usize): i32 {
  const us = sideToMove;
  const them = us ^ 1;
  computeMasks(us);
  const occ = occupied();
  const own = colorBB(us);
  const chk = checkersBB;
  const targets = kind == GEN_ALL ? ~own : kind == GEN_NOISY ? colorBB(them) : ~occ;
  const castling = chk == 0 && kind != GEN_NOISY ? castlingCandidates(us, occ) : 0;
  let n = kingMoves(us, occ, kingAttacks(ksq) & targets, castling, list, 0, false);
  if (chk & (chk - 1)) return n;
  n = generatePawnMoves(kind, us, occ, list, n);
  n = generatePieceMoves(us, occ, targets & checkMask, list, n);
  return n;
}

function generatePieceMoves(us: Color, occ: Bitboard, movable: Bitboard, list: usize, n: i32): i32 {
  return pieceMoves(us, occ, movable, list, n, false);
}

// @ts-ignore: decorator
@inline function emitPromotions(list: usize, n: i32, from: Square, to: Square): i32 {
  n = emit(list, n, makePromotion(from, to, QUEEN));
  n = emit(list, n, makePromotion(from, to, KNIGHT));
  n = emit(list, n, makePromotion(from, to, ROOK));
  return emit(list, n, makePromotion(from, to, BISHOP));
}

/** Emits pawn moves to targets from (target - delta), four promotions on the last rank. */
function emitPawnTargets(list: usize, n: i32, targets: Bitboard, delta: i32, promo: Bitboard): i32 {
  let p = targets & promo;
  while (p) {
    const to = lsb(p);
    p &= p - 1;
    n = emitPromotions(list, n, to - delta, to);
  }
  let t = targets & ~promo;
  while (t) {
    const to = lsb(t);
    t &= t - 1;
    n = emit(list, n, ((to - delta) << 6) | to);
  }
  return n;
}

function generatePawnMoves(kind: i32, us: Color, occ: Bitboard, list: usize, n: i32): i32 {
  const pawns = piecesOf(us, PAWN);
  const cm = checkMask;
  const promo = unchecked(PROMO_RANK[us]);
  const push = unchecked(PAWN_PUSH[us]);
  const empty = ~occ;
  const push1 = pawnSinglePushes(us, pawns, empty);
  if (kind != GEN_NOISY) {
    n = emitPawnTargets(list, n, push1 & cm & ~promo, push, promo);
    n = emitPawnTargets(list, n, pawnDoublePushes(us, push1, empty), push << 1, promo);
  }
  // Promotions, including quiet ones, count as noisy.
  if (kind != GEN_QUIET) {
    n = emitPawnTargets(list, n, push1 & cm & promo, push, promo);
    const capturers = pawnCapturers(pawns);
    const victims = pawnVictims(us);
    n = emitPawnTargets(list, n, pawnCaptures(us, capturers, victims, true), unchecked(WEST_DELTA[us]), promo);
    n = emitPawnTargets(list, n, pawnCaptures(us, capturers, victims, false), unchecked(EAST_DELTA[us]), promo);
    n = enPassantMoves(us, capturers, list, n, false);
  }
  return n;
}

/** True when the side to move has at least one legal move. */
export function hasLegalMove(): bool {
  return countLegalMoves() > 0;
}

/** The move list of the given ply (MAX_MOVES u16 entries in the thread's arena), for perft
 *  and the search. */
// @ts-ignore: decorator
@inline export function moveList(ply: i32): usize {
  return ARENA + ARENA_MOVE_LISTS + <usize>ply * (MAX_MOVES * 2);
}

/** The i-th move of a list. */
// @ts-ignore: decorator
@inline export function moveAt(list: usize, i: i32): Move {
  return load<u16>(list + (<usize>i << 1));
}
