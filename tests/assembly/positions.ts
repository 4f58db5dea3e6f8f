// Positions the specs play random games from: the perft suite's positions (castling, en
// passant, promotions, checks) and Chess960 set-ups.

import { START_FEN } from "../../assembly/fen";

/** The perft suite's positions and two more from real games. */
export const FENS: string[] = [
  START_FEN,
  "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
  "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
  "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
  "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
  "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
  "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
  "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1",
  "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
];

// Chess960: start positions (#0, #959, #518's neighbours, kings on b/g files with rooks in
// and off the corners) and set-ups where castling moves the king onto the rook's square, not
// at all, or past a rook that shields it; each side's rights in X-FEN or Shredder-FEN.
export const FENS_960: string[] = [
  "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
  "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1",
  "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w KQkq - 0 1",
  "qnnbrkbr/pppppppp/8/8/8/8/PPPPPPPP/QNNBRKBR w KQkq - 0 1",
  "rknbbnrq/pppppppp/8/8/8/8/PPPPPPPP/RKNBBNRQ w KQkq - 0 1",
  "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
  "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
  "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1",
  "1rk3r1/8/8/8/8/8/8/1RK3R1 b BGbg - 0 1",
  "4k3/8/8/8/8/8/8/qR1K4 w Q - 0 1",
  "2r1kr2/8/8/8/8/8/8/2R1KR2 w KQkq - 0 1",
  "rkr5/pppppppp/8/8/8/8/PPPPPPPP/RKR5 w KQkq - 0 1",
  "5rkr/8/8/8/8/8/8/5RKR w KQkq - 0 1",
];
