// The board: bitboards by type and colour, a mailbox, the game state, make/unmake with
// an incremental Zobrist key, the null move, and the state stack that undoes them. Castling
// follows the Chess960 rules, of which standard chess is the case with the king on e1/e8
// and the rooks in the corners.

import {
  Bitboard, Color, Key, Move, Piece, PieceType, Square,
  WHITE, BLACK, NO_PIECE, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, SQ_NONE, MAX_PLY,
  ANY_CASTLING, PROMOTION, EN_PASSANT, CASTLING, MOVE_NULL,
  makePiece, typeOf, colorOf, fileOf, rankOf, fromSq, toSq, moveFlag, promotionType,
  castlingKingTo, castlingRookTo, castlingIndexOf,
} from "./types";
import { squareBB, lsb, between } from "./bitboard";
import { pawnAttacks, knightAttacks, kingAttacks, bishopAttacks, rookAttacks } from "./attacks";
import { psqKey, castlingKey, epKey, SIDE_KEY } from "./zobrist";
import { SLIDER_BACKEND, SLIDERS_ROTATED, USE_NNUE } from "./config";
import { toggleRotated, moveRotated, setRotated, rotatedMatches } from "./slider-rotated";
import {
  ARENA, DIRTY_MAX, ARENA_BY_TYPE, ARENA_BY_COLOR, ARENA_BOARD, ARENA_CASTLING_ROOK, ARENA_CASTLING_EMPTY,
  ARENA_CASTLING_SAFE, ARENA_CASTLING_SHIELD, ARENA_CASTLING_MASK, ARENA_STATE_KEYS, ARENA_STATE_INFO,
  ARENA_DIRTY_COUNT, ARENA_DIRTY_PIECE, ARENA_DIRTY_FROM, ARENA_DIRTY_TO, STATE_CAPACITY,
} from "./arena";

// The board is in the thread's arena (arena.ts): bitboards by type (index 0 = every piece)
// and by colour, the mailbox (the piece on each square), and the castling tables below.

export let sideToMove: Color = WHITE;
export let castlingRights: i32 = 0;
/** En-passant target square, or SQ_NONE. Convention: it is set (and hashed) only when a
 *  pawn of the side to move attacks it, whether or not the capture is legal; FEN output
 *  writes it under the same rule. */
export let epSquare: Square = SQ_NONE;
/** Plies since the last capture or pawn move. */
export let rule50: i32 = 0;
/** Plies since the start of the game as the FEN gives it (fullmove = gamePly / 2 + 1). */
export let gamePly: i32 = 0;
/** Plies since the last null move (repetition checks never look past one). */
export let pliesFromNull: i32 = 0;
export let key: Key = 0;

// The state stack: one entry per move made since the position was set, holding what
// unmake cannot recompute. Sized for long games plus a full search. Each entry is the
// key before the move and one packed word:
//
//   62 ....... 47 | 46 ....... 31 | 30 .. 24 | 23 .. 20 | 19 .. 16 | 15 ..... 0
//   pliesFromNull |    rule50     | ep square| castling | captured |    move

// It has STATE_CAPACITY entries (arena.ts): GAME_MOVES_MAX moves of the game, room for a
// search beyond them.
/** Number of moves on the state stack. */
export let stateCount: i32 = 0;

// For the NNUE accumulators (accumulator.ts): the pieces each move changed, recorded under the
// state count the move led to: up to DIRTY_MAX (piece, from, to), SQ_NONE for a piece that
// appears or disappears. Recorded in the network build only.

// @ts-ignore: decorator
@inline function stateKey(i: i32): Key {
  return load<u64>(ARENA + (<usize>i << 3), ARENA_STATE_KEYS);
}
// @ts-ignore: decorator
@inline function stateInfo(i: i32): u64 {
  return load<u64>(ARENA + (<usize>i << 3), ARENA_STATE_INFO);
}
// @ts-ignore: decorator
@inline function setStateEntry(i: i32, k: Key, info: u64): void {
  store<u64>(ARENA + (<usize>i << 3), k, ARENA_STATE_KEYS);
  store<u64>(ARENA + (<usize>i << 3), info, ARENA_STATE_INFO);
}
// @ts-ignore: decorator
@inline function setDirtyCount(s: i32, n: i32): void {
  store<u8>(ARENA + <usize>s, <u8>n, ARENA_DIRTY_COUNT);
}

// @ts-ignore: decorator
@inline function addDirty(pc: Piece, from: Square, to: Square): void {
  const s = stateCount;
  const n = dirtyCountAt(s);
  const i = ARENA + <usize>(s * DIRTY_MAX + n);
  store<u8>(i, <u8>pc, ARENA_DIRTY_PIECE);
  store<u8>(i, <u8>from, ARENA_DIRTY_FROM);
  store<u8>(i, <u8>to, ARENA_DIRTY_TO);
  setDirtyCount(s, n + 1);
}

