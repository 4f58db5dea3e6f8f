// The bench signature: `npm run bench` (42 positions, depth 13, fresh tables) must visit
// exactly BENCH_SIGNATURE nodes. Any change to the search, the evaluation or the move
// ordering changes it; the commit that makes such a change updates this constant and
// states the new number as `Bench: N` in its message.
import { describe, it, expect } from "vitest";
import { Core } from "../bindings/core.js";

/** `Nodes searched` of `npm run bench` (the default depth, 13, over the 42 bench positions). */
export const BENCH_SIGNATURE = 4_899_124;

describe("bench signature", () => {
  it("the default bench visits exactly BENCH_SIGNATURE nodes", async () => {
    const core = await Core.create();
    // The full default bench takes about 5 s here; it is the number commits cite.
    expect(core.bench()).toEqual({ nodes: BENCH_SIGNATURE, positions: 42 });
  });

  it("does not depend on the Hash option, which it leaves as it was", async () => {
    const fresh = await Core.create();
    const small = await Core.create({ hashMb: 1 });
    // At depth 9 a 1 MB table changed the count (730007 against 729955) before the bench
    // had a table of its own.
    expect(small.bench(9).nodes).toBe(fresh.bench(9).nodes);
    expect(small.hashMb()).toBe(1);
  });
});
