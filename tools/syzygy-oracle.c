/*
 * syzygy-oracle: answers Syzygy probes with Fathom, as a reference for our own prober.
 *
 * Usage: syzygy-oracle PATH < fens > jsonl
 *   PATH: the table directories, separated by ':' (Fathom's tb_init path).
 * Built by tools/syzygy-tables.sh into data/syzygy/bin/syzygy-oracle:
 *   gcc -O2 -I FATHOM/src tools/syzygy-oracle.c FATHOM/src/tbprobe.c
 *
 * Reads one FEN per line (no castling rights; clocks optional) and prints one JSON line:
 *   {"fen":F,"wdl":W,"dtz":D,"moves":[{"uci":U,"wdl":W,"dtz":D},...]}
 * or, for a position Fathom cannot probe, {"fen":F,"error":"..."}.
 *
 * wdl, from the side to move: -2 loss, -1 blessed loss (a loss saved by the 50-move rule),
 *   0 draw, 1 cursed win (a win spoiled by the 50-move rule), 2 win.
 *   The root "wdl" is tb_probe_wdl (which Fathom answers with the clock taken as 0; it takes
 *   the en passant square into account). A move's "wdl" is the root side's result after the
 *   move, from tb_probe_root's per-move results (dtz_to_wdl(rule50, dtz) in Fathom).
 * dtz, in plies, signed from the side to move as Stockfish and lichess do: > 0 the side to
 *   move wins, < 0 it loses, 0 draw. It is Fathom's probe_dtz (Stockfish's convention):
 *   - a win whose zeroing move (capture or pawn move) is next has dtz 1, a loss where every
 *     move zeroes (or a mated side) -1;
 *   - cursed wins and blessed losses have 100 added to the magnitude (|dtz| > 100);
 *   - the value may be one ply more than the true distance: the tables store some entries
 *     in whole moves (generated without -p, as the published tables are), which Fathom does
 *     not correct; a prober reading the same files gives the same numbers.
 *   The root "dtz" is tb_probe_root's DTZ, given the sign of its WDL.
 *   A move's "dtz" is tb_probe_root's per-move value: the root side's dtz if that move is
 *   played, counting the move itself: -(dtz of the position after it) moved one ply away
 *   from 0; a zeroing move gives +-1 (+-101 cursed/blessed) whatever follows, and a mating
 *   move 1 when the root is won.
 *   Because of that rounding the root "dtz" and the best move's "dtz" can disagree by one
 *   ply (seed 1: 12 of 1050 positions, e.g. a loss with root -1 whose king moves give -2);
 *   both are what Fathom returns, and "wdl" always equals the best move's.
 *   Only the root "dtz" and the moves depend on the halfmove clock of the FEN (cursed and
 *   blessed are judged with dtz + clock against 100); the tests use clock 0.
 * Moves are all legal moves, in UCI (promotion letter q r b n), sorted by their UCI string.
 * A checkmated or stalemated side to move gets "dtz":0, "moves":[] and "mate":"checkmate"
 * or "stalemate"; "wdl" is still tb_probe_wdl's (-2 for a mated side, 0 for stalemate).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include "tbprobe.h"

typedef struct {
  uint64_t white, black, kings, queens, rooks, bishops, knights, pawns;
  unsigned rule50, ep;
  bool turn; /* true: white to move */
  unsigned castling;
} Board;

/* Parses FEN into b; returns NULL or an error message. */
static const char *parse_fen(const char *fen, Board *b) {
  memset(b, 0, sizeof *b);
  int rank = 7, file = 0;
  const char *p = fen;
  for (; *p && *p != ' '; p++) {
    if (*p == '/') {
      if (file != 8) return "bad rank length";
      rank--, file = 0;
      continue;
    }
    if (isdigit((unsigned char)*p)) { file += *p - '0'; continue; }
    if (file > 7 || rank < 0) return "bad board";
    uint64_t bb = 1ULL << (rank * 8 + file++);
    if (isupper((unsigned char)*p)) b->white |= bb; else b->black |= bb;
    switch (tolower((unsigned char)*p)) {
      case 'k': b->kings |= bb; break;
      case 'q': b->queens |= bb; break;
      case 'r': b->rooks |= bb; break;
      case 'b': b->bishops |= bb; break;
      case 'n': b->knights |= bb; break;
      case 'p': b->pawns |= bb; break;
      default: return "bad piece letter";
    }
  }
  if (rank != 0 || file != 8) return "bad board";
  while (*p == ' ') p++;
  if (*p == 'w') b->turn = true;
  else if (*p == 'b') b->turn = false;
  else return "bad side to move";
  p++;
  while (*p == ' ') p++;
  for (; *p && *p != ' '; p++) {
    switch (*p) {
      case 'K': b->castling |= TB_CASTLING_K; break;
      case 'Q': b->castling |= TB_CASTLING_Q; break;
      case 'k': b->castling |= TB_CASTLING_k; break;
      case 'q': b->castling |= TB_CASTLING_q; break;
      case '-': break;
      default: return "bad castling field";
    }
  }
  while (*p == ' ') p++;
  if (*p && *p != '-') {
    if (p[0] < 'a' || p[0] > 'h' || p[1] < '1' || p[1] > '8') return "bad en passant square";
    b->ep = (p[1] - '1') * 8 + (p[0] - 'a');
    p += 2;
  } else if (*p) {
    p++;
  }
  while (*p == ' ') p++;
  if (*p) b->rule50 = (unsigned)atoi(p);
  return NULL;
}