/** Pieces changed by the move that led to state count s (see above). */
// @ts-ignore: decorator
@inline export function dirtyCountAt(s: i32): i32 {
  return <i32>load<u8>(ARENA + <usize>s, ARENA_DIRTY_COUNT);
}
// @ts-ignore: decorator
@inline export function dirtyPieceAt(s: i32, k: i32): Piece {
  return <i32>load<u8>(ARENA + <usize>(s * DIRTY_MAX + k), ARENA_DIRTY_PIECE);
}
// @ts-ignore: decorator
@inline export function dirtyFromAt(s: i32, k: i32): Square {
  return <i32>load<u8>(ARENA + <usize>(s * DIRTY_MAX + k), ARENA_DIRTY_FROM);
}
// @ts-ignore: decorator
@inline export function dirtyToAt(s: i32, k: i32): Square {
  return <i32>load<u8>(ARENA + <usize>(s * DIRTY_MAX + k), ARENA_DIRTY_TO);
}

// Castling, set up with the position (setState): for each right index (castlingIndex), the
// castling rook's square, the squares that must be empty (between the king and its
// destination and between the rook and its destination, both included, the king and that
// rook themselves excepted), the squares the king crosses or lands on (which no enemy may
// attack), and whether the rook, standing beyond the king's destination (Chess960: a rook on
// b1 castling long), may shield the destination from an enemy rook or queen further out.
// CASTLING_MASK[sq]: the rights that survive a move from or to sq.
// In the arena beside the bitboards, for move generation and make/unmake to read without a
// managed object in between.

/** Chess960 mode: castling moves are written and read in UCI as king-takes-rook, and FEN
 *  castling fields may name any rook (X-FEN, Shredder-FEN). Set before the position. */
export let chess960: bool = false;

/** Switches Chess960 mode (applies to positions set up and moves read afterwards). */
export function setChess960(on: bool): void {
  chess960 = on;
}

/** The castling rook's square for right index i (SQ_NONE when the position never had it). */
// @ts-ignore: decorator
@inline export function castlingRookSquare(i: i32): Square {
  return load<i32>(ARENA + (<usize>i << 2), ARENA_CASTLING_ROOK);
}

/** Squares that must be empty for castling with right index i. */
// @ts-ignore: decorator
@inline export function castlingEmpty(i: i32): Bitboard {
  return load<u64>(ARENA + (<usize>i << 3), ARENA_CASTLING_EMPTY);
}

/** Squares the king crosses or lands on when castling with right index i. */
// @ts-ignore: decorator
@inline export function castlingSafe(i: i32): Bitboard {
  return load<u64>(ARENA + (<usize>i << 3), ARENA_CASTLING_SAFE);
}

/** True when castling with right index i may uncover a rank attack on the king's
 *  destination through the rook's square (see above). */
// @ts-ignore: decorator
@inline export function castlingShield(i: i32): bool {
  return load<u8>(ARENA + <usize>i, ARENA_CASTLING_SHIELD) != 0;
}

/** Names the castling rook of right index i for the next setState (FEN parsing); rights
 *  without a named rook get the outermost rook on that side of the king. */
export function setCastlingRook(i: i32, sq: Square): void {
  store<i32>(ARENA + (<usize>i << 2), sq, ARENA_CASTLING_ROOK);
}

/** The outermost rook of colour c on its back rank on the given side of its king, or SQ_NONE
 *  (X-FEN's K and Q). */
export function outermostRook(c: Color, kingside: bool): Square {
  const k = kingSquare(c);
  const base = c * 56;
  if (rankOf(k) != c * 7) return SQ_NONE;
  const rook = makePiece(c, ROOK);
  if (kingside) {
    for (let f = 7; f > fileOf(k); f--) if (pieceOn(base + f) == rook) return base + f;
  } else {
    for (let f = 0; f < fileOf(k); f++) if (pieceOn(base + f) == rook) return base + f;
  }
  return SQ_NONE;
}

