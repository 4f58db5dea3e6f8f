// The NNUE evaluation (network build): the network file loader's checks, the accumulators
// made lazily and incrementally along random games (captures, castling, en passant,
// promotions, null moves, takebacks; standard chess and Chess960) against a refresh from the
// board, the pieces castling records for them, and SIMD against the scalar reference, on
// random networks, with and without king buckets.

import { Move, CASTLING, KING, ROOK, WHITE, BLACK, makePiece, moveFlag } from "../../../assembly/types";
import {
  doMove, undoMove, doNullMove, undoNullMove, inCheck, stateCount, setChess960,
  dirtyCountAt, dirtyPieceAt, dirtyFromAt, dirtyToAt,
} from "../../../assembly/position";
import { parseFen, START_FEN } from "../../../assembly/fen";
import { parseUciMove } from "../../../assembly/notation";
import { generateMoves, moveList, moveAt, GEN_ALL } from "../../../assembly/movegen";
import {
  loadNetwork, netFileBytes, fnv1a, hidden, netErrorText, outputSimd, outputScalar, outputSumSimd, outputSumScalar, HEADER_BYTES,
  ACTIVATION_CRELU, ACTIVATION_SCRELU, INPUTS, ACC_HALF, PSQT_LANES, PSQT_MAX, FLAG_PSQT, psqt, stride, kingBuckets,
} from "../../../assembly/nnue";
import { currentAccumulator, refresh, invalidateAccumulators } from "../../../assembly/accumulator";
import { evaluate } from "../../../assembly/eval";
import { Xorshift } from "../random";

const random = new Xorshift(0x9e3779b97f4a7c15);
function rnd(n: i32): i32 {
  return random.next(n);
}

/** A random network file: hidden size h, b output buckets, maybe a PSQT (random values up to
 *  the limit, so that the accumulators' PSQT lanes see the largest sums), kb king buckets. */
function randomNet(h: i32, b: i32, act: i32, withPsqt: bool = false, kb: i32 = 1): StaticArray<u8> {
  const len = netFileBytes(h, b, withPsqt, kb);
  const inputs = INPUTS * kb;
  const file = new StaticArray<u8>(len);
  const p = changetype<usize>(file);
  store<u32>(p, 0x4e4e4357);
  store<u32>(p, 1, 4);
  store<u32>(p, kb == 4 ? 3 : kb, 8); // the feature set
  store<u32>(p, h, 12);
  store<u32>(p, act, 16);
  store<u32>(p, b, 20);
  store<i32>(p, 255, 24);
  store<i32>(p, 64, 28);
  store<i32>(p, 400, 32);
  store<u32>(p, withPsqt ? FLAG_PSQT : 0, 40);
  let at = p + HEADER_BYTES;
  for (let i = 0; i < inputs * h + h; i++) {
    store<i16>(at, <i16>(rnd(129) - 64));
    at += 2;
  }
  for (let i = 0; i < b * 2 * h; i++) {
    store<i16>(at, <i16>(rnd(255) - 127));
    at += 2;
  }
  for (let i = 0; i < b; i++) {
    store<i32>(at, rnd(20001) - 10000);
    at += 4;
  }
  if (withPsqt) {
    for (let i = 0; i < inputs; i++) {
      store<i16>(at, <i16>(rnd(2 * PSQT_MAX + 1) - PSQT_MAX));
      at += 2;
    }
  }
  store<u32>(p, fnv1a(p + HEADER_BYTES, <usize>(len - HEADER_BYTES)), 36);
  return file;
}

function loadNet(file: StaticArray<u8>): bool {
  const ok = loadNetwork(changetype<usize>(file), file.length);
  if (ok) invalidateAccumulators();
  return ok;
}

const scratch = new StaticArray<i16>(2 * ACC_HALF);

/** Number of values (hidden and PSQT lanes) where the current accumulator differs from a
 *  scalar refresh. */
function accumulatorMismatches(): i32 {
  const acc = currentAccumulator();
  refresh(changetype<usize>(scratch), false);
  let bad = 0;
  for (let view = 0; view < 2; view++) {
    for (let i = 0; i < stride; i++) {
      if (load<i16>(acc + <usize>(view * ACC_HALF + i) * 2) != scratch[view * ACC_HALF + i]) bad++;
    }
  }
  return bad;
}

