// The per-thread arena: every array that a search thread writes (its board, state stack,
// move lists, search stack, root moves, histories, caches and scratch) in one block of
// static memory with one documented layout, reached through one base, ARENA. A module that
// keeps per-thread state addresses it as `ARENA + index` with its region's offset as the
// load's immediate, never in a module-level array of its own. What the threads of one search
// share (the transposition table, the stop request, the node counts) is in the shared header
// instead (shared.ts); scalars a thread owns (the side to move, the key, the probe results,
// ...) are module-level `let`s, wasm globals, one set per instance already.
//
// The base is a constant: each search thread is meant to be an instance of its own, with its
// own memory, so every instance finds its arena at the same address and no other instance's
// start-up or search can touch it. A base read from a wasm global instead (one memory for all
// threads, an arena per thread) costs about 6% of perft's speed and 4% of the search's, 2%
// and 4% with an imported immutable global (docs/memory.md has the measurement and the
// memory map).
//
// The layout, region by region (each region starts on a 64-byte cache line; NNUE-only parts
// are empty in the classical build):
//
//   board          bitboards by type and colour, mailbox, castling tables, rotated occupancy
//   state stack    key and packed state per move since the position was set (position.ts),
//                  and the pieces each move changed for the accumulators (network build)
//   move lists     MAX_PLY lists of MAX_MOVES moves (movegen.ts), their order scores (movepick.ts)
//   search stack   PV table and lengths, static evals, in-check cache, excluded moves, double
//                  extensions, best moves, moves per ply, killers (search.ts, history.ts)
//   root moves     per root move: nodes, score, previous score, PV (think.ts)
//   histories      counter moves, butterfly, capture and continuation histories, correction
//   caches         pawn structure table (pawns.ts), accumulator ring (accumulator.ts)
//   scratch        check squares, SEE gains, evaluation terms, divide results, notation's
//                  move list, a position snapshot, the skill level's lines
//   tablebase      the probes' move lists, the root moves' DTZ (syzygy-probe.ts)

import { MAX_PLY, MAX_MOVES } from "./types";
import { USE_NNUE, SLIDER_BACKEND, SLIDERS_ROTATED } from "./config";
import { ACC_HALF } from "./nnue";

// ---------------------------------------------------------------- capacities

/** Moves of the game the state stack holds before the host compacts it (compactHistory);
 *  the search's moves have room beyond them. */
export const GAME_MOVES_MAX = 4096;
/** Entries of the state stack: a game, a full search line, and a margin. */
export const STATE_CAPACITY = GAME_MOVES_MAX + MAX_PLY + 8;
/** Pieces one move changes at most, for the accumulators (castling: king and rook; a
 *  capture-promotion: the captured piece, the pawn and the new piece). */
export const DIRTY_MAX = 3;
/** Root moves kept (no position has more legal moves), and the bytes of each one's entry:
 *  nodes, scores and PV length in 24 bytes, then its PV of MAX_PLY moves (think.ts). */
export const ROOT_MAX = 256;
export const ROOT_ENTRY_BYTES = 24 + MAX_PLY * 2;
/** Rows and columns of the continuation history: piece (16 codes) times destination. */
export const PIECE_TO_NB = 16 * 64;
/** Entries per side to move in each correction-history table (correction.ts). */
export const CORRECTION_BITS = 14;
export const CORRECTION_SIZE = 1 << CORRECTION_BITS;
/** The pawn structure table: entries of 64 bytes (pawns.ts). */
export const PAWN_ENTRY_BYTES: usize = 64;
export const PAWN_ENTRY_COUNT: usize = 8192;
/** Accumulators kept for the positions on the move stack (accumulator.ts). */
export const ACC_RING = 256;
/** One accumulator: both perspectives' halves of ACC_HALF i16 values. */
export const ACC_SLOT_BYTES: usize = 2 * ACC_HALF * 2;
/** A position snapshot (position.ts saveSnapshot): bitboards, mailbox and the state fields. */
export const SNAPSHOT_SIZE: usize = 8 * 8 + 2 * 8 + 64 + 8 * 8;
/** Lines a skill level chooses among (skill.ts SKILL_LINES). */
export const SKILL_LINES_MAX = 4;
/** Levels of the tablebase probes' recursion (captures, then replies), a move list each, and
 *  the moves of each list (a position has at most 218 legal moves). */
export const TB_LEVELS = 32;
export const TB_LIST_MOVES = 256;
/** Evaluation terms (eval.ts TERM_NB) times two colours, i32 each. */
export const EVAL_TERM_SLOTS = 16;

// ---------------------------------------------------------------- layout
// Each offset is the previous region's offset plus its size rounded up to 64 bytes. All are
// compile-time constants: an access compiles to a load at `ARENA + index` with the
// region's offset as the load's immediate.

