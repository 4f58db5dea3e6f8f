// Writes match/data/perft.epd: each position with its perft counts as native Stockfish
// computes them, so no count in the suite is typed by hand; with --chess960, writes
// match/data/chess960-perft.epd the same way from Stockfish with UCI_Chess960 on.
// Run with `npx tsx tools/perft-suite.ts [--chess960]` (needs the Debian stockfish package).

import { writeFileSync } from "node:fs";
import { UciProcess, findExecutable } from "../match/uci-process.js";

// [FEN, deepest depth, what the position tests]
const POSITIONS: [string, number, string][] = [
  ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, "start position"],
  ["r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, "Kiwipete (CPW position 2)"],
  ["8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7, "CPW position 3: en passant and rank pins"],
  ["r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5, "CPW position 4: promotions, castling, checks"],
  ["r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", 5, "CPW position 4 mirrored"],
  ["rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5, "CPW position 5"],
  ["r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 5, "CPW position 6"],
  ["r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 5, "rooks capture rooks: castling rights lost"],
  ["r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1", 4, "castling rights lost when a rook is captured"],
  ["r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1", 4, "castling through and into check prevented"],
  ["8/8/8/KPp4r/8/8/8/7k w - c6 0 2", 6, "en passant would expose the king on the rank"],
  ["3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", 6, "double push that allows no legal en passant"],
  ["8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1", 6, "en passant pinned on a diagonal"],
  ["8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", 6, "en passant capture gives check"],
  ["5k2/8/8/8/8/8/8/4K2R w K - 0 1", 6, "short castling gives check"],
  ["3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", 6, "long castling gives check"],
  ["2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1", 6, "promotion out of check"],
  ["n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 5, "promotions with capture and under-promotions"],
  ["4k3/1P6/8/8/8/8/K7/8 w - - 0 1", 6, "promotion gives check"],
  ["8/P1k5/K7/8/8/8/8/8 w - - 0 1", 6, "under-promotion gives check"],
  ["8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1", 5, "discovered check"],
  ["4r2k/8/8/8/8/3n4/8/4K3 w - - 0 1", 6, "double check: only the king moves"],
  ["K1k5/8/P7/8/8/8/8/8 w - - 0 1", 6, "self stalemate"],
  ["8/k1P5/8/1K6/8/8/8/8 w - - 0 1", 7, "stalemate and checkmate"],
  ["8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1", 4, "stalemate and checkmate"],
  ["7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 1, "stalemate: no legal move"],
  ["R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", 1, "checkmate: no legal move"],
  ["R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1", 3, "many queens: 218 legal moves"],
  ["3Q4/1Q4Q1/4Q3/2Q4R/Q4Q2/3Q4/1Q4Rp/1K1BBNNk w - - 0 1", 3, "many queens"],
];

// Chess960: castling with the king and rooks anywhere on the back rank (X-FEN and
// Shredder-FEN fields); the first five from the Chess Programming Wiki's Chess960 perft list.
const CHESS960_POSITIONS: [string, number, string][] = [
  ["bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 5, "CPW Chess960 1"],
  ["2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", 5, "CPW Chess960 2"],
  ["b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9", 5, "CPW Chess960 3"],
  ["qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9", 5, "CPW Chess960 4"],
  ["1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9", 5, "CPW Chess960 5"],
  ["4k3/8/8/8/8/8/8/qR1K4 w Q - 0 1", 6, "long castling would uncover the queen behind the b1 rook"],
  ["4k3/8/8/8/8/8/8/rR1K4 w B - 0 1", 6, "the same with a rook (Shredder-FEN)"],
  ["4k3/8/8/8/8/8/8/6KR w K - 0 1", 6, "short castling: the king stays on g1"],
  ["4k3/8/8/8/8/8/8/5KR1 w K - 0 1", 6, "short castling: king and rook swap squares"],
  ["4k3/8/8/8/8/8/8/2RK4 w Q - 0 1", 6, "long castling: king and rook swap squares"],
  ["4k3/8/8/8/8/8/8/RK6 w Q - 0 1", 6, "long castling moves the king towards the h-file"],
  ["4k3/8/8/8/8/8/8/1KR5 w K - 0 1", 6, "short castling over five squares"],
  ["4k3/8/8/8/8/8/8/4KR1R w F - 0 1", 6, "castling with the inner rook (X-FEN file letter); the rook stays"],
  ["4k3/8/8/8/8/8/8/5K1R w K - 0 1", 6, "castling and the king's own step to g1 are both legal"],
  ["rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1", 5, "rooks capture castling rooks"],
  ["1rk3r1/8/8/8/8/8/8/1RK3R1 b BGbg - 0 1", 5, "castling rooks off the corners (Shredder-FEN)"],
  ["r3k1r1/8/8/8/8/8/8/R3K1R1 w KQkq - 0 1", 5, "the king may not land on the attacked rook square"],
  ["2r1kr2/8/8/8/8/8/8/2R1KR2 w KQkq - 0 1", 5, "castling into the file of an enemy rook"],
  ["rkr5/8/8/8/8/8/8/RKR5 w KQkq - 0 1", 5, "king between adjacent rooks"],
];

const chess960 = process.argv.includes("--chess960");
const path = findExecutable("stockfish");
if (!path) {
  console.error("stockfish not found; install the Debian package");
  process.exit(1);
}
const sf = new UciProcess(path);
const name = await sf.init();
if (chess960) sf.setOption("UCI_Chess960", "true");
const lines = [
  `# FEN ;D1 n ;D2 n ... ; what it tests. Counts from native ${name}${chess960 ? " with UCI_Chess960 true" : ""}, written by tools/perft-suite.ts${chess960 ? " --chess960" : ""}`,
];
for (const [fen, maxDepth, what] of chess960 ? CHESS960_POSITIONS : POSITIONS) {
  const counts: string[] = [];
  for (let d = 1; d <= maxDepth; d++) {
    const [nodes] = await sf.perft(`fen ${fen}`, d);
    counts.push(`;D${d} ${nodes}`);
  }
  lines.push(`${fen} ${counts.join(" ")} ; ${what}`);
  console.log(lines[lines.length - 1]);
}
await sf.quit();
writeFileSync(new URL(chess960 ? "../match/data/chess960-perft.epd" : "../match/data/perft.epd", import.meta.url), lines.join("\n") + "\n");