function outputsDiffer(): bool {
  const acc = currentAccumulator();
  const black = acc + <usize>ACC_HALF * 2;
  for (let bucket = 0; bucket < 4; bucket++) {
    if (outputSumSimd(acc, black, bucket) != outputSumScalar(acc, black, bucket)) return true;
    if (outputSumSimd(black, acc, bucket) != outputSumScalar(black, acc, bucket)) return true;
    if (outputSimd(acc, black, bucket) != outputScalar(acc, black, bucket)) return true;
  }
  return false;
}

const FENS: string[] = [
  START_FEN,
  "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
  "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
  "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
  "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
  "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

// Chess960 start positions (#0, #959, #314, #822, #665) and set-ups where castling leaves the
// king or the rook where it stands or swaps them.
const FENS_960: string[] = [
  "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
  "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1",
  "nqrkbbrn/pppppppp/8/8/8/8/PPPPPPPP/NQRKBBRN w KQkq - 0 1",
  "rkbnqbrn/pppppppp/8/8/8/8/PPPPPPPP/RKBNQBRN w KQkq - 0 1",
  "rnkbbrnq/pppppppp/8/8/8/8/PPPPPPPP/RNKBBRNQ w KQkq - 0 1",
  "rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w KQkq - 0 1",
  "2rk1r2/pppppppp/8/8/8/8/PPPPPPPP/2RK1R2 w KQkq - 0 1",
];

let castlings = 0;

function randomGames(games: i32, plies: i32, fens: string[] = FENS): i32 {
  let checked = 0;
  let bad = 0;
  const played = new StaticArray<u16>(400);
  for (let g = 0; g < games; g++) {
    parseFen(fens[g % fens.length]);
    let n = 0;
    for (let ply = 0; ply < plies; ply++) {
      // Now and then evaluate, so that accumulators are made at irregular distances.
      if (rnd(3) == 0) {
        bad += accumulatorMismatches();
        if (outputsDiffer()) bad++;
        checked++;
      }
      if (!inCheck() && rnd(12) == 0) {
        doNullMove();
        bad += accumulatorMismatches();
        undoNullMove();
      }
      // Take back a few moves now and then.
      if (n > 4 && rnd(10) == 0) {
        const back = 1 + rnd(3);
        for (let k = 0; k < back; k++) undoMove(<Move>played[--n]);
        continue;
      }
      const list = moveList(0);
      const count = generateMoves(GEN_ALL, list);
      if (count == 0) break;
      const m = moveAt(list, rnd(count));
      if (moveFlag(m) == CASTLING) castlings++;
      played[n++] = m;
      doMove(m);
    }
  }
  expect(checked).toBeGreaterThan(100);
  return bad;
}

describe("network file", () => {
  it("loads a valid file and rejects defects, keeping the network in use", () => {
    const good = randomNet(32, 1, ACTIVATION_SCRELU);
    expect(loadNet(good)).toBe(true);
    expect(hidden).toBe(32);
    const bad = randomNet(48, 1, ACTIVATION_SCRELU);
    store<u8>(changetype<usize>(bad) + HEADER_BYTES + 100, load<u8>(changetype<usize>(bad) + HEADER_BYTES + 100) ^ 1);
    expect(loadNet(bad)).toBe(false);
    expect(netErrorText).toBe("content hash mismatch: the file is corrupt");
    expect(hidden).toBe(32);
    const short = randomNet(48, 1, ACTIVATION_SCRELU);
    expect(loadNetwork(changetype<usize>(short), short.length - 2)).toBe(false);
    expect(netErrorText.startsWith("file has")).toBe(true);
    const odd = randomNet(48, 1, ACTIVATION_SCRELU);
    store<u32>(changetype<usize>(odd), 40, 12);
    expect(loadNet(odd)).toBe(false);
    expect(netErrorText.startsWith("hidden size 40")).toBe(true);
    expect(loadNetwork(changetype<usize>(odd), 10)).toBe(false);
    expect(hidden).toBe(32);
  });

  it("reads a PSQT, and rejects unknown flags and piece-square values beyond the limit", () => {
    expect(loadNet(randomNet(32, 1, ACTIVATION_SCRELU, true))).toBe(true);
    expect(psqt).toBe(true);
    expect(stride).toBe(32 + PSQT_LANES);
    const flags = randomNet(48, 1, ACTIVATION_SCRELU, true);
    store<u32>(changetype<usize>(flags), 3, 40);
    expect(loadNet(flags)).toBe(false);
    expect(netErrorText).toBe("unknown flags 3");
    const big = randomNet(48, 1, ACTIVATION_SCRELU, true);
    const p = changetype<usize>(big);
    store<i16>(p + <usize>(big.length - 2), PSQT_MAX + 1);
    store<u32>(p, fnv1a(p + HEADER_BYTES, <usize>(big.length - HEADER_BYTES)), 36);
    expect(loadNet(big)).toBe(false);
    expect(netErrorText).toBe("piece-square value 1021 beyond +-1020");
    expect(hidden).toBe(32);
    expect(loadNet(randomNet(32, 1, ACTIVATION_SCRELU))).toBe(true);
    expect(psqt).toBe(false);
    expect(stride).toBe(32);
  });

  it("reads feature sets 2 and 3 (two and four king buckets) and rejects an unknown feature set", () => {
    expect(loadNet(randomNet(32, 1, ACTIVATION_SCRELU, true, 4))).toBe(true);
    expect(kingBuckets).toBe(4);
    expect(loadNet(randomNet(32, 1, ACTIVATION_SCRELU, true, 2))).toBe(true);
    expect(kingBuckets).toBe(2);
    const unknown = randomNet(32, 1, ACTIVATION_SCRELU);
    store<u32>(changetype<usize>(unknown), 4, 8);
    expect(loadNet(unknown)).toBe(false);
    expect(netErrorText).toBe("unknown feature set 4");
    expect(kingBuckets).toBe(2);
    // A file of feature set 1 is too short for the header of feature set 2.
    const short = randomNet(32, 1, ACTIVATION_SCRELU);
    store<u32>(changetype<usize>(short), 2, 8);
    expect(loadNet(short)).toBe(false);
    expect(netErrorText.startsWith("file has")).toBe(true);
    expect(loadNet(randomNet(32, 1, ACTIVATION_SCRELU))).toBe(true);
    expect(kingBuckets).toBe(1);
  });
});

/** With a random network of kb king buckets, every accumulator along random games, then
 *  along Chess960 games, equals a refresh from the board. */
function expectKingBucketGamesExact(kb: i32): void {
  loadNet(randomNet(64, 2, ACTIVATION_SCRELU, true, kb));
  expect(randomGames(24, 160)).toBe(0);
  setChess960(true);
  const bad = randomGames(42, 100, FENS_960);
  setChess960(false);
  expect(bad).toBe(0);
}

/** A king's move uci from fen into another bucket: the evaluation changes, undoing the move
 *  gives fen's back, and the position reached (fenAfter) evaluates from the board as the
 *  accumulators made by the move do. */
function expectKingMoveRefreshes(fen: string, uci: string, fenAfter: string): void {
  parseFen(fen);
  const before = evaluate();
  const m = parseUciMove(uci);
  doMove(m);
  const after = evaluate();
  expect(accumulatorMismatches()).toBe(0);
  undoMove(m);
  expect(evaluate()).toBe(before);
  expect(after).not.toBe(before);
  parseFen(fenAfter);
  expect(evaluate()).toBe(after);
}

describe("accumulators", () => {
  it("made incrementally equal a refresh from the board (SCReLU, one bucket)", () => {
    loadNet(randomNet(64, 1, ACTIVATION_SCRELU));
    expect(randomGames(24, 120)).toBe(0);
  });

  it("made incrementally equal a refresh from the board (CReLU, four buckets, wide)", () => {
    loadNet(randomNet(256, 4, ACTIVATION_CRELU));
    expect(randomGames(12, 100)).toBe(0);
  });

  it("made incrementally equal a refresh from the board (SCReLU, PSQT at its limits)", () => {
    loadNet(randomNet(64, 2, ACTIVATION_SCRELU, true));
    expect(randomGames(24, 120)).toBe(0);
  });

  it("made incrementally equal a refresh along Chess960 games (castling in every form)", () => {
    loadNet(randomNet(64, 1, ACTIVATION_SCRELU));
    setChess960(true);
    castlings = 0;
    // Castling early and often: the set-ups have empty paths between king and rooks.
    const bad = randomGames(42, 100, FENS_960);
    setChess960(false);
    expect(bad).toBe(0);
    expect(castlings).toBeGreaterThan(10);
  });

  it("made incrementally equal a refresh with two king buckets (kings crossing between the halves)", () => {
    expectKingBucketGamesExact(2);
  });

  it("made incrementally equal a refresh with four king buckets (kings crossing halves and ranks)", () => {
    expectKingBucketGamesExact(4);
  });

  it("with four king buckets, each perspective reads the block of its own king's half and ranks", () => {
    // Every block zero but the third (king on files e-h beyond its second rank): a perspective
    // whose king stands elsewhere sees only the biases, whatever the other pieces.
    const file = randomNet(32, 1, ACTIVATION_SCRELU, false, 4);
    const p = changetype<usize>(file);
    const block = <usize>INPUTS * 32 * 2;
    memory.fill(p + HEADER_BYTES, 0, 2 * block);
    memory.fill(p + HEADER_BYTES + 3 * block, 0, block);
    store<u32>(p, fnv1a(p + HEADER_BYTES, <usize>(file.length - HEADER_BYTES)), 36);
    expect(loadNet(file)).toBe(true);
    // Both kings within their first two ranks (white g1, black c8): the same evaluation with
    // other pieces elsewhere, and with either side to move.
    parseFen("2k5/pp6/8/3n4/8/8/5PPP/6K1 w - - 0 1");
    const home = evaluate();
    parseFen("2k5/1p6/2q5/8/8/8/PPP5/6K1 b - - 0 1");
    expect(evaluate()).toBe(home);
    // Black's king on f7 is on black's second rank, on f6 beyond it (and white's king on g3
    // beyond white's second): then that side's pieces count.
    parseFen("8/1p3k2/2q5/8/8/8/PPP5/6K1 b - - 0 1");
    expect(evaluate()).toBe(home);
    parseFen("8/1p6/2q2k2/8/8/8/PPP5/6K1 b - - 0 1");
    expect(evaluate()).not.toBe(home);
    parseFen("2k5/1p6/2q5/8/8/6K1/PPP5/8 w - - 0 1");
    expect(evaluate()).not.toBe(home);
    // Reached by moves: white's king g2 -> g3 crosses into the counted bucket.
    parseFen("2k5/1p6/2q5/8/8/8/PPP3K1/8 w - - 0 1");
    expect(evaluate()).toBe(home);
    expectKingMoveRefreshes("2k5/1p6/2q5/8/8/8/PPP3K1/8 w - - 0 1", "g2g3", "2k5/1p6/2q5/8/8/6K1/PPP5/8 b - - 1 1");
  });

  it("with two king buckets, each perspective reads the block of its own king's half", () => {
    // The second block (king on files a-d) all zero: a perspective whose king stands there
    // sees only the biases, whatever the other pieces.
    const file = randomNet(32, 1, ACTIVATION_SCRELU, true, 2);
    const p = changetype<usize>(file);
    memory.fill(p + HEADER_BYTES + <usize>INPUTS * 32 * 2, 0, <usize>INPUTS * 32 * 2);
    memory.fill(p + <usize>(file.length - INPUTS * 2), 0, <usize>INPUTS * 2);
    store<u32>(p, fnv1a(p + HEADER_BYTES, <usize>(file.length - HEADER_BYTES)), 36);
    expect(loadNet(file)).toBe(true);
    // Both kings on files a-d: the same evaluation with other pieces elsewhere.
    parseFen("2k5/pp6/8/3n4/8/8/5PPP/1K4R1 w - - 0 1");
    const a = evaluate();
    parseFen("2k5/1p6/2q5/8/8/8/PPP5/1K6 w - - 0 1");
    expect(evaluate()).toBe(a);
    // And reached by moves: the king crosses from e1 to the queen's side.
    expectKingMoveRefreshes("2k5/1p6/2q5/8/8/8/PPP5/4K3 w - - 0 1", "e1d1", "2k5/1p6/2q5/8/8/8/PPP5/3K4 b - - 1 1");
  });

  it("are not reused for another position after a new FEN", () => {
    loadNet(randomNet(32, 1, ACTIVATION_SCRELU));
    parseFen(START_FEN);
    const a = evaluate();
    parseFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB1R w KQkq - 0 1");
    expect(accumulatorMismatches()).toBe(0);
    parseFen(START_FEN);
    expect(evaluate()).toBe(a);
    expect(stateCount).toBe(0);
  });
});

/** The pieces the last move recorded, as "piece from to" triples. */
function lastDirty(): string {
  const s = stateCount;
  let out = "";
  for (let k = 0; k < dirtyCountAt(s); k++) {
    out += (k ? ", " : "") + dirtyPieceAt(s, k).toString() + " " + dirtyFromAt(s, k).toString() + " " + dirtyToAt(s, k).toString();
  }
  return out;
}

/** Plays the castling move `uci` in Chess960 mode from fen and returns its records. */
function castlingDirty(fen: string, uci: string): string {
  setChess960(true);
  parseFen(fen);
  const m = parseUciMove(uci);
  setChess960(false);
  expect(moveFlag(m)).toBe(CASTLING);
  doMove(m);
  return lastDirty();
}

describe("castling records", () => {
  it("name the king's and the rook's moves, also when one stays or they swap squares", () => {
    const K = makePiece(WHITE, KING).toString();
    const R = makePiece(WHITE, ROOK).toString();
    const k = makePiece(BLACK, KING).toString();
    const r = makePiece(BLACK, ROOK).toString();
    // Standard O-O: e1-g1, h1-f1.
    expect(castlingDirty("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1h1")).toBe(K + " 4 6, " + R + " 7 5");
    // The king stays on g1: g1-g1, h1-f1.
    expect(castlingDirty("4k3/8/8/8/8/8/8/6KR w K - 0 1", "g1h1")).toBe(K + " 6 6, " + R + " 7 5");
    // King and rook swap: f1-g1, g1-f1.
    expect(castlingDirty("4k3/8/8/8/8/8/8/5KR1 w K - 0 1", "f1g1")).toBe(K + " 5 6, " + R + " 6 5");
    // O-O-O onto the rook's square: d1-c1, c1-d1.
    expect(castlingDirty("4k3/8/8/8/8/8/8/2RK4 w Q - 0 1", "d1c1")).toBe(K + " 3 2, " + R + " 2 3");
    // Black O-O-O from b8 with the rook on a8: the king moves towards the h-file, b8-c8, a8-d8.
    expect(castlingDirty("rk6/8/8/8/8/8/8/4K3 b q - 0 1", "b8a8")).toBe(k + " 57 58, " + r + " 56 59");
    // The rook stays on f8: e8-g8, f8-f8.
    expect(castlingDirty("4kr2/8/8/8/8/8/8/4K3 b k - 0 1", "e8f8")).toBe(k + " 60 62, " + r + " 61 61");
  });
});

describe("evaluation", () => {
  it("is the network's output, colour-symmetric for the side to move", () => {
    loadNet(randomNet(64, 1, ACTIVATION_SCRELU));
    parseFen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    const w = evaluate();
    parseFen("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3");
    expect(evaluate()).toBe(w);
  });

  it("adds the PSQT from the side to move's view: material alone, with a network that is only a PSQT", () => {
    // Hidden weights, biases and output zero; the side's own pawn .. queen worth 100, 300,
    // 300, 500, 900 and the opponent's the same against.
    const file = randomNet(32, 1, ACTIVATION_SCRELU, true);
    const p = changetype<usize>(file);
    const ps = p + <usize>(file.length - INPUTS * 2);
    memory.fill(p + HEADER_BYTES, 0, ps - p - HEADER_BYTES);
    const values: i16[] = [100, 300, 300, 500, 900, 0];
    for (let f = 0; f < INPUTS; f++) store<i16>(ps + <usize>f * 2, f < 384 ? values[(f % 384) / 64] : -values[(f % 384) / 64]);
    store<u32>(p, fnv1a(p + HEADER_BYTES, <usize>(file.length - HEADER_BYTES)), 36);
    expect(loadNet(file)).toBe(true);
    parseFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1"); // White without a knight
    expect(evaluate()).toBe(-300);
    parseFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR b KQkq - 0 1");
    expect(evaluate()).toBe(300);
    parseFen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1"); // and Black without its queen
    expect(evaluate()).toBe(600);
  });
});