/** Builds the castling tables for the rights held (the king and rooks are on the board). */
function initCastling(): void {
  memory.fill(ARENA + ARENA_CASTLING_MASK, <u8>ANY_CASTLING, 64);
  for (let i = 0; i < 4; i++) {
    let empty: u64 = 0;
    let safe: u64 = 0;
    let shield = false;
    if ((castlingRights & (1 << i)) == 0) {
      setCastlingRook(i, SQ_NONE);
    } else {
      const c = i >> 1;
      const kingside = (i & 1) == 0;
      if (castlingRookSquare(i) == SQ_NONE) setCastlingRook(i, outermostRook(c, kingside));
      const rFrom = castlingRookSquare(i);
      const kFrom = kingSquare(c);
      const kTo = castlingKingTo(i);
      const rTo = castlingRookTo(i);
      const both = squareBB(kFrom) | squareBB(rFrom);
      empty = (between(kFrom, kTo) | squareBB(kTo) | between(rFrom, rTo) | squareBB(rTo)) & ~both;
      safe = (between(kFrom, kTo) | squareBB(kTo)) & ~squareBB(kFrom);
      shield = kingside ? fileOf(rFrom) > fileOf(kTo) && fileOf(rFrom) < 7 : fileOf(rFrom) < fileOf(kTo) && fileOf(rFrom) > 0;
      clearMaskBit(kFrom, i);
      clearMaskBit(rFrom, i);
    }
    store<u64>(ARENA + (<usize>i << 3), empty, ARENA_CASTLING_EMPTY);
    store<u64>(ARENA + (<usize>i << 3), safe, ARENA_CASTLING_SAFE);
    store<u8>(ARENA + <usize>i, shield ? 1 : 0, ARENA_CASTLING_SHIELD);
  }
}

function clearMaskBit(sq: Square, i: i32): void {
  store<u8>(ARENA + <usize>sq, load<u8>(ARENA + <usize>sq, ARENA_CASTLING_MASK) & ~(<u8>1 << <u8>i), ARENA_CASTLING_MASK);
}

/** The castling rights that survive a move from or to sq. */
// @ts-ignore: decorator
@inline function castlingMask(sq: Square): i32 {
  return <i32>load<u8>(ARENA + <usize>sq, ARENA_CASTLING_MASK);
}

/** Bitboard of all pieces of type pt (ALL_PIECES = 0 for every piece). */
// @ts-ignore: decorator
@inline export function pieces(pt: PieceType): Bitboard {
  return load<u64>(ARENA + (<usize>pt << 3), ARENA_BY_TYPE);
}

/** Bitboard of all pieces of colour c. */
// @ts-ignore: decorator
@inline export function colorBB(c: Color): Bitboard {
  return load<u64>(ARENA + (<usize>c << 3), ARENA_BY_COLOR);
}

/** Bitboard of the pieces of colour c and type pt. */
// @ts-ignore: decorator
@inline export function piecesOf(c: Color, pt: PieceType): Bitboard {
  return pieces(pt) & colorBB(c);
}

/** Every occupied square. */
// @ts-ignore: decorator
@inline export function occupied(): Bitboard {
  return load<u64>(ARENA, ARENA_BY_TYPE);
}

/** The piece on sq, or NO_PIECE. */
// @ts-ignore: decorator
@inline export function pieceOn(sq: Square): Piece {
  return <i32>load<u8>(ARENA + <usize>sq, ARENA_BOARD);
}

/** The king square of colour c. */
// @ts-ignore: decorator
@inline export function kingSquare(c: Color): Square {
  return lsb(piecesOf(c, KING));
}

/** Places pc on an empty square sq (key not updated). */
export function putPiece(pc: Piece, sq: Square): void {
  const b = squareBB(sq);
  const pt = <usize>typeOf(pc);
  const c = <usize>colorOf(pc);
  store<u64>(ARENA, load<u64>(ARENA, ARENA_BY_TYPE) | b, ARENA_BY_TYPE);
  store<u64>(ARENA + (pt << 3), load<u64>(ARENA + (pt << 3), ARENA_BY_TYPE) | b, ARENA_BY_TYPE);
  store<u64>(ARENA + (c << 3), load<u64>(ARENA + (c << 3), ARENA_BY_COLOR) | b, ARENA_BY_COLOR);
  store<u8>(ARENA + <usize>sq, <u8>pc, ARENA_BOARD);
  if (SLIDER_BACKEND == SLIDERS_ROTATED) toggleRotated(sq);
}

/** Removes the piece on sq (key not updated). */
// @ts-ignore: decorator
@inline function removePiece(sq: Square): void {
  const pc = pieceOn(sq);
  const b = squareBB(sq);
  const pt = <usize>typeOf(pc);
  const c = <usize>colorOf(pc);
  store<u64>(ARENA, load<u64>(ARENA, ARENA_BY_TYPE) ^ b, ARENA_BY_TYPE);
  store<u64>(ARENA + (pt << 3), load<u64>(ARENA + (pt << 3), ARENA_BY_TYPE) ^ b, ARENA_BY_TYPE);
  store<u64>(ARENA + (c << 3), load<u64>(ARENA + (c << 3), ARENA_BY_COLOR) ^ b, ARENA_BY_COLOR);
  store<u8>(ARENA + <usize>sq, 0, ARENA_BOARD);
  if (SLIDER_BACKEND == SLIDERS_ROTATED) toggleRotated(sq);
}