// The board (position.ts).
export const ARENA_BY_TYPE: usize = 0; // u64 x 8: by piece type, index 0 every piece
export const ARENA_BY_COLOR: usize = 64; // u64 x 2
export const ARENA_BOARD: usize = 80; // u8 x 64: the piece on each square
export const ARENA_CASTLING_ROOK: usize = 144; // i32 x 4: per castling right
export const ARENA_CASTLING_EMPTY: usize = 160; // u64 x 4
export const ARENA_CASTLING_SAFE: usize = 192; // u64 x 4
export const ARENA_CASTLING_SHIELD: usize = 224; // u8 x 4
export const ARENA_CASTLING_MASK: usize = 232; // u8 x 64: per square
export const ARENA_ROTATED: usize = 296; // u64 x 4: rotated occupancies (slider-rotated.ts)
const BOARD_END: usize = 296 + (SLIDER_BACKEND == SLIDERS_ROTATED ? 32 : 0);

// The state stack (position.ts).
export const ARENA_STATE_KEYS: usize = (BOARD_END + 63) & ~63; // u64 x STATE_CAPACITY
export const ARENA_STATE_INFO: usize = ARENA_STATE_KEYS + STATE_CAPACITY * 8; // u64 x STATE_CAPACITY
const DIRTY_ENTRIES: usize = USE_NNUE ? STATE_CAPACITY + 1 : 0;
export const ARENA_DIRTY_COUNT: usize = ARENA_STATE_INFO + STATE_CAPACITY * 8; // u8 x (STATE_CAPACITY + 1)
export const ARENA_DIRTY_PIECE: usize = ARENA_DIRTY_COUNT + DIRTY_ENTRIES; // u8 x DIRTY_MAX per entry
export const ARENA_DIRTY_FROM: usize = ARENA_DIRTY_PIECE + DIRTY_ENTRIES * DIRTY_MAX;
export const ARENA_DIRTY_TO: usize = ARENA_DIRTY_FROM + DIRTY_ENTRIES * DIRTY_MAX;
const STATE_END: usize = ARENA_DIRTY_TO + DIRTY_ENTRIES * DIRTY_MAX;

// Move lists and their order scores.
export const ARENA_MOVE_LISTS: usize = (STATE_END + 63) & ~63; // u16 x MAX_MOVES per ply
export const ARENA_MOVE_SCORES: usize = ARENA_MOVE_LISTS + MAX_PLY * MAX_MOVES * 2; // i32 x MAX_MOVES per ply

// The search stack.
const STACK: usize = ARENA_MOVE_SCORES + MAX_PLY * MAX_MOVES * 4;
/** Per-ply entries of the search stack: plies 0..MAX_PLY and a margin. */
export const STACK_SLOTS = MAX_PLY + 4;
export const ARENA_PV_TABLE: usize = STACK; // u16 x MAX_PLY per ply: [ply][i]
export const ARENA_PV_LENGTH: usize = ARENA_PV_TABLE + MAX_PLY * MAX_PLY * 2; // i32 per ply
export const ARENA_EVAL_STACK: usize = ARENA_PV_LENGTH + STACK_SLOTS * 4; // i32 per ply
export const ARENA_CHECK_KEYS: usize = ARENA_EVAL_STACK + STACK_SLOTS * 4; // u64 per ply
export const ARENA_CHECK_FLAGS: usize = ARENA_CHECK_KEYS + STACK_SLOTS * 8; // u8 per ply
export const ARENA_EXCLUDED: usize = ARENA_CHECK_FLAGS + STACK_SLOTS; // u16 per ply
export const ARENA_DOUBLE_EXTENSIONS: usize = ARENA_EXCLUDED + STACK_SLOTS * 2; // i32 per ply
export const ARENA_NODE_BEST: usize = ARENA_DOUBLE_EXTENSIONS + STACK_SLOTS * 4; // u16 per ply
export const ARENA_PLY_MOVES: usize = ARENA_NODE_BEST + STACK_SLOTS * 2; // i32 per ply
export const ARENA_KILLERS: usize = ARENA_PLY_MOVES + STACK_SLOTS * 4; // u16 x 2 per ply
const STACK_END: usize = ARENA_KILLERS + STACK_SLOTS * 4;

// The root moves (think.ts): ROOT_MAX entries of ROOT_ENTRY_BYTES.
export const ARENA_ROOT_MOVES: usize = (STACK_END + 63) & ~63;
const ROOT_END: usize = ARENA_ROOT_MOVES + ROOT_MAX * ROOT_ENTRY_BYTES;

