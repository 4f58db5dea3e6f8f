// Property tests (fast-check) over random legal positions reached by random games: FEN round
// trip, make/unmake, incremental key, SAN <-> UCI, perft = sum of divide, and evaluation
// symmetry under a colour flip. A failing case is shrunk to a short game and printed with
// fast-check's seed, so `fc.assert(..., { seed, path })` replays it.
import { describe, it, expect, beforeAll } from "vitest";
import fc from "fast-check";
import { Core, START_FEN } from "../../bindings/core.js";
import type { EngineExports } from "../../bindings/wasm.js";

// Starting points with castling, en passant, promotions and pins close at hand.
const STARTS = [
  START_FEN,
  "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
  "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
  "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
  "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
  "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
  // b5xc6 en passant would expose the king on a5 to the rook on h5.
  "8/8/3p4/KPp4r/1R3p1k/8/4P1P1/8 w - c6 0 2",
];

/** A random game: a starting FEN and the choice of move at each ply (index modulo the
 *  number of legal moves). It shrinks towards fewer and earlier-listed moves. */
const randomGame = fc.record({
  start: fc.constantFrom(...STARTS),
  choices: fc.array(fc.nat({ max: 255 }), { maxLength: 100, size: "max" }),
});
type Game = { start: string; choices: number[] };

/** Plays the game on core; stops early at mate or stalemate. Calls visit at each position. */
function reach(core: Core, game: Game, visit?: () => void): void {
  core.setPosition(game.start);
  visit?.();
  for (const c of game.choices) {
    const moves = core.legalMoves();
    if (moves.length === 0) break;
    core.playMove(moves[c % moves.length]);
    visit?.();
  }
}

/** The same position with colours swapped and the board turned over (ranks reversed). */
function mirrorFen(fen: string): string {
  const [board, side, castling, ep, half, full] = fen.split(" ");
  const swapCase = (s: string) => s.replace(/[a-zA-Z]/g, (c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()));
  const rights = castling === "-" ? "-" : ["K", "Q", "k", "q"].filter((r) => swapCase(castling).includes(r)).join("");
  const epSquare = ep === "-" ? "-" : ep[0] + (ep[1] === "3" ? "6" : "3");
  return [board.split("/").reverse().map(swapCase).join("/"), side === "w" ? "b" : "w", rights, epSquare, half, full].join(" ");
}

/** Runs per property (PROPERTY_RUNS overrides it for a longer local hunt). */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);

describe("properties over random games", () => {
  let core: Core;
  let other: Core;
  let w: EngineExports;
  beforeAll(async () => {
    core = await Core.create();
    other = await Core.create();
    w = core.exports;
  });

  it("FEN -> position -> FEN is the identity, with the same key, in a fresh instance", () => {
    fc.assert(
      fc.property(randomGame, (game) => {
        reach(core, game);
        const fen = core.fen();
        other.setPosition(fen);
        expect(other.fen()).toBe(fen);
        expect(other.key()).toBe(core.key());
      }),
      { numRuns: RUNS },
    );
  });

  it("make then unmake of every legal move restores the position and its key", () => {
    fc.assert(
      fc.property(randomGame, (game) => {
        reach(core, game);
        const fen = w.getFen();
        const key = w.positionKey();
        for (const m of core.legalMoves()) {
          expect(w.playUciMove(m), m).toBe(true);
          expect(w.validatePosition(), `${fen} after ${m}`).toBe("");
          expect(w.undoLastMove()).toBe(true);
          expect(w.getFen(), `${fen} after ${m} and back`).toBe(fen);
          expect(w.positionKey(), `${fen} after ${m} and back`).toBe(key);
        }
        expect(w.validatePosition()).toBe("");
      }),
      { numRuns: RUNS },
    );
  });

  it("the incremental key equals the key recomputed from scratch at every ply", () => {
    fc.assert(
      fc.property(randomGame, (game) => {
        reach(core, game, () => {
          // validatePosition recomputes the key from the board; a second instance reads the
          // FEN afresh.
          expect(w.validatePosition(), core.fen()).toBe("");
          other.setPosition(core.fen());
          expect(other.key(), core.fen()).toBe(core.key());
        });
      }),
      { numRuns: RUNS },
    );
  });

  it("SAN <-> UCI: every legal move has one SAN, which reads back to it, with the right check mark", () => {
    fc.assert(
      fc.property(randomGame, (game) => {
        reach(core, game);
        const fen = core.fen();
        const moves = core.legalMoves();
        const sans = moves.map((m) => core.toSan(m));
        expect(new Set(sans).size, fen).toBe(moves.length);
        moves.forEach((m, i) => {
          expect(core.fromSan(sans[i]), `${sans[i]} in ${fen}`).toBe(m);
          other.setPosition(fen, [m]);
          const mark = other.inCheck() ? (other.legalMoves().length === 0 ? "#" : "+") : "";
          expect(sans[i].replace(/^[^+#]*/, ""), `${sans[i]} in ${fen}`).toBe(mark);
        });
      }),
      { numRuns: RUNS },
    );
  });

  it("perft(n) is the sum of divide(n), and each divide entry is perft(n - 1) after its move", () => {
    fc.assert(
      fc.property(randomGame, fc.integer({ min: 1, max: 3 }), (game, depth) => {
        // Along the game, the counting path (perft 1) agrees with the generated move list.
        reach(core, game, () => expect(core.perft(1), core.fen()).toBe(BigInt(core.legalMoves().length)));
        const fen = core.fen();
        const entries = core.divide(depth);
        expect(entries.map((e) => e.move).sort(), fen).toEqual(core.legalMoves().sort());
        expect(entries.reduce((s, e) => s + e.nodes, 0n), fen).toBe(core.perft(depth));
        for (const e of entries) {
          other.setPosition(fen, [e.move]);
          expect(depth === 1 ? 1n : other.perft(depth - 1), `${e.move} in ${fen}`).toBe(e.nodes);
        }
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });

  it("the colour-flipped position evaluates the same for the side to move, and has the same perft", () => {
    fc.assert(
      fc.property(randomGame, (game) => {
        reach(core, game);
        const fen = core.fen();
        const mirrored = mirrorFen(fen);
        other.setPosition(mirrored);
        expect(other.fen()).toBe(mirrored);
        expect(other.evaluate().score, `${fen} against ${mirrored}`).toBe(core.evaluate().score);
        expect(other.perft(2), `${fen} against ${mirrored}`).toBe(core.perft(2));
      }),
      { numRuns: RUNS },
    );
  });
});

describe("mirrorFen", () => {
  it("swaps colours, ranks, castling rights and the en-passant rank", () => {
    expect(mirrorFen("r3k2r/8/8/3pP3/8/8/8/R3K2R w Kq d6 0 1")).toBe("r3k2r/8/8/8/3Pp3/8/8/R3K2R b Qk d3 0 1");
    expect(mirrorFen(mirrorFen(STARTS[1]))).toBe(STARTS[1]);
  });
});