/** Moves the piece on from to the empty square to (key not updated). */
// @ts-ignore: decorator
@inline function movePiece(from: Square, to: Square): void {
  const pc = pieceOn(from);
  const b = squareBB(from) | squareBB(to);
  const pt = <usize>typeOf(pc);
  const c = <usize>colorOf(pc);
  store<u64>(ARENA, load<u64>(ARENA, ARENA_BY_TYPE) ^ b, ARENA_BY_TYPE);
  store<u64>(ARENA + (pt << 3), load<u64>(ARENA + (pt << 3), ARENA_BY_TYPE) ^ b, ARENA_BY_TYPE);
  store<u64>(ARENA + (c << 3), load<u64>(ARENA + (c << 3), ARENA_BY_COLOR) ^ b, ARENA_BY_COLOR);
  store<u8>(ARENA + <usize>from, 0, ARENA_BOARD);
  store<u8>(ARENA + <usize>to, <u8>pc, ARENA_BOARD);
  if (SLIDER_BACKEND == SLIDERS_ROTATED) moveRotated(from, to);
}

/** Empties the board and resets every state field; the caller sets them up again. */
export function clearBoard(): void {
  for (let i = 0; i < 8; i++) store<u64>(ARENA + (<usize>i << 3), 0, ARENA_BY_TYPE);
  store<u64>(ARENA, 0, ARENA_BY_COLOR);
  store<u64>(ARENA + 8, 0, ARENA_BY_COLOR);
  memory.fill(ARENA + ARENA_BOARD, 0, 64);
  if (SLIDER_BACKEND == SLIDERS_ROTATED) setRotated(0);
  sideToMove = WHITE;
  castlingRights = 0;
  epSquare = SQ_NONE;
  rule50 = 0;
  gamePly = 0;
  pliesFromNull = 0;
  stateCount = 0;
  key = 0;
  for (let i = 0; i < 4; i++) setCastlingRook(i, SQ_NONE);
}

/** Sets the scalar state fields (after the pieces are placed, and the castling rooks named
 *  with setCastlingRook where they are not the outermost ones), builds the castling tables
 *  and recomputes the key. */
export function setState(stm: Color, rights: i32, ep: Square, halfmove: i32, ply: i32): void {
  sideToMove = stm;
  castlingRights = rights;
  initCastling();
  epSquare = ep;
  rule50 = halfmove;
  gamePly = ply;
  pliesFromNull = 0;
  stateCount = 0;
  key = computeKey();
}

/** The Zobrist key computed from scratch (the incremental key must always equal it). */
export function computeKey(): Key {
  let k: Key = 0;
  let occ = occupied();
  while (occ) {
    const sq = lsb(occ);
    occ &= occ - 1;
    k ^= psqKey(pieceOn(sq), sq);
  }
  k ^= castlingKey(castlingRights);
  if (epSquare != SQ_NONE) k ^= epKey(fileOf(epSquare));
  if (sideToMove == BLACK) k ^= SIDE_KEY;
  return k;
}

/** Pieces of both colours attacking sq, with occ as the occupancy. */
export function attackersTo(sq: Square, occ: Bitboard): Bitboard {
  return (
    (pawnAttacks(BLACK, sq) & piecesOf(WHITE, PAWN)) |
    (pawnAttacks(WHITE, sq) & piecesOf(BLACK, PAWN)) |
    (knightAttacks(sq) & pieces(KNIGHT)) |
    (bishopAttacks(sq, occ) & (pieces(BISHOP) | pieces(QUEEN))) |
    (rookAttacks(sq, occ) & (pieces(ROOK) | pieces(QUEEN))) |
    (kingAttacks(sq) & pieces(KING))
  );
}

/** True when a piece of colour by attacks sq, with occ as the occupancy. */
export function isAttacked(sq: Square, by: Color, occ: Bitboard): bool {
  const them = colorBB(by);
  return (
    (pawnAttacks(by ^ 1, sq) & pieces(PAWN) & them) != 0 ||
    (knightAttacks(sq) & pieces(KNIGHT) & them) != 0 ||
    (kingAttacks(sq) & pieces(KING) & them) != 0 ||
    (bishopAttacks(sq, occ) & (pieces(BISHOP) | pieces(QUEEN)) & them) != 0 ||
    (rookAttacks(sq, occ) & (pieces(ROOK) | pieces(QUEEN)) & them) != 0
  );
}

/** Enemy pieces giving check to the side to move. */
// @ts-ignore: decorator
@inline export function checkers(): Bitboard {
  return attackersTo(kingSquare(sideToMove), occupied()) & colorBB(sideToMove ^ 1);
}

/** True when the side to move is in check. */
// @ts-ignore: decorator
@inline export function inCheck(): bool {
  return isAttacked(kingSquare(sideToMove), sideToMove ^ 1, occupied());
}

