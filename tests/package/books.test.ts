// Opening books: Polyglot keys against the specification's examples, a book made by Debian's
// polyglot read back entry by entry (keys, moves, castling, en passant), bad and truncated
// files, the weighted seeded choice, OwnBook in the Engine and over UCI; the evolutionary
// book's learning, scores (recent games weigh more), choice, file format and its errors, and
// learning through the Engine and after a UCI game.
import { describe, it, expect, beforeAll } from "vitest";
import { readFileSync, existsSync, mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Core } from "../../bindings/core.js";
import { Engine } from "../../bindings/engine.js";
import { Game } from "../../bindings/game.js";
import { parsePgn } from "../../bindings/pgn-read.js";
import { startCli } from "../helpers/cli.js";
import { polyglotKey, PolyglotBook } from "../../bindings/book-polyglot.js";
import { EvolutionaryBook, entryScore, HISTORY_GAMES } from "../../bindings/book-evolutionary.js";
import { readBook } from "../../bindings/book-file.js";
import { BookError, chooseBookMove, seededRandom } from "../../bindings/book.js";
import type { BookPosition } from "../../bindings/book.js";
import { describeWithOracle } from "../helpers/oracles.js";

const BOOK_FILE = fileURLToPath(new URL("../data/book-test.bin", import.meta.url));
const GAMES_FILE = fileURLToPath(new URL("../data/book-games.pgn", import.meta.url));
const POLYGLOT = "/usr/games/polyglot";
const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

let core: Core;
beforeAll(async () => {
  core = await Core.create({ build: "classical" });
});

function position(fen: string, moves: string[] = [], chess960 = false): BookPosition {
  core.setPosition(fen, moves, chess960);
  const here = core.fen();
  const legal = core.legalMoves();
  return {
    fen: here, chess960, legalMoves: legal,
    fenAfter: (uci) => {
      core.setPosition(here, [], chess960);
      return core.fenAfter(uci);
    },
  };
}

/** Every position of the games with the moves played from it: key -> UCI moves. */
async function playedMoves(pgn: string, plies: number): Promise<Map<bigint, Set<string>>> {
  const played = new Map<bigint, Set<string>>();
  for (const game of await parsePgn(pgn)) {
    expect(game.error).toBeUndefined();
    game.moves().slice(0, plies).forEach((m, ply) => {
      const key = polyglotKey(game.fenAt(ply));
      if (!played.has(key)) played.set(key, new Set());
      played.get(key)!.add(m.uci);
    });
  }
  return played;
}

/** Checks that every entry of a Polyglot book is a position of the games; returns how many
 *  positions of the games the book has. */
