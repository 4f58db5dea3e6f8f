// Hashed perft: the same counts as perft on the suite's positions (and Chess960 set-ups) with
// a table large enough to keep most subtrees and with the smallest one (constant replacement);
// the table is really used (a planted count changes the total), an entry is taken only when
// both keys and the depth match, and an entry torn between two writers reads as a miss.

import { parseFen, START_FEN } from "../../assembly/fen";
import { perft, divide, secondKey } from "../../assembly/perft";
import { probePerft, storePerft } from "../../assembly/perft-table";
import { resizeTable, clearTable } from "../../assembly/tt";
import { tableBase, tableBuckets } from "../../assembly/shared";
import { key, doMove, undoMove, setChess960 } from "../../assembly/position";
import { generateMoves, moveList, moveAt, GEN_ALL } from "../../assembly/movegen";
import { FENS, FENS_960 } from "./positions";

function setUp(fen: string, chess960: bool = false): void {
  setChess960(chess960);
  expect(parseFen(fen)).toBe(0);
}

/** Where the entry of (k, k2, depth) is, by scanning the table; 0 when it is not stored. */
function entryOf(k: u64, k2: u64, depth: i32): usize {
  const end = tableBase() + <usize>tableBuckets() * 64 - 24;
  for (let e = tableBase(); e <= end; e += 24) {
    const data = load<u64>(e, 16);
    if ((load<u64>(e) ^ data) == k && (load<u64>(e, 8) ^ data) == k2 && <i32>(data >> 58) == depth) return e;
  }
  return 0;
}

describe("hashed perft", () => {
  it("counts what perft counts, with a roomy table and with the smallest", () => {
    for (let mb = 16; mb >= 1; mb -= 15) {
      resizeTable(mb);
      for (let i = 0; i < FENS.length; i++) {
        setUp(FENS[i]);
        const depth = i == 0 ? 5 : 4;
        clearTable();
        expect(perft(depth, true)).toBe(perft(depth));
        // A second run finds the subtrees it stored.
        expect(perft(depth, true)).toBe(perft(depth));
      }
      for (let i = 0; i < FENS_960.length; i++) {
        setUp(FENS_960[i], true);
        expect(perft(4, true)).toBe(perft(4));
      }
    }
    setChess960(false);
  });

  it("divide through the table gives perft's counts", () => {
    resizeTable(4);
    setUp(FENS[1]);
    clearTable();
    expect(divide(4, true)).toBe(4085603);
  });

  it("takes the counts it stored: a planted count changes the total", () => {
    resizeTable(4);
    clearTable();
    setUp(START_FEN);
    const list = moveList(0);
    expect(generateMoves(GEN_ALL, list)).toBe(20);
    const m = moveAt(list, 0);
    doMove(m);
    const k = key;
    const k2 = secondKey();
    const below = perft(3);
    storePerft(k, k2, 3, below + 1000);
    undoMove(m);
    expect(perft(4, true)).toBe(perft(4) + 1000);
  });

  it("takes an entry only when both keys and the depth match", () => {
    resizeTable(1);
    clearTable();
    const k: u64 = 0x0123456789abcdef;
    const k2: u64 = 0xfedcba9876543210;
    storePerft(k, k2, 5, 4865609);
    expect(probePerft(k, k2, 5)).toBe(4865609);
    expect(probePerft(k, k2 ^ 1, 5)).toBe(-1);
    expect(probePerft(k ^ (<u64>1 << 63), k2, 5)).toBe(-1);
    expect(probePerft(k, k2, 4)).toBe(-1);
    // A subtree count of 0 (a mated side) is a hit, not a miss.
    storePerft(k, k2, 2, 0);
    expect(probePerft(k, k2, 2)).toBe(0);
    expect(probePerft(k, k2, 5)).toBe(4865609);
  });

  it("reads an entry torn between two writers as a miss", () => {
    resizeTable(1);
    clearTable();
    const k: u64 = 0x0f1e2d3c4b5a6978;
    const k2: u64 = 0x1122334455667788;
    storePerft(k, k2, 6, 119060324);
    const e = entryOf(k, k2, 6);
    expect(e).not.toBe(0);
    const w0 = load<u64>(e);
    const w1 = load<u64>(e, 8);
    // Another thread stores a count for the same position and depth; this one's first two
    // words are then overwritten with the other's half-way through: every mix is a miss.
    storePerft(k, k2, 6, 119060325);
    expect(probePerft(k, k2, 6)).toBe(119060325);
    store<u64>(e, w0);
    expect(probePerft(k, k2, 6)).toBe(-1);
    store<u64>(e, w1, 8);
    expect(probePerft(k, k2, 6)).toBe(-1);
  });

  it("the second key tells apart positions that differ only in side, rights or en passant", () => {
    setUp("4k3/8/8/3pP3/8/8/8/R3K2R w KQ d6 0 1");
    const withEp = secondKey();
    setUp("4k3/8/8/3pP3/8/8/8/R3K2R w KQ - 0 1");
    const noEp = secondKey();
    setUp("4k3/8/8/3pP3/8/8/8/R3K2R w K - 0 1");
    const oneRight = secondKey();
    setUp("4k3/8/8/3pP3/8/8/8/R3K2R b KQ - 0 1");
    const black = secondKey();
    expect(withEp).not.toBe(noEp);
    expect(oneRight).not.toBe(noEp);
    expect(black).not.toBe(noEp);
    setUp("4k3/8/8/3pP3/8/8/8/R3K2R w KQ - 5 40");
    expect(secondKey()).toBe(noEp); // the clocks are not part of a position
  });
});