// @ts-ignore: decorator
@inline function pushState(m: Move, captured: Piece): void {
  const i = stateCount++;
  setStateEntry(i, key,
    <u64>m | (<u64>captured << 16) | (<u64>castlingRights << 20) | (<u64>epSquare << 24) |
    (<u64>rule50 << 31) | (<u64>min(pliesFromNull, 0xffff) << 47));
}

// @ts-ignore: decorator
@inline function popState(): Piece {
  const i = --stateCount;
  key = stateKey(i);
  const info = stateInfo(i);
  castlingRights = <i32>(info >> 20) & 15;
  epSquare = <i32>(info >> 24) & 127;
  rule50 = <i32>(info >> 31) & 0xffff;
  pliesFromNull = <i32>(info >> 47) & 0xffff;
  return <i32>(info >> 16) & 15;
}

/** True when the state stack has room for another move. */
// @ts-ignore: decorator
@inline export function canPush(): bool {
  return stateCount < STATE_CAPACITY;
}

/** Plays a legal move. */
export function doMove(m: Move): void {
  const us = sideToMove;
  const them = us ^ 1;
  const from = fromSq(m);
  const to = toSq(m);
  const flag = moveFlag(m);
  const pc = pieceOn(from);
  const capSq = flag == EN_PASSANT ? to ^ 8 : to;
  // A castling king may land on its own rook's square: that is no capture.
  const captured = flag == CASTLING ? NO_PIECE : pieceOn(capSq);

  pushState(m, captured);
  if (USE_NNUE) setDirtyCount(stateCount, 0);
  let k = key ^ SIDE_KEY;
  if (epSquare != SQ_NONE) {
    k ^= epKey(fileOf(epSquare));
    epSquare = SQ_NONE;
  }
  rule50++;
  pliesFromNull++;
  gamePly++;

  if (flag == CASTLING) {
    k = doCastling(us, m, k);
  } else {
    if (captured != NO_PIECE) {
      removePiece(capSq);
      k ^= psqKey(captured, capSq);
      rule50 = 0;
      if (USE_NNUE) addDirty(captured, capSq, SQ_NONE);
    }

    movePiece(from, to);
    k ^= psqKey(pc, from) ^ psqKey(pc, to);
    if (USE_NNUE && flag != PROMOTION) addDirty(pc, from, to);

    if (typeOf(pc) == PAWN) {
      rule50 = 0;
      if ((to ^ from) == 16) {
        const ep = (to + from) >> 1;
        if (pawnAttacks(us, ep) & piecesOf(them, PAWN)) {
          epSquare = ep;
          k ^= epKey(fileOf(ep));
        }
      } else if (flag == PROMOTION) {
        const promoted = makePiece(us, promotionType(m));
        removePiece(to);
        putPiece(promoted, to);
        k ^= psqKey(pc, to) ^ psqKey(promoted, to);
        if (USE_NNUE) {
          addDirty(pc, from, SQ_NONE);
          addDirty(promoted, SQ_NONE, to);
        }
      }
    }
  }

  const rights = castlingRights;
  if (rights) {
    const newRights = rights & castlingMask(from) & castlingMask(to);
    if (newRights != rights) {
      k ^= castlingKey(rights) ^ castlingKey(newRights);
      castlingRights = newRights;
    }
  }

  key = k;
  sideToMove = them;
}

/** Moves king and rook for the castling move m (both lifted first: in Chess960 either may
 *  stay where it is or land where the other stood); returns the key updated by them. The
 *  network's records are the king's and the rook's moves, from == to for one that stays. */
function doCastling(us: Color, m: Move, k: Key): Key {
  const i = castlingIndexOf(m);
  const kFrom = fromSq(m);
  const kTo = toSq(m);
  const rFrom = castlingRookSquare(i);
  const rTo = castlingRookTo(i);
  const king = makePiece(us, KING);
  const rook = makePiece(us, ROOK);
  removePiece(kFrom);
  removePiece(rFrom);
  putPiece(king, kTo);
  putPiece(rook, rTo);
  if (USE_NNUE) {
    addDirty(king, kFrom, kTo);
    addDirty(rook, rFrom, rTo);
  }
  return k ^ psqKey(king, kFrom) ^ psqKey(king, kTo) ^ psqKey(rook, rFrom) ^ psqKey(rook, rTo);
}

