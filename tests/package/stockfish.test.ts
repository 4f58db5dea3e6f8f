// Live oracle: divide on random positions equals native Stockfish's `go perft`, move by move,
// for every slider backend's wasm build.
// .ci/run installs the Debian stockfish package; without it this suite fails (see tests/helpers/oracles.ts).
import { it, expect, beforeAll, afterAll } from "vitest";
import { Core } from "../../bindings/core.js";
import { UciProcess, findExecutable } from "../../match/uci-process.js";
import { SLIDER_BACKENDS } from "../../match/slider-backends.js";
import { describeWithOracle } from "../helpers/oracles.js";

const stockfish = findExecutable("stockfish");

for (const backend of SLIDER_BACKENDS) describeWithOracle("stockfish", stockfish !== undefined, `divide against native Stockfish, ${backend.name} sliders`, () => {
  let sf: UciProcess;
  let core: Core;
  beforeAll(async () => {
    sf = new UciProcess(stockfish!);
    await sf.init();
    core = await Core.create({ wasmUrl: backend.wasm });
  });
  afterAll(async () => sf?.quit());

  it("agrees on 60 positions from random playouts", async () => {
    let seed = 12345;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const starts = [
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ];
    let compared = 0;
    for (let i = 0; i < 60; i++) {
      core.setPosition(starts[i % starts.length]);
      const plies = 5 + rnd(40);
      for (let p = 0; p < plies; p++) {
        const moves = core.legalMoves();
        if (moves.length === 0) break;
        core.playMove(moves[rnd(moves.length)]);
      }
      const fen = core.fen();
      const ours = new Map(core.divide(3).map((e) => [e.move, e.nodes] as [string, number]));
      const theirs = await sf.divide(`fen ${fen}`, 3);
      expect(ours, fen).toEqual(theirs);
      compared++;
    }
    expect(compared).toBe(60);
  });
});
