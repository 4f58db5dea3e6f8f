// Transposition table: store/probe of every field, mate re-basing, replacement, aging,
// hashfull, resize and clear, and entries torn between two writers (threads) read as misses.

import {
  resizeTable, clearTable, probe, save, hashfull, newSearchGeneration, hashSizeMb,
  ttMove, ttScore, ttEval, ttDepth, ttBound, BOUND_EXACT, BOUND_LOWER, BOUND_UPPER,
} from "../../assembly/tt";
import { mateIn, matedIn } from "../../assembly/score";
import { tableBase, tableBuckets } from "../../assembly/shared";

/** The address of key's entry, found by scanning the table (the test's own bucket search). */
function entryOf(key: u64): usize {
  const end = tableBase() + <usize>tableBuckets() * 64;
  for (let e = tableBase(); e < end; e += 16) if ((load<u64>(e) ^ load<u64>(e, 8)) == key && load<u64>(e, 8) != 0) return e;
  return 0;
}

const K1: u64 = 0x123456789abcdef0;

describe("transposition table", () => {
  it("stores and probes every field", () => {
    resizeTable(1);
    save(K1, 0, 0x1234, -57, 33, 9, BOUND_LOWER);
    expect(probe(K1, 0)).toBe(true);
    expect(ttMove).toBe(0x1234);
    expect(ttScore).toBe(-57);
    expect(ttEval).toBe(33);
    expect(ttDepth).toBe(9);
    expect(ttBound).toBe(BOUND_LOWER);
    expect(probe(K1 ^ 1, 0)).toBe(false);
  });

  it("stores mate scores relative to the node and re-bases them on probe", () => {
    resizeTable(1);
    // Mate in 10 plies from the root, found at ply 4: 6 plies from the node.
    save(K1, 4, 0, mateIn(10), 0, 5, BOUND_EXACT);
    expect(probe(K1, 4)).toBe(true);
    expect(ttScore).toBe(mateIn(10));
    // The same position reached at ply 6 is mated 2 plies later as seen from the root.
    expect(probe(K1, 6)).toBe(true);
    expect(ttScore).toBe(mateIn(12));
    save(K1, 3, 0, matedIn(7), 0, 5, BOUND_EXACT);
    expect(probe(K1, 1)).toBe(true);
    expect(ttScore).toBe(matedIn(5));
  });

  it("replaces the shallowest or oldest entry of a full bucket", () => {
    resizeTable(1);
    // Keys that differ only in their upper half share a bucket.
    const base: u64 = 0x0000000055555555;
    for (let i = 1; i <= 4; i++) save(base | (<u64>i << 40), 0, 0, 0, 0, i * 2, BOUND_EXACT);
    save(base | (<u64>5 << 40), 0, 0, 0, 0, 20, BOUND_EXACT);
    expect(probe(base | (<u64>1 << 40), 0)).toBe(false); // depth 2: the victim
    for (let i = 2; i <= 5; i++) expect(probe(base | (<u64>i << 40), 0)).toBe(true);
    // After many new searches, a deep but old entry loses to a new shallow one.
    for (let g = 0; g < 10; g++) newSearchGeneration();
    save(base | (<u64>6 << 40), 0, 0, 0, 0, 1, BOUND_EXACT);
    save(base | (<u64>7 << 40), 0, 0, 0, 0, 1, BOUND_EXACT);
    save(base | (<u64>8 << 40), 0, 0, 0, 0, 1, BOUND_EXACT);
    save(base | (<u64>9 << 40), 0, 0, 0, 0, 1, BOUND_EXACT);
    expect(probe(base | (<u64>5 << 40), 0)).toBe(false);
  });

  it("keeps a deeper result of the same position against a shallow bound", () => {
    resizeTable(1);
    save(K1, 0, 0x0101, 50, 0, 12, BOUND_EXACT);
    save(K1, 0, 0, 10, 0, 2, BOUND_UPPER);
    expect(probe(K1, 0)).toBe(true);
    expect(ttDepth).toBe(12);
    expect(ttMove).toBe(0x0101);
  });

  it("reports hashfull in per mille and clears", () => {
    resizeTable(1);
    expect(hashfull()).toBe(0);
    let k: u64 = 0x9e3779b97f4a7c15;
    for (let i = 0; i < 100000; i++) {
      k = k * 6364136223846793005 + 1442695040888963407;
      save(k, 0, 0, 0, 0, 1, BOUND_EXACT);
    }
    expect(hashfull()).toBeGreaterThan(900);
    clearTable();
    expect(hashfull()).toBe(0);
  });

  it("reads an entry torn between two writers as a miss", () => {
    resizeTable(1);
    save(K1, 0, 0x0202, 40, 0, 6, BOUND_EXACT);
    const e = entryOf(K1);
    expect(e).not.toBe(0);
    // Another thread's write to the same slot, of which only the data word has landed: the
    // key word still belongs to the first entry.
    const otherData: u64 = 0x0200001600280303;
    store<u64>(e, otherData, 8);
    expect(probe(K1, 0)).toBe(false);
    // The other writer's key word lands: its entry is whole and found, the first one is gone.
    const otherKey: u64 = 0x0fedcba99abcdef0; // the same low half: the same bucket
    store<u64>(e, otherKey ^ otherData);
    expect(probe(otherKey, 0)).toBe(true);
    expect(ttMove).toBe(0x0303);
    expect(probe(K1, 0)).toBe(false);
  });

  it("resizes from 1 MB up and down", () => {
    expect(resizeTable(64)).toBe(true);
    expect(hashSizeMb()).toBe(64);
    save(K1, 0, 7, 1, 1, 1, BOUND_EXACT);
    expect(resizeTable(8)).toBe(true);
    expect(hashSizeMb()).toBe(8);
    expect(probe(K1, 0)).toBe(false);
    expect(resizeTable(0)).toBe(true);
    expect(hashSizeMb()).toBe(1);
  });
});