/** Takes back the last move m played with doMove. */
export function undoMove(m: Move): void {
  const them = sideToMove;
  const us = them ^ 1;
  sideToMove = us;
  gamePly--;
  const captured = popState();
  const from = fromSq(m);
  const to = toSq(m);
  const flag = moveFlag(m);

  if (flag == CASTLING) {
    const i = castlingIndexOf(m);
    removePiece(to);
    removePiece(castlingRookTo(i));
    putPiece(makePiece(us, KING), from);
    putPiece(makePiece(us, ROOK), castlingRookSquare(i));
    return;
  }
  if (flag == PROMOTION) {
    removePiece(to);
    putPiece(makePiece(us, PAWN), to);
  }
  movePiece(to, from);
  if (captured != NO_PIECE) putPiece(captured, flag == EN_PASSANT ? to ^ 8 : to);
}

// ---------------------------------------------------------------- bitboard-only make

/** XORs b into the bitboards of type pt and colour c, and into the occupancy. */
// @ts-ignore: decorator
@inline function toggleBB(pt: PieceType, c: Color, b: Bitboard): void {
  store<u64>(ARENA, load<u64>(ARENA, ARENA_BY_TYPE) ^ b, ARENA_BY_TYPE);
  store<u64>(ARENA + (<usize>pt << 3), load<u64>(ARENA + (<usize>pt << 3), ARENA_BY_TYPE) ^ b, ARENA_BY_TYPE);
  store<u64>(ARENA + (<usize>c << 3), load<u64>(ARENA + (<usize>c << 3), ARENA_BY_COLOR) ^ b, ARENA_BY_COLOR);
}

/** Plays a legal move on what move generation reads (the bitboards, the side to move, the
 *  castling rights and the en-passant square) and nothing else: the mailbox, the key and
 *  the history stay as they were. For perft's last ply, where the child position is only
 *  counted. Returns what undoMoveBitboards needs; nothing else may run in between. */
// @ts-ignore: decorator
@inline export function doMoveBitboards(m: Move): i32 {
  const us = sideToMove;
  const them = us ^ 1;
  const from = fromSq(m);
  const to = toSq(m);
  const flag = moveFlag(m);
  const pt = typeOf(pieceOn(from));
  const capSq = flag == EN_PASSANT ? to ^ 8 : to;
  const capType = flag == CASTLING ? 0 : typeOf(pieceOn(capSq));
  const saved = castlingRights | (epSquare << 4) | (capType << 12);
  if (flag == CASTLING) {
    toggleCastlingRook(us, m);
  } else if (capType != 0) {
    toggleBB(capType, them, squareBB(capSq));
  }
  // XOR: a Chess960 king may stay where it stands.
  toggleBB(pt, us, squareBB(from) ^ squareBB(to));
  if (SLIDER_BACKEND == SLIDERS_ROTATED) toggleRotatedOccupancy(m, capType);
  epSquare = SQ_NONE;
  if (pt == PAWN) {
    if (flag == PROMOTION) {
      const b = squareBB(to);
      store<u64>(ARENA + (<usize>PAWN << 3), load<u64>(ARENA + (<usize>PAWN << 3), ARENA_BY_TYPE) ^ b, ARENA_BY_TYPE);
      const pp = <usize>promotionType(m) << 3;
      store<u64>(ARENA + pp, load<u64>(ARENA + pp, ARENA_BY_TYPE) ^ b, ARENA_BY_TYPE);
    } else if ((to ^ from) == 16) {
      const ep = (to + from) >> 1;
      if (pawnAttacks(us, ep) & piecesOf(them, PAWN)) epSquare = ep;
    }
  }
  castlingRights &= castlingMask(from) & castlingMask(to);
  sideToMove = them;
  return saved;
}

/** Takes back doMoveBitboards(m), given what it returned. */
// @ts-ignore: decorator
@inline export function undoMoveBitboards(m: Move, saved: i32): void {
  const them = sideToMove;
  const us = them ^ 1;
  sideToMove = us;
  castlingRights = saved & 15;
  epSquare = (saved >> 4) & 127;
  const capType = saved >> 12;
  const from = fromSq(m);
  const to = toSq(m);
  const flag = moveFlag(m);
  const pt = typeOf(pieceOn(from));
  if (flag == PROMOTION) {
    const b = squareBB(to);
    store<u64>(ARENA + (<usize>PAWN << 3), load<u64>(ARENA + (<usize>PAWN << 3), ARENA_BY_TYPE) ^ b, ARENA_BY_TYPE);
    const pp = <usize>promotionType(m) << 3;
    store<u64>(ARENA + pp, load<u64>(ARENA + pp, ARENA_BY_TYPE) ^ b, ARENA_BY_TYPE);
  }
  toggleBB(pt, us, squareBB(from) ^ squareBB(to));
  if (flag == CASTLING) {
    toggleCastlingRook(us, m);
  } else if (capType != 0) {
    toggleBB(capType, them, squareBB(flag == EN_PASSANT ? to ^ 8 : to));
  }
  if (SLIDER_BACKEND == SLIDERS_ROTATED) toggleRotatedOccupancy(m, capType);
}