function checkAgainstGames(bytes: Uint8Array, played: Map<bigint, Set<string>>): number {
  const book = PolyglotBook.fromBytes(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let checked = 0;
  for (let i = 0; i < book.size; i++) {
    const key = view.getBigUint64(i * 16);
    expect(played.has(key), `entry ${i}: key ${key.toString(16)} is no position of the games`).toBe(true);
  }
  for (const key of played.keys()) if (book.entries(key).length > 0) checked++;
  return checked;
}

describe("Polyglot keys", () => {
  it("are the specification's for its example positions", () => {
    const cases: [string[], string][] = [
      [[], "463b96181691fc9c"],
      [["e2e4"], "823c9b50fd114196"],
      [["e2e4", "d7d5"], "0756b94461c50fb0"],
      [["e2e4", "d7d5", "e4e5"], "662fafb965db29d4"],
      [["e2e4", "d7d5", "e4e5", "f7f5"], "22a48b5a8e47ff78"],
      [["e2e4", "d7d5", "e4e5", "f7f5", "e1e2"], "652a607ca3f242c1"],
      [["e2e4", "d7d5", "e4e5", "f7f5", "e1e2", "e8f7"], "00fdd303c946bdd9"],
      [["a2a4", "b7b5", "h2h4", "b5b4", "c2c4"], "3c8123ea7b067637"],
      [["a2a4", "b7b5", "h2h4", "b5b4", "c2c4", "b4c3", "a1a3"], "5c3f9b829b279560"],
    ];
    for (const [moves, key] of cases) {
      core.setPosition(START, moves);
      expect(polyglotKey(core.fen()).toString(16).padStart(16, "0"), moves.join(" ")).toBe(key);
    }
  });

  it("count an en-passant file only when a pawn of the side to move can take", () => {
    // The same position written with and without the e3 square: no black pawn beside e4.
    expect(polyglotKey("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1")).toBe(polyglotKey("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1"));
    expect(polyglotKey("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1")).not.toBe(polyglotKey("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1"));
    // Shredder-FEN letters count as the castling rights they name.
    expect(polyglotKey("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1")).toBe(polyglotKey("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
  });
});

describe("a Polyglot book made by polyglot", () => {
  const bytes = new Uint8Array(readFileSync(BOOK_FILE));

  it("holds only positions and moves of the games it was made from, read with castling and en passant", async () => {
    const played = await playedMoves(readFileSync(GAMES_FILE, "utf8"), 16);
    const book = PolyglotBook.fromBytes(bytes);
    expect(book.size).toBe(107);
    let positions = 0;
    const seen = new Set<string>();
    for (const game of await parsePgn(readFileSync(GAMES_FILE, "utf8"))) {
      for (let ply = 0; ply < Math.min(16, game.length); ply++) {
        const p = position(game.startFen, game.moves().slice(0, ply).map((m) => m.uci));
        const moves = book.moves(p);
        if (moves.length === 0) continue;
        positions++;
        for (const m of moves) {
          expect(played.get(polyglotKey(p.fen))!.has(m.uci), `${m.uci} in ${p.fen}`).toBe(true);
          seen.add(m.uci);
        }
        expect(moves.reduce((s, m) => s + m.probability, 0)).toBeCloseTo(1, 9);
      }
    }
    expect(positions).toBeGreaterThan(80);
    // Castling both ways and the en-passant capture came back as the engine writes them.
    expect(seen).toContain("e1g1");
    expect(seen).toContain("e1c1");
    expect(seen).toContain("e5d6");
    expect(checkAgainstGames(bytes, played)).toBeGreaterThan(80);
  });

  it("weights the start position's moves as polyglot does (e4 75%, d4 19%, c4 6% in its dump)", () => {
    const moves = PolyglotBook.fromBytes(bytes).moves(position(START));
    expect(moves.map((m) => m.uci)).toEqual(["e2e4", "d2d4", "c2c4"]);
    expect(moves.map((m) => Math.round(m.probability * 100))).toEqual([75, 19, 6]);
  });

  it("bad files are refused with the defect named", () => {
    expect(() => PolyglotBook.fromBytes(new Uint8Array(0))).toThrow(/empty/);
    expect(() => PolyglotBook.fromBytes(bytes.subarray(0, bytes.length - 5))).toThrow(/not a whole number of 16-byte entries/);
    const unsorted = bytes.slice();
    unsorted.copyWithin(0, 16 * 50, 16 * 51); // a later key first
    expect(() => PolyglotBook.fromBytes(unsorted)).toThrow(/out of key order/);
    const noMove = bytes.slice();
    noMove[8] = 0;
    noMove[9] = 0; // a1a1
    expect(() => PolyglotBook.fromBytes(noMove)).toThrow(/no valid move/);
    expect(() => readBook(new TextEncoder().encode("this is no opening book!"))).toThrow(BookError);
  });

  it("plays by weight, the same choices for the same seed", () => {
    const moves = PolyglotBook.fromBytes(bytes).moves(position(START));
    const counts = new Map<string, number>();
    const random = seededRandom(42);
    const draws = 6000;
    for (let i = 0; i < draws; i++) {
      const m = chooseBookMove(moves, random)!.uci;
      counts.set(m, (counts.get(m) ?? 0) + 1);
    }
    for (const m of moves) {
      const expected = m.probability * draws;
      expect(Math.abs((counts.get(m.uci) ?? 0) - expected), m.uci).toBeLessThan(4 * Math.sqrt(expected) + 1);
    }
    const a = seededRandom(5);
    const b = seededRandom(5);
    const seq = (r: () => number) => Array.from({ length: 20 }, () => chooseBookMove(moves, r)!.uci).join(" ");
    expect(seq(a)).toBe(seq(b));
    expect(seq(seededRandom(5))).not.toBe(seq(seededRandom(6)));
  });
});

describeWithOracle("polyglot", existsSync(POLYGLOT), "a Polyglot book made by polyglot from random games", () => {
  it("agrees with polyglot on random games with promotions, castling and en passant", async () => {
    const dir = mkdtempSync(join(tmpdir(), "wasmchess-book-"));
    try {
      let seed = 7;
      const rnd = (n: number) => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed % n;
      };
      const texts: string[] = [];
      for (let g = 0; g < 40; g++) {
        const game = new Game();
        for (let ply = 0; ply < 160 && game.status() === "ongoing"; ply++) {
          const legal = game.legalMoves();
          // Prefer pawn moves and captures now and then, so that promotions come.
          const pawny = legal.filter((m) => /^[a-h]/.test(m.san));
          const pick = pawny.length && rnd(3) === 0 ? pawny[rnd(pawny.length)] : legal[rnd(legal.length)];
          game.play(pick.uci);
        }
        game.headers.set("Result", "1/2-1/2");
        texts.push(game.toPgn());
      }
      const pgn = texts.join("\n");
      writeFileSync(join(dir, "random.pgn"), pgn);
      execFileSync(POLYGLOT, ["make-book", "-pgn", join(dir, "random.pgn"), "-bin", join(dir, "random.bin"), "-max-ply", "160", "-min-game", "1"]);
      const bin = new Uint8Array(readFileSync(join(dir, "random.bin")));
      const played = await playedMoves(pgn, 160);
      const book = PolyglotBook.fromBytes(bin);
      expect(book.size).toBeGreaterThan(2000);
      // Every entry's key is a position of the games, and every move it gives was played there.
      checkAgainstGames(bin, played);
      let promotions = 0;
      for (const game of await parsePgn(pgn)) {
        for (let ply = 0; ply < game.length; ply += 3) {
          const p = position(game.startFen, game.moves().slice(0, ply).map((m) => m.uci));
          for (const m of book.moves(p)) {
            expect(played.get(polyglotKey(p.fen))!.has(m.uci), `${m.uci} in ${p.fen}`).toBe(true);
            if (m.uci.length === 5) promotions++;
          }
        }
      }
      expect(promotions).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("OwnBook", () => {
  const bytes = new Uint8Array(readFileSync(BOOK_FILE));

  it("Engine: book moves while the book knows the position, a search after; a bad file changes nothing", async () => {
    const engine = await Engine.create({ build: "classical", ownBook: true, bookSeed: 3 });
    try {
      expect(await engine.loadBook(bytes)).toEqual({ format: "polyglot", size: 107 });
      const first = await engine.search({ depth: 6 });
      expect(first.book).toBe(true);
      expect(["e2e4", "d2d4", "c2c4"]).toContain(first.bestmove);
      expect((await engine.bookMoves()).map((m) => m.uci)).toEqual(["e2e4", "d2d4", "c2c4"]);
      await engine.setPosition(START, ["h2h4"]);
      const searched = await engine.search({ depth: 3 });
      expect(searched.book).toBeUndefined();
      expect(searched.depth).toBe(3);
      // Infinite and restricted searches are never answered from the book.
      await engine.setPosition(START);
      expect((await engine.search({ depth: 2, searchmoves: ["g1f3"] })).bestmove).toBe("g1f3");
      // A truncated file is refused and the book in use stays.
      await expect(engine.loadBook(bytes.subarray(0, 100))).rejects.toThrow(/not a whole number of 16-byte entries/);
      expect((await engine.search({ depth: 6 })).book).toBe(true);
      await engine.setOwnBook(false);
      expect((await engine.search({ depth: 2 })).book).toBeUndefined();
    } finally {
      await engine.dispose();
    }
  });

  it("UCI (the CLI): OwnBook and Book File; a bad file is reported and the engine plays on", async () => {
    const dir = mkdtempSync(join(tmpdir(), "wasmchess-book-"));
    const { engine, out: lines } = startCli();
    try {
      writeFileSync(join(dir, "short.bin"), bytes.subarray(0, 40));
      await engine.init();
      expect(engine.optionNames).toEqual(expect.arrayContaining(["OwnBook", "Book File", "Book Learning"]));
      engine.send("setoption name OwnBook value true");
      engine.send(`setoption name Book File value ${BOOK_FILE}`);
      engine.send("position startpos moves e2e4 e7e5");
      let from = lines.length;
      engine.send("go depth 8");
      await engine.waitFor((l) => l.startsWith("bestmove"));
      expect(lines.slice(from)).toContain("info string Book File " + BOOK_FILE + " loaded: Polyglot book, 107 entries");
      expect(lines.slice(from)).toContain("info string book move g1f3");
      expect(lines.slice(from)).toContain("bestmove g1f3");
      from = lines.length;
      engine.send(`setoption name Book File value ${join(dir, "short.bin")}`);
      engine.send(`setoption name Book File value ${join(dir, "missing.bin")}`);
      engine.send("position startpos moves a2a3");
      engine.send("go depth 3");
      await engine.waitFor((l) => l.startsWith("bestmove"));
      const out = lines.slice(from);
      expect(out.some((l) => /^info string error: Book File .*short\.bin: not a Polyglot book, or truncated: 40 bytes/.test(l)), out.join("\n")).toBe(true);
      expect(out.some((l) => /^info string error: Book File .*missing\.bin: cannot read it: .*ENOENT/.test(l))).toBe(true);
      expect(out.some((l) => l.startsWith("bestmove ") && l !== "bestmove 0000")).toBe(true);
      // The book in use stays: the next position it knows is answered from it.
      from = lines.length;
      engine.send("position startpos moves d2d4 d7d5");
      engine.send("go depth 8");
      await engine.waitFor((l) => l.startsWith("bestmove"));
      expect(lines.slice(from)).toContain("bestmove c2c4");
    } finally {
      await engine.quit();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the evolutionary book", () => {
  const e4 = ["e2e4", "e7e5", "g1f3"];
  const d4 = ["d2d4", "d7d5", "c2c4"];

  async function fens(moves: string[]): Promise<string[]> {
    const game = await Game.create();
    for (const m of moves) game.play(m);
    return moves.map((_, i) => game.fenAt(i + 1));
  }

  it("counts each game in the positions after its first moves, newest result first", async () => {
    const book = EvolutionaryBook.create();
    expect(book.learn(await fens(e4), "1-0")).toBe(3);
    expect(book.learn(await fens(e4), "0-1")).toBe(3);
    expect(book.learn(await fens(["e2e4", "c7c5"]), "1/2-1/2")).toBe(2);
    const afterE4 = (await fens(["e2e4"]))[0];
    expect(book.entry(afterE4)).toEqual({ whiteWins: 1, draws: 1, blackWins: 1, history: [1, 0, 2] });
    expect(book.size).toBe(4);
    const line = await fens(e4);
    expect(() => book.learn(line, "*")).toThrow(/finished games/);
    // Only the first plies count.
    expect(book.learn(await fens([...e4, "b8c6", "f1b5"]), "1-0", 2)).toBe(2);
  });

  it("scores recent games above old ones and favours the most promising move", async () => {
    const book = EvolutionaryBook.create();
    // d4: 10 old wins for white, then 5 recent losses; e4: 5 old losses, then 5 recent wins.
    for (let i = 0; i < 10; i++) book.learn(await fens(d4), "1-0");
    for (let i = 0; i < 5; i++) book.learn(await fens(d4), "0-1");
    for (let i = 0; i < 5; i++) book.learn(await fens(e4), "0-1");
    for (let i = 0; i < 5; i++) book.learn(await fens(e4), "1-0");
    const moves = book.moves(position(START));
    expect(moves.map((m) => m.uci)).toEqual(["e2e4", "d2d4"]);
    const [best, other] = moves;
    expect(best).toMatchObject({ wins: 5, losses: 5, draws: 0, weight: 10 });
    expect(other).toMatchObject({ wins: 10, losses: 5, weight: 15 });
    // d4 has the better record overall but e4 the better recent one.
    expect(best.score!).toBeGreaterThan(other.score!);
    expect(best.probability).toBeGreaterThan(0.8);
    expect(best.probability + other.probability).toBeCloseTo(1, 9);
    // Black's view: after 1. e4, the replies are scored for black.
    const reply = book.moves(position(START, ["e2e4"]));
    expect(reply[0]).toMatchObject({ uci: "e7e5", wins: 5, losses: 5 });
    // A move with only recent wins beats one with the same games in the other order.
    const entry = (history: (0 | 1 | 2)[]) => ({ whiteWins: history.filter((c) => c === 2).length, draws: 0, blackWins: history.filter((c) => c === 0).length, history });
    expect(entryScore(entry([2, 2, 0, 0]), true)).toBeGreaterThan(entryScore(entry([0, 0, 2, 2]), true));
    expect(entryScore(entry([2]), true)).toBeLessThan(entryScore(entry([2, 2, 2, 2]), true));
    expect(entryScore(entry([]), true)).toBe(0.5);
  });

  it("is saved and read back the same; truncated and corrupt files are refused", async () => {
    const book = EvolutionaryBook.create();
    for (let i = 0; i < 25; i++) book.learn(await fens(i % 3 ? e4 : d4), ["1-0", "0-1", "1/2-1/2"][i % 3]);
    const bytes = book.toBytes();
    expect(bytes.length).toBe(16 + 32 * book.size);
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe("WCEB");
    const back = EvolutionaryBook.fromBytes(bytes);
    expect(back.toBytes()).toEqual(bytes);
    const afterE4 = (await fens(["e2e4"]))[0];
    expect(back.entry(afterE4)!.history.length).toBe(HISTORY_GAMES - 4);
    expect(readBook(bytes).format).toBe("evolutionary");
    expect(() => EvolutionaryBook.fromBytes(bytes.subarray(0, bytes.length - 32))).toThrow(/truncated evolutionary book: its header says \d+ positions/);
    expect(() => EvolutionaryBook.fromBytes(bytes.subarray(0, 10))).toThrow(/truncated evolutionary book: 10 bytes/);
    const corrupt = bytes.slice();
    corrupt[40] ^= 1;
    expect(() => EvolutionaryBook.fromBytes(corrupt)).toThrow(/content hash mismatch/);
    const future = bytes.slice();
    future[4] = 9;
    expect(() => EvolutionaryBook.fromBytes(future)).toThrow(/version 9 is not supported/);
  });

  it("learns through the Engine from a Game, plays what it learnt, saves and loads", async () => {
    const engine = await Engine.create({ build: "classical", ownBook: true, bookSeed: 1 });
    try {
      await expect(engine.learn({ moves: e4, result: "1-0" })).rejects.toThrow(/needs an evolutionary book/);
      await engine.newEvolutionaryBook();
      const game = await Game.create();
      for (const m of ["e4", "e5", "Nf3", "Nc6", "Bb5"]) game.play(m);
      game.headers.set("Result", "1-0");
      expect(await engine.learn(game)).toBe(5);
      expect(await engine.learn({ moves: d4, result: "0-1" })).toBe(3);
      await expect(engine.learn({ moves: ["e2e5"], result: "1-0" })).rejects.toThrow(/illegal move/);
      await expect(engine.learn({ moves: e4, result: "*" })).rejects.toThrow(/finished games/);
      expect((await engine.bookMoves()).map((m) => m.uci)).toEqual(["e2e4", "d2d4"]);
      // 1. e4 won, 1. d4 lost: e4 is the much likelier choice.
      const picks = new Set<string>();
      for (let i = 0; i < 5; i++) picks.add((await engine.search({ depth: 4 })).bestmove);
      expect(picks).toEqual(new Set(["e2e4"]));
      const saved = await engine.saveBook();
      const other = await Engine.create({ build: "classical" });
      try {
        expect(await other.loadBook(saved)).toEqual({ format: "evolutionary", size: 8 });
        expect((await other.bookMoves()).map((m) => m.uci)).toEqual(["e2e4", "d2d4"]);
      } finally {
        await other.dispose();
      }
    } finally {
      await engine.dispose();
    }
  });

  it("UCI: with Book Learning, a game the engine wins by mate is learnt at ucinewgame and written to Book File", async () => {
    const dir = mkdtempSync(join(tmpdir(), "wasmchess-book-"));
    const file = join(dir, "learnt.book");
    const written = new Map<string, Uint8Array>();
    const { UciSession } = await import("../../bindings/uci.js");
    const engine = await Engine.create({ build: "classical" });
    const lines: string[] = [];
    const session = new UciSession(engine, (l) => lines.push(l), {
      readFile: (p) => {
        if (written.has(p)) return written.get(p)!;
        return readFileSync(p);
      },
      writeFile: (p, b) => written.set(p, b),
    });
    const settle = async () => {
      session.handle("isready");
      while (!lines.includes("readyok")) await new Promise((r) => setTimeout(r, 5));
      lines.splice(lines.indexOf("readyok"), 1);
    };
    try {
      session.handle("setoption name Book Learning value true");
      session.handle(`setoption name Book File value ${file}`);
      await settle();
      expect(lines.some((l) => l.includes("does not exist yet: a new evolutionary book"))).toBe(true);
      // Scholar's mate: the engine, white, finds Qxf7#.
      session.handle("ucinewgame");
      session.handle("position startpos moves e2e4 e7e5 f1c4 b8c6 d1h5 g8f6");
      session.handle("go depth 3");
      while (!lines.some((l) => l.startsWith("bestmove"))) await new Promise((r) => setTimeout(r, 5));
      expect(lines).toContain("bestmove h5f7");
      session.handle("ucinewgame");
      await settle();
      expect(lines).toContain(`info string book learnt the last game (1-0) in 7 positions, written to ${file}`);
      const learnt = EvolutionaryBook.fromBytes(written.get(file)!);
      expect(learnt.size).toBe(7);
      expect(learnt.entry((await fens(["e2e4"]))[0])).toEqual({ whiteWins: 1, draws: 0, blackWins: 0, history: [2] });
      // A game without a known result is not learnt.
      session.handle("position startpos moves d2d4");
      session.handle("go depth 1");
      while (lines.filter((l) => l.startsWith("bestmove")).length < 2) await new Promise((r) => setTimeout(r, 5));
      session.handle("ucinewgame");
      await settle();
      expect(lines.some((l) => l.includes("result is unknown"))).toBe(true);
      expect(EvolutionaryBook.fromBytes(written.get(file)!).size).toBe(7);
    } finally {
      await session.quit();
      await engine.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
