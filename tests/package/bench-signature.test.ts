// The bench signature: `npm run bench` (42 positions, depth 13, fresh tables) must visit
// exactly BENCH_SIGNATURE nodes. Any change to the search, the evaluation or the move
// ordering changes it; the commit that makes such a change updates this constant and
// states the new number as `Bench: N` in its message.
import { describe, it, expect } from "vitest";
import { Core } from "../../bindings/core.js";

/** `Nodes searched` of `npm run bench` (the default depth, 13, over the 42 bench positions)
 *  for each build: the classical one (hand-crafted evaluation) and the network build with its
 *  embedded network (the default where SIMD runs). */
export const BENCH_SIGNATURE = { classical: 6_641_894, nnue: 5_399_316 };

describe("bench signature", () => {
  it.each(["classical", "nnue"] as const)("the default bench of the %s build visits exactly its signature", async (build) => {
    const core = await Core.create({ build });
    // The full default bench takes 5 to 6 s here; it is the number commits cite.
    expect(core.bench()).toEqual({ nodes: BENCH_SIGNATURE[build], positions: 42 });
  }, 60_000);

  it("does not depend on the Hash option, which it leaves as it was", async () => {
    const fresh = await Core.create();
    const small = await Core.create({ hashMb: 1 });
    // At depth 9 a 1 MB table changed the count (730007 against 729955) before the bench
    // had a table of its own.
    expect(small.bench(9).nodes).toBe(fresh.bench(9).nodes);
    expect(small.hashMb()).toBe(1);
  });
});