/** The rotated backend's occupancies follow the squares whose occupancy m changes (its own
 *  inverse: the same toggles take the move back). */
function toggleRotatedOccupancy(m: Move, capType: PieceType): void {
  const from = fromSq(m);
  const to = toSq(m);
  const flag = moveFlag(m);
  toggleRotated(from);
  if (capType == 0 || flag == EN_PASSANT) toggleRotated(to);
  if (flag == EN_PASSANT) toggleRotated(to ^ 8);
  if (flag == CASTLING) {
    const i = castlingIndexOf(m);
    toggleRotated(castlingRookSquare(i));
    toggleRotated(castlingRookTo(i));
  }
}

/** Moves (or takes back) the castling rook of m on the bitboards. All toggles are XORs, so a
 *  king landing on its rook's square, or a rook staying where it stands, comes out right. */
// @ts-ignore: decorator
@inline function toggleCastlingRook(us: Color, m: Move): void {
  const i = castlingIndexOf(m);
  toggleBB(ROOK, us, squareBB(castlingRookSquare(i)) ^ squareBB(castlingRookTo(i)));
}

/** Passes the move to the opponent (not legal when in check). */
export function doNullMove(): void {
  pushState(MOVE_NULL, NO_PIECE);
  if (USE_NNUE) setDirtyCount(stateCount, 0);
  let k = key ^ SIDE_KEY;
  if (epSquare != SQ_NONE) {
    k ^= epKey(fileOf(epSquare));
    epSquare = SQ_NONE;
  }
  key = k;
  rule50++;
  pliesFromNull = 0;
  gamePly++;
  sideToMove ^= 1;
}

/** Takes back a null move. */
export function undoNullMove(): void {
  sideToMove ^= 1;
  gamePly--;
  popState();
}

/** The move that led to the current position (MOVE_NONE at the root of the history). */
// @ts-ignore: decorator
@inline export function lastMove(): Move {
  return stateCount > 0 ? <Move>stateInfo(stateCount - 1) : 0;
}

/** The piece captured by the last move (NO_PIECE when none). */
export function lastCaptured(): Piece {
  return stateCount > 0 ? <i32>(stateInfo(stateCount - 1) >> 16) & 15 : NO_PIECE;
}

/** Key of the position `back` plies before the current one (back >= 1, <= stateCount). */
// @ts-ignore: decorator
@inline export function keyBefore(back: i32): Key {
  return stateKey(stateCount - back);
}

/** The move made `back` plies ago (from the position keyBefore(back) names), 1 <= back <=
 *  stateCount. */
// @ts-ignore: decorator
@inline export function moveBefore(back: i32): Move {
  return <Move>stateInfo(stateCount - back);
}

/** Drops the history that no repetition can reach any more (older than the last
 *  irreversible or null move), so that games of any length fit the state stack. */
export function compactHistory(): void {
  // Past 100 reversible plies the 50-move rule decides, so 128 plies always suffice.
  const keep = min(min(min(rule50, pliesFromNull), stateCount), 128);
  const drop = stateCount - keep;
  if (drop == 0) return;
  for (let i = 0; i < keep; i++) setStateEntry(i, stateKey(i + drop), stateInfo(i + drop));
  if (USE_NNUE) {
    const a = ARENA;
    memory.copy(a + ARENA_DIRTY_COUNT + 1, a + ARENA_DIRTY_COUNT + 1 + <usize>drop, <usize>keep);
    const from = <usize>((1 + drop) * DIRTY_MAX);
    const bytes = <usize>(keep * DIRTY_MAX);
    memory.copy(a + ARENA_DIRTY_PIECE + DIRTY_MAX, a + ARENA_DIRTY_PIECE + from, bytes);
    memory.copy(a + ARENA_DIRTY_FROM + DIRTY_MAX, a + ARENA_DIRTY_FROM + from, bytes);
    memory.copy(a + ARENA_DIRTY_TO + DIRTY_MAX, a + ARENA_DIRTY_TO + from, bytes);
  }
  stateCount = keep;
}

/** True when the current position occurred at least `times` times before, or once fewer
 *  than `ply` plies ago (inside a search tree, where one repetition decides). The scan looks
 *  back no further than the last irreversible move or null move, nor past the state stack. */
export function isRepetition(times: i32, ply: i32 = 0): bool {
  const end = min(min(rule50, pliesFromNull), stateCount);
  let count = 0;
  for (let back = 4; back <= end; back += 2) {
    if (keyBefore(back) == key && (back < ply || ++count >= times)) return true;
  }
  return false;
}

/** True when some position since the last irreversible move has occurred twice (Fathom's
 *  and Stockfish's has_repeated): the tablebase root ranking then drives to a zeroing move
 *  by DTZ instead of counting every win within the 50-move rule as equal. */