/* TB_LOSS..TB_WIN (0..4) -> -2..2 */
static int wdl_of(unsigned tbwdl) { return (int)tbwdl - 2; }

static int signed_dtz(unsigned res) {
  int wdl = wdl_of(TB_GET_WDL(res)), dtz = (int)TB_GET_DTZ(res);
  return wdl > 0 ? dtz : wdl < 0 ? -dtz : 0;
}

/* Whether the king of the side not to move is attacked (an illegal position Fathom asserts on). */
static bool opponent_in_check(const Board *b) {
  uint64_t us = b->turn ? b->white : b->black, them = b->turn ? b->black : b->white;
  uint64_t occ = b->white | b->black;
  unsigned k = tb_lsb(b->kings & them);
  return (tb_king_attacks(k) & b->kings & us) || (tb_knight_attacks(k) & b->knights & us) ||
         (tb_rook_attacks(k, occ) & (b->rooks | b->queens) & us) ||
         (tb_bishop_attacks(k, occ) & (b->bishops | b->queens) & us) ||
         (tb_pawn_attacks(k, !b->turn) & b->pawns & us);
}

typedef struct { char uci[6]; int wdl, dtz; } MoveOut;

static int by_uci(const void *a, const void *b) {
  return strcmp(((const MoveOut *)a)->uci, ((const MoveOut *)b)->uci);
}

static void print_error(const char *fen, const char *msg) {
  printf("{\"fen\":\"%s\",\"error\":\"%s\"}\n", fen, msg);
}

static void answer(const char *fen) {
  Board b;
  const char *err = parse_fen(fen, &b);
  if (err) { print_error(fen, err); return; }
  if (b.castling) { print_error(fen, "castling rights"); return; }
  if (__builtin_popcountll(b.kings & b.white) != 1 || __builtin_popcountll(b.kings & b.black) != 1) {
    print_error(fen, "not one king a side");
    return;
  }
  if (opponent_in_check(&b)) { print_error(fen, "the side not to move is in check"); return; }
  if (__builtin_popcountll(b.white | b.black) < 3) { print_error(fen, "two bare kings: no table"); return; }
  if ((unsigned)__builtin_popcountll(b.white | b.black) > TB_LARGEST) {
    print_error(fen, "too many pieces for the tables found");
    return;
  }
  unsigned wdl = tb_probe_wdl(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops,
                              b.knights, b.pawns, 0, 0, b.ep, b.turn);
  if (wdl == TB_RESULT_FAILED) { print_error(fen, "tb_probe_wdl failed"); return; }
  static unsigned results[TB_MAX_MOVES];
  unsigned res = tb_probe_root(b.white, b.black, b.kings, b.queens, b.rooks, b.bishops,
                               b.knights, b.pawns, b.rule50, 0, b.ep, b.turn, results);
  if (res == TB_RESULT_FAILED) { print_error(fen, "tb_probe_root failed"); return; }
  if (res == TB_RESULT_CHECKMATE || res == TB_RESULT_STALEMATE) {
    printf("{\"fen\":\"%s\",\"wdl\":%d,\"dtz\":0,\"moves\":[],\"mate\":\"%s\"}\n", fen,
           wdl_of(wdl), res == TB_RESULT_CHECKMATE ? "checkmate" : "stalemate");
    return;
  }
  static MoveOut moves[TB_MAX_MOVES];
  int n = 0;
  static const char promo[] = " qrbn";
  for (unsigned *r = results; *r != TB_RESULT_FAILED; r++, n++) {
    unsigned from = TB_GET_FROM(*r), to = TB_GET_TO(*r), pr = TB_GET_PROMOTES(*r);
    MoveOut *m = &moves[n];
    m->uci[0] = 'a' + (from & 7), m->uci[1] = '1' + (from >> 3);
    m->uci[2] = 'a' + (to & 7), m->uci[3] = '1' + (to >> 3);
    m->uci[4] = pr ? promo[pr] : 0, m->uci[5] = 0;
    m->wdl = wdl_of(TB_GET_WDL(*r));
    m->dtz = signed_dtz(*r);
  }
  qsort(moves, n, sizeof *moves, by_uci);
  printf("{\"fen\":\"%s\",\"wdl\":%d,\"dtz\":%d,\"moves\":[", fen, wdl_of(wdl), signed_dtz(res));
  for (int i = 0; i < n; i++)
    printf("%s{\"uci\":\"%s\",\"wdl\":%d,\"dtz\":%d}", i ? "," : "", moves[i].uci, moves[i].wdl,
           moves[i].dtz);
  printf("]}\n");
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s TABLE_DIRS < fens (one FEN per line)\n", argv[0]);
    return 2;
  }
  if (!tb_init(argv[1]) || TB_LARGEST == 0) {
    fprintf(stderr, "no Syzygy tables found in %s\n", argv[1]);
    return 1;
  }
  fprintf(stderr, "syzygy-oracle: tables up to %u pieces\n", TB_LARGEST);
  setvbuf(stdout, NULL, _IOLBF, 0);
  char line[512];
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\r\n")] = 0;
    if (!line[0] || line[0] == '#') continue;
    answer(line);
  }
  tb_free();
  return 0;
}
