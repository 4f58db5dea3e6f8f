// SAN reading in the core: a unique match gives the move, an ambiguous or unmatched text gives
// MOVE_NONE, and sanMatchCount tells the two apart.

import { parseFen } from "../../assembly/fen";
import { parseSan, sanMatchCount, moveToUci } from "../../assembly/notation";
import { MOVE_NONE } from "../../assembly/types";

const THREE_QUEENS = "k7/8/8/8/8/2Q1Q3/8/2Q1K3 w - - 0 1";

describe("parseSan", () => {
  it("an ambiguous text matches no move and counts its candidates", () => {
    parseFen(THREE_QUEENS);
    expect(parseSan("Qd2")).toBe(MOVE_NONE);
    expect(sanMatchCount).toBe(3);
    expect(parseSan("Qcd2")).toBe(MOVE_NONE);
    expect(sanMatchCount).toBe(2);
    expect(parseSan("Q3d2")).toBe(MOVE_NONE);
    expect(sanMatchCount).toBe(2);
  });
  it("disambiguation by file, rank or square finds the one move", () => {
    parseFen(THREE_QUEENS);
    expect(moveToUci(parseSan("Q1d2"))).toBe("c1d2");
    expect(sanMatchCount).toBe(1);
    expect(moveToUci(parseSan("Qc3d2"))).toBe("c3d2");
    expect(moveToUci(parseSan("Qed2"))).toBe("e3d2");
  });
  it("an illegal or malformed text matches nothing", () => {
    parseFen(THREE_QUEENS);
    expect(parseSan("Qd8")).toBe(MOVE_NONE);
    expect(sanMatchCount).toBe(0);
    expect(parseSan("x")).toBe(MOVE_NONE);
    expect(sanMatchCount).toBe(0);
  });
});