export function hasRepeated(): bool {
  const end = min(min(rule50, pliesFromNull), stateCount);
  for (let from = 0; from + 4 <= end; from++) {
    const k = from == 0 ? key : keyBefore(from);
    for (let back = from + 4; back <= end; back += 2) {
      if (keyBefore(back) == k) return true;
    }
  }
  return false;
}

/** True when neither side has mating material (K v K, K+minor v K, KNN v K). */
export function insufficientMaterial(): bool {
  if (pieces(PAWN) | pieces(ROOK) | pieces(QUEEN)) return false;
  const minors = pieces(KNIGHT) | pieces(BISHOP);
  const n = <i32>popcnt<u64>(minors);
  if (n <= 1) return true;
  // Two knights of one side against a lone king cannot force mate.
  if (n == 2 && pieces(BISHOP) == 0) {
    return (colorBB(WHITE) & minors) == 0 || (colorBB(BLACK) & minors) == 0;
  }
  return false;
}

/** Copies the board and state into a snapshot buffer of SNAPSHOT_SIZE bytes (arena.ts). */
export function saveSnapshot(buf: usize): void {
  // The bitboards by type and colour and the mailbox lie one after another in the arena.
  memory.copy(buf, ARENA + ARENA_BY_TYPE, 144);
  store<u64>(buf + 144, key);
  store<i32>(buf + 152, sideToMove);
  store<i32>(buf + 156, castlingRights);
  store<i32>(buf + 160, epSquare);
  store<i32>(buf + 164, rule50);
  store<i32>(buf + 168, gamePly);
  store<i32>(buf + 172, pliesFromNull);
  store<i32>(buf + 176, stateCount);
  for (let i = 0; i < 4; i++) store<u8>(buf + 180 + <usize>i, <u8>castlingRookSquare(i));
}

/** Restores a snapshot taken by saveSnapshot. */
export function loadSnapshot(buf: usize): void {
  memory.copy(ARENA + ARENA_BY_TYPE, buf, 144);
  if (SLIDER_BACKEND == SLIDERS_ROTATED) setRotated(occupied());
  key = load<u64>(buf + 144);
  sideToMove = load<i32>(buf + 152);
  castlingRights = load<i32>(buf + 156);
  epSquare = load<i32>(buf + 160);
  rule50 = load<i32>(buf + 164);
  gamePly = load<i32>(buf + 168);
  pliesFromNull = load<i32>(buf + 172);
  stateCount = load<i32>(buf + 176);
  for (let i = 0; i < 4; i++) setCastlingRook(i, <i32>load<u8>(buf + 180 + <usize>i));
  initCastling();
}

/** Checks every invariant of the position; returns an empty string when it holds. */
export function validate(): string {
  let all: u64 = 0;
  for (let pt = PAWN; pt <= KING; pt++) {
    if (all & pieces(pt)) return "piece bitboards overlap";
    all |= pieces(pt);
  }
  if (all != occupied()) return "occupancy differs from the union of types";
  if (colorBB(WHITE) & colorBB(BLACK)) return "colour bitboards overlap";
  if ((colorBB(WHITE) | colorBB(BLACK)) != all) return "colour bitboards differ from occupancy";
  if (SLIDER_BACKEND == SLIDERS_ROTATED && !rotatedMatches(all)) return "rotated occupancies differ from occupancy";
  for (let sq = 0; sq < 64; sq++) {
    const pc = pieceOn(sq);
    const b = squareBB(sq);
    if (pc == NO_PIECE) {
      if (all & b) return "mailbox empty where a bitboard has a piece";
    } else if ((piecesOf(colorOf(pc), typeOf(pc)) & b) == 0) {
      return "mailbox disagrees with bitboards";
    }
  }
  if (<i32>popcnt<u64>(piecesOf(WHITE, KING)) != 1 || <i32>popcnt<u64>(piecesOf(BLACK, KING)) != 1) return "king count";
  if (key != computeKey()) return "incremental key differs from recompute";
  for (let i = 0; i < 4; i++) {
    if ((castlingRights & (1 << i)) == 0) continue;
    const c = i >> 1;
    const r = castlingRookSquare(i);
    if (r == SQ_NONE || pieceOn(r) != makePiece(c, ROOK) || rankOf(kingSquare(c)) != c * 7 || rankOf(r) != c * 7) return "castling right without its king and rook";
    if ((i & 1) == 0 ? fileOf(r) < fileOf(kingSquare(c)) : fileOf(r) > fileOf(kingSquare(c))) return "castling rook on the wrong side of the king";
  }
  if (epSquare != SQ_NONE && (pawnAttacks(sideToMove ^ 1, epSquare) & piecesOf(sideToMove, PAWN)) == 0) {
    return "en-passant square without a capturing pawn";
  }
  return "";
}