// The histories (history.ts, correction.ts).
export const ARENA_COUNTER_MOVES: usize = (ROOT_END + 63) & ~63; // u16 x 16 x 64: [piece][to]
export const ARENA_BUTTERFLY: usize = ARENA_COUNTER_MOVES + 16 * 64 * 2; // i32 x 2 x 64 x 64: [colour][from][to]
export const ARENA_CAPTURE_HISTORY: usize = ARENA_BUTTERFLY + 2 * 64 * 64 * 4; // i16 x PIECE_TO_NB x 8
export const ARENA_CONTINUATION: usize = ARENA_CAPTURE_HISTORY + PIECE_TO_NB * 8 * 2; // i16 x PIECE_TO_NB^2
export const ARENA_CORRECTION: usize = ARENA_CONTINUATION + PIECE_TO_NB * PIECE_TO_NB * 2; // i16 x 3 x 2 x CORRECTION_SIZE
const HISTORY_END: usize = ARENA_CORRECTION + 3 * 2 * CORRECTION_SIZE * 2;

// The caches.
export const ARENA_PAWN_TABLE: usize = (HISTORY_END + 63) & ~63; // PAWN_ENTRY_COUNT entries
const ACC_ENTRIES: usize = USE_NNUE ? ACC_RING : 0;
export const ARENA_ACCUMULATORS: usize = ARENA_PAWN_TABLE + PAWN_ENTRY_COUNT * PAWN_ENTRY_BYTES; // ACC_RING slots
export const ARENA_ACC_TAGS: usize = ARENA_ACCUMULATORS + ACC_ENTRIES * ACC_SLOT_BYTES; // u64 per slot: the key
export const ARENA_ACC_VALID: usize = ARENA_ACC_TAGS + ACC_ENTRIES * 8; // u8 per slot
export const ARENA_ACC_COLUMNS: usize = (ARENA_ACC_VALID + ACC_ENTRIES + 7) & ~7; // usize x 8: columns to add, then to subtract
const CACHE_END: usize = ARENA_ACC_COLUMNS + (USE_NNUE ? 8 * 4 : 0);

// Scratch.
export const ARENA_CHECK_SQUARES: usize = (CACHE_END + 63) & ~63; // u64 x 8: by piece type (check.ts)
export const ARENA_SEE_GAIN: usize = ARENA_CHECK_SQUARES + 8 * 8; // i32 x 40 (see.ts)
export const ARENA_EVAL_TERMS: usize = ARENA_SEE_GAIN + 40 * 4; // i32 x EVAL_TERM_SLOTS (eval.ts)
export const ARENA_DIVIDE_MOVES: usize = ARENA_EVAL_TERMS + EVAL_TERM_SLOTS * 4; // u16 x MAX_MOVES (perft.ts)
export const ARENA_DIVIDE_COUNTS: usize = ARENA_DIVIDE_MOVES + MAX_MOVES * 2; // u64 x MAX_MOVES
export const ARENA_NOTATION_LIST: usize = ARENA_DIVIDE_COUNTS + MAX_MOVES * 8; // u16 x MAX_MOVES (notation.ts)
export const ARENA_SNAPSHOT: usize = ARENA_NOTATION_LIST + MAX_MOVES * 2; // SNAPSHOT_SIZE (fen.ts, packed-board.ts)
export const ARENA_SKILL_MOVES: usize = ARENA_SNAPSHOT + SNAPSHOT_SIZE; // u16 x SKILL_LINES_MAX (think.ts)
export const ARENA_SKILL_PONDERS: usize = ARENA_SKILL_MOVES + SKILL_LINES_MAX * 2; // u16 x SKILL_LINES_MAX
export const ARENA_SKILL_SCORES: usize = ARENA_SKILL_PONDERS + SKILL_LINES_MAX * 2; // i32 x SKILL_LINES_MAX
const SCRATCH_END: usize = ARENA_SKILL_SCORES + SKILL_LINES_MAX * 4;

// The tablebase probes (syzygy-probe.ts): a move list per level of their recursion, and each
// root move's DTZ.
export const ARENA_TB_LISTS: usize = (SCRATCH_END + 63) & ~63; // u16 x TB_LIST_MOVES per level
export const ARENA_TB_ROOT_MOVES: usize = ARENA_TB_LISTS + TB_LEVELS * TB_LIST_MOVES * 2; // u16 x ROOT_MAX
export const ARENA_TB_ROOT_DTZ: usize = ARENA_TB_ROOT_MOVES + ROOT_MAX * 2; // i32 x ROOT_MAX
const TB_END: usize = ARENA_TB_ROOT_DTZ + ROOT_MAX * 4;

/** Bytes of one arena. */
export const ARENA_BYTES: usize = (TB_END + 63) & ~63;

// ---------------------------------------------------------------- the block

/** The arena: static memory, zero when the instance starts without being written, so an
 *  instance that never searches (the bindings' rules instance) never touches most of its
 *  pages. */
export const ARENA: usize = memory.data(<i32>ARENA_BYTES, 64);
