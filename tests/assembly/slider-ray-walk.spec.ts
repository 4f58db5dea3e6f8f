// The ray-walk baseline of bench:sliders against the reference, in any build: every square
// over random occupancies.

import { rayWalkRookAttacks, rayWalkBishopAttacks, initRayWalk } from "../../assembly/slider-ray-walk";
import { slowRookAttacks, slowBishopAttacks } from "../../assembly/rays";
import { rand64 } from "../../assembly/zobrist";

// Only the ray-walk build does this at start-up.
initRayWalk();

describe("ray-walk baseline", () => {
  it("equals the reference on every square over random occupancies", () => {
    let bad = 0;
    for (let sq = 0; sq < 64; sq++) {
      for (let i = 0; i < 300; i++) {
        let occ = rand64();
        if (i % 3 == 0) occ &= rand64();
        if (i % 3 == 1) occ &= rand64() & rand64();
        if (rayWalkRookAttacks(sq, occ) != slowRookAttacks(sq, occ)) bad++;
        if (rayWalkBishopAttacks(sq, occ) != slowBishopAttacks(sq, occ)) bad++;
      }
    }
    expect(bad).toBe(0);
  });
});
