// The specs' random numbers: a seeded xorshift generator, so that every run of a spec plays
// the same playouts and draws the same values; and random playouts that visit every legal move
// of every position on the way.

import { Move } from "../../assembly/types";
import { doMove } from "../../assembly/position";
import { parseFen } from "../../assembly/fen";
import { generateMoves, moveList, moveAt, GEN_ALL } from "../../assembly/movegen";

export class Xorshift {
  constructor(private state: u64) {}

  /** A whole number from 0 to n - 1. */
  next(n: i32): i32 {
    let s = this.state;
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    this.state = s;
    return <i32>(s % <u64>n);
  }
}

/** Plays `games` random playouts of up to `plies` plies from each of fens, and calls visit with
 *  every legal move of every position on the way (visit must leave the position as it found it). */
export function visitPlayoutMoves(fens: string[], games: i32, plies: i32, random: Xorshift, visit: (m: Move) => void): void {
  for (let f = 0; f < fens.length; f++) {
    for (let game = 0; game < games; game++) {
      parseFen(fens[f]);
      for (let ply = 0; ply < plies; ply++) {
        const list = moveList(0);
        const n = generateMoves(GEN_ALL, list);
        if (n == 0) break;
        for (let i = 0; i < n; i++) visit(moveAt(list, i));
        doMove(moveAt(list, random.next(n)));
      }
    }
  }
}
