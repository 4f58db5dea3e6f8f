// Move ordering helpers (movepick.ts): dropping the quiet moves a node will prune keeps the
// picked moves, and the captures, promotions and checks after them in their order with their
// scores, along random playouts.

import { Move, MOVE_NONE } from "../../assembly/types";
import { doMove, undoMove, inCheck } from "../../assembly/position";
import { parseFen } from "../../assembly/fen";
import { moveList, moveAt } from "../../assembly/movegen";
import { scoreMainMoves, pickedScore, dropQuietMoves, isTactical } from "../../assembly/movepick";
import { Xorshift } from "./random";
import { FENS } from "./positions";

const random = new Xorshift(0x5eed1234);
const PLY = 3;
const moves = new StaticArray<u16>(256);
const scores = new StaticArray<i32>(256);

/** Whether m gives check, by making it. */
function checks(m: Move): bool {
  doMove(m);
  const c = inCheck();
  undoMove(m);
  return c;
}

// Moves kept and dropped, so that the test sees both happen.
let kept = 0;
let dropped = 0;

/** Drops quiet moves from a random index at every position of random playouts; returns the
 *  number of positions where the result differs from the reference. */
function mismatches(): i32 {
  let failures = 0;
  for (let f = 0; f < FENS.length; f++) {
    parseFen(FENS[f]);
    for (let step = 0; step < 40; step++) {
      const list = moveList(PLY);
      const n = scoreMainMoves(PLY, MOVE_NONE, MOVE_NONE, -1, -1);
      if (n == 0) break;
      for (let i = 0; i < n; i++) {
        moves[i] = moveAt(list, i);
        scores[i] = pickedScore(PLY, i);
      }
      const from = random.next(n + 1);
      const left = dropQuietMoves(PLY, from, n);
      let ok = true;
      for (let i = 0; i < from; i++) ok = ok && moveAt(list, i) == moves[i] && pickedScore(PLY, i) == scores[i];
      let j = from;
      for (let i = from; i < n; i++) {
        const m: Move = moves[i];
        if (!isTactical(m) && !checks(m)) {
          dropped++;
          continue;
        }
        ok = ok && j < left && moveAt(list, j) == m && pickedScore(PLY, j) == scores[i];
        j++;
        kept++;
      }
      if (!ok || j != left) failures++;
      doMove(moves[random.next(n)]);
    }
  }
  return failures;
}

describe("dropQuietMoves", () => {
  it("keeps the picked moves, and the captures, promotions and checks after them in order", () => {
    expect(mismatches()).toBe(0);
    expect(kept).toBeGreaterThan(500);
    expect(dropped).toBeGreaterThan(2000);
  });
});
