// Live oracle: perft and divide against native Stockfish's `go perft`. Divide on positions
// from random playouts, move by move, for every slider backend's wasm build; in Chess960 mode
// (UCI_Chess960 true), perft of all 960 start positions at depth 4 and a sample at depth 6
// (through match/perft.ts, as bench/chess960.ts runs it deeper), and divide on random playouts
// from Chess960 starts, castling written as king-takes-rook.
// .ci/run installs the Debian stockfish package; without it this suite fails (see
// tests/helpers/oracles.ts).
import { it, expect, beforeAll, afterAll } from "vitest";
import { Core } from "../../bindings/core.js";
import { chess960StartFen } from "../../bindings/chess960.js";
import { comparePerft } from "../../match/perft.js";
import { SLIDER_BACKENDS } from "../../match/slider-backends.js";
import { UciProcess, findExecutable } from "../../match/uci-process.js";
import { describeWithOracle } from "../helpers/oracles.js";

const stockfish = findExecutable("stockfish");

/** Random games, each left on core when yielded (with its FEN): game i starts at
 *  start(i, rnd) and plays plies(rnd) random legal moves (fewer when the game ends), all drawn
 *  from one seeded generator. */
function* randomPlayouts(core: Core, seed: number, count: number, start: (i: number, rnd: (n: number) => number) => string, plies: (rnd: (n: number) => number) => number): Generator<string> {
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  for (let i = 0; i < count; i++) {
    core.setPosition(start(i, rnd));
    for (let p = plies(rnd); p > 0; p--) {
      const moves = core.legalMoves();
      if (moves.length === 0) break;
      core.playMove(moves[rnd(moves.length)]);
    }
    yield core.fen();
  }
}

/** Our divide of core's position at depth and Stockfish's of fen, move by move. */
async function expectSameDivide(core: Core, sf: UciProcess, fen: string, depth: number): Promise<void> {
  const ours = new Map(core.divide(depth).map((e) => [e.move, e.nodes]));
  expect(ours, fen).toEqual(await sf.divide(`fen ${fen}`, depth));
}

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
    const starts = [
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ];
    let compared = 0;
    for (const fen of randomPlayouts(core, 12345, 60, (i) => starts[i % starts.length], (rnd) => 5 + rnd(40))) {
      await expectSameDivide(core, sf, fen, 3);
      compared++;
    }
    expect(compared).toBe(60);
  });
});

describeWithOracle("stockfish", stockfish !== undefined, "Chess960 perft against native Stockfish (UCI_Chess960 true)", () => {
  let sf: UciProcess;
  let core: Core;
  beforeAll(async () => {
    sf = new UciProcess(stockfish!);
    await sf.init();
    sf.setOption("UCI_Chess960", "true");
    core = await Core.create();
    core.setChess960(true);
  });
  afterAll(async () => sf?.quit());

  it("agrees on all 960 start positions at depth 4", async () => {
    const differing: string[] = [];
    for (let n = 0; n < 960; n++) {
      const r = await comparePerft(core, sf, chess960StartFen(n), 4, "Stockfish");
      if (r.ours !== r.theirs) differing.push(`#${n} ${r.fen}: ours ${r.ours}, Stockfish ${r.theirs}; ${r.difference}`);
    }
    expect(differing).toEqual([]);
  });

  it("agrees on a sample at depth 6", async () => {
    for (const n of [0, 359, 959]) {
      const r = await comparePerft(core, sf, chess960StartFen(n), 6, "Stockfish");
      expect(r.ours, `#${n} ${r.fen}: ${r.difference}`).toBe(r.theirs);
    }
  });

  it("agrees move by move, castling written as king-takes-rook, on random playouts", async () => {
    // Few pawns moved and pieces developed early: castling comes into reach.
    let castlingPositions = 0;
    for (const fen of randomPlayouts(core, 960, 60, (_, rnd) => chess960StartFen(rnd(960)), (rnd) => 6 + rnd(30))) {
      await expectSameDivide(core, sf, fen, 3);
      if (core.legalMovesWithSan().some((m) => m.san.startsWith("O-O"))) castlingPositions++;
    }
    expect(castlingPositions).toBeGreaterThan(5);
  });
});
