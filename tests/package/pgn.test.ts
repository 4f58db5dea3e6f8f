// PGN reading and writing: tags, comments, NAGs, variations and results through a round trip,
// the export format, several games per file with bad games among them (each error names the
// game, the line and the move, and the other games are read), and the streaming reader on a
// multi-megabyte file and on awkward chunks.
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { mkdtempSync, writeFileSync, rmSync, createReadStream } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Game, parsePgn, readPgn, PgnError } from "../../build/index.js";
import type { MoveNode } from "../../build/index.js";

/** PGN export format: tags, a blank line, movetext lines of at most 79 characters, each
 *  filled as far as the next word allows. */
function expectExportFormat(text: string): void {
  const [tags, movetext] = text.split("\n\n");
  for (const t of tags.split("\n")) expect(t).toMatch(/^\[[A-Za-z0-9_]+ "([^"\\]|\\["\\])*"\]$/);
  const lines = movetext.trimEnd().split("\n");
  lines.forEach((line, i) => {
    expect(line.length).toBeLessThanOrEqual(79);
    if (i + 1 < lines.length) expect(line.length + 1 + lines[i + 1].split(" ")[0].length).toBeGreaterThan(79);
  });
  expect(text.endsWith("\n")).toBe(true);
}

/** Everything a game holds, as plain data, to compare games read in different ways. */
function shape(g: Game): { moves: unknown[]; [key: string]: unknown } {
  const line = (nodes: MoveNode[]): unknown[] =>
    nodes.map((n) => ({ san: n.san, uci: n.uci, nags: n.nags, comment: n.comment, startingComment: n.startingComment, variations: n.variations.map(line) }));
  return { headers: [...g.headers], startFen: g.startFen, comment: g.comment, moves: line(g.moves()), error: g.error?.message };
}

const RICH = `[Event "Rich \\"quoted\\" event"]
[Site "Somewhere"]
[Date "2024.05.01"]
[Round "3"]
[White "Alpha"]
[Black "Beta"]
[Result "1-0"]
[ECO "C60"]
[Annotator "Tester"]

{A game with
everything.} 1. e4 e5 2. Nf3 $1 Nc6!? (2... d6 {Philidor} 3. d4 (3. Bc4 Be7)
3... exd4) (2... Nf6 3. Nxe5) 3. Bb5 a6?? ; the Morphy defence is fine really
% an escape line that readers skip
4. Ba4 (4. Bxc6 {exchange} dxc6 5. O-O $14) 4... Nf6 5. O-O Be7 6. Re1 b5 7. Bb3
d6 8. c3 O-O 9. h3 {end} 1-0

[Event "From a position"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/6p1/R3K3 b Q - 0 40"]
[Result "0-1"]

40... Kd7 (40... g1=Q+ 41. Kd2) 41. O-O-O+ Kc7 0-1
`;

describe("PGN round trip", () => {
  let games: Game[];
  beforeAll(async () => {
    games = await parsePgn(RICH);
  });

  it("reads tags, comments, NAGs, variations and results", () => {
    expect(games.length).toBe(2);
    const [g, h] = games;
    expect(g.error).toBeUndefined();
    expect(g.headers.get("Event")).toBe('Rich "quoted" event');
    expect(g.headers.get("ECO")).toBe("C60");
    expect(g.result).toBe("1-0");
    expect(g.comment).toBe("A game with everything.");
    const moves = g.moves();
    expect(moves.map((m) => m.san).join(" ")).toBe("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3");
    expect(moves[2].nags).toEqual([1]);
    expect(moves[3].nags).toEqual([5]);
    expect(moves[5].nags).toEqual([4]);
    expect(moves[5].comment).toBe("the Morphy defence is fine really");
    expect(moves[3].variations.map((v) => v.map((m) => m.san).join(" "))).toEqual(["d6 d4 exd4", "Nf6 Nxe5"]);
    expect(moves[3].variations[0][0].comment).toBe("Philidor");
    expect(moves[3].variations[0][1].variations[0].map((m) => m.san)).toEqual(["Bc4", "Be7"]);
    expect(moves[6].variations[0].map((m) => [m.san, m.uci])).toEqual([["Bxc6", "b5c6"], ["dxc6", "d7c6"], ["O-O", "e1g1"]]);
    expect(moves[6].variations[0][2].nags).toEqual([14]);
    expect(moves[16].comment).toBe("end");
    expect(h.startFen).toBe("4k3/8/8/8/8/8/6p1/R3K3 b Q - 0 40");
    expect(h.moves().map((m) => m.san)).toEqual(["Kd7", "O-O-O+", "Kc7"]);
    expect(h.moves()[0].variations[0].map((m) => m.san)).toEqual(["g1=Q+", "Kd2"]);
    expect(h.result).toBe("0-1");
  });

  it("writes the export format", () => {
    expect(games[0].toPgn()).toBe(`[Event "Rich \\"quoted\\" event"]
[Site "Somewhere"]
[Date "2024.05.01"]
[Round "3"]
[White "Alpha"]
[Black "Beta"]
[Result "1-0"]
[ECO "C60"]
[Annotator "Tester"]

{A game with everything.} 1. e4 e5 2. Nf3 $1 Nc6 $5 (2... d6 {Philidor} 3. d4
(3. Bc4 Be7) 3... exd4) (2... Nf6 3. Nxe5) 3. Bb5 a6 $4 {the Morphy defence is
fine really} 4. Ba4 (4. Bxc6 {exchange} 4... dxc6 5. O-O $14) 4... Nf6 5. O-O
Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 {end} 1-0
`);
    expect(games[1].toPgn()).toBe(`[Event "From a position"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "0-1"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/6p1/R3K3 b Q - 0 40"]

40... Kd7 (40... g1=Q+ 41. Kd2) 41. O-O-O+ Kc7 0-1
`);
  });

  it("keeps everything through write and read, and writing again gives the same text", async () => {
    for (const g of games) {
      const text = g.toPgn();
      expectExportFormat(text);
      const [again] = await parsePgn(text);
      expect({ ...shape(again), headers: undefined }).toEqual({ ...shape(g), headers: undefined });
      // The tags read back are the game's, with the seven tag roster completed.
      const roster = { Event: "?", Site: "?", Date: "????.??.??", Round: "?", White: "?", Black: "?", Result: "*" };
      expect(Object.fromEntries(again.headers)).toEqual({ ...roster, ...Object.fromEntries(g.headers) });
      expect(again.toPgn()).toBe(text);
    }
  });

  it("writes games built move by move, from any position and side", async () => {
    const g = await Game.create("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 17");
    g.headers.set("White", "Me");
    g.headers.set("Result", "1/2-1/2");
    g.comment = "a {braced} note";
    g.play("O-O").nags.push(3);
    g.play("Ra8+").comment = "not check: the engine writes Rxa8";
    const text = g.toPgn();
    expect(text).toContain('[White "Me"]\n[Black "?"]\n[Result "1/2-1/2"]\n[SetUp "1"]\n[FEN "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 17"]');
    expect(text.endsWith("\n\n{a {braced) note} 17... O-O $3 18. Rxa8 {not check: the engine writes Rxa8}\n1/2-1/2\n")).toBe(true);
    expectExportFormat(text);
    const [back] = await parsePgn(text);
    expect(back.moves().map((m) => m.uci)).toEqual(["e8g8", "a1a8"]);
    expect(back.fen()).toBe(g.fen());
  });
});

describe("PGN files with bad games", () => {
  const FILE = [
    `[Event "one"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n`, // lines 1-4
    `\n[Event "two: illegal move"]\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5\nBe7 5. e4 Ke6 6. e5 *\n`, // lines 5-9
    `\n[Event "three: no result"]\n\n1. c4 e5\n`, // lines 10-13
    `[Event "four: unterminated comment"]\n\n1. e4 {never closed e5 2. Nf3\n\n`, // lines 14-17
    `[Event "five"]\n[Result "1/2-1/2"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n`, // lines 18-21
    `\n[Event "six: unterminated variation"]\n\n1. e4 (1. d4 d5 2. c4 e5 *\n`, // lines 22-25
    `\n[Event "seven: bad tag"]\n[White Kasparov]\n\n1. e4 *\n`, // lines 26-30
    `\n[Event "eight: NAG first"]\n\n$1 1. e4 *\n`, // lines 31-34
    `\n[Event "nine: null move"]\n\n1. e4 -- 2. d4 *\n`, // lines 35-38
    `\n[Event "ten: after mate"]\n\n1. f3 e5 2. g4 Qh4# 3. a3 0-1\n`, // lines 39-42
    `\n[Event "eleven"]\n\n1. e4 c5 *\n`, // lines 43-46
    `\n[Event "twelve: open variation"]\n\n1. e4 (1. d4\n`, // lines 47-50
  ].join("");

  it("reads every game; each bad one names its game, line, column and move", async () => {
    const games = await parsePgn(FILE);
    expect(games.map((g) => g.headers.get("Event"))).toEqual([
      "one", "two: illegal move", "three: no result", "four: unterminated comment", "five", "six: unterminated variation",
      "seven: bad tag", "eight: NAG first", "nine: null move", "ten: after mate", "eleven", "twelve: open variation",
    ]);
    const errors = games.map((g) => g.error?.message);
    expect(errors[0]).toBeUndefined();
    expect(errors[1]).toBe(
      'game 2, line 9, column 11, move 5... Ke6: "Ke6" is not a legal move (illegal or malformed) in rnbqk2r/ppp1bppp/4pn2/3p2B1/2PPP3/2N5/PP3PPP/R2QKBNR b KQkq - 0 5',
    );
    expect(errors[2]).toBeUndefined();
    expect(errors[3]).toBe("game 4, line 16, column 7: unterminated comment (no closing '}')");
    expect(errors[4]).toBeUndefined();
    expect(errors[5]).toBe("game 6, line 25, column 26: result * inside a variation");
    expect(errors[6]).toBe("game 7, line 28, column 1: tag White: the value must be a string in double quotes");
    expect(errors[7]).toBe("game 8, line 34, column 1: a NAG must follow a move");
    expect(errors[8]).toBe("game 9, line 38, column 7: null move '--' is not supported");
    expect(errors[9]).toMatch(/^game 10, line 42, column 24, move 3\. a3: "a3" is not a legal move \(the game is over\)/);
    expect(errors[10]).toBeUndefined();
    expect(errors[11]).toBe("game 12, line 50, column 7: unterminated variation (no closing ')')");
    for (const g of games) if (g.error) expect(g.error).toBeInstanceOf(PgnError);
    expect(games[1].error!.game).toBe(2);
    expect(games[1].error!.line).toBe(9);
    expect(games[1].error!.move).toBe("5... Ke6");
    // A bad game keeps what was read before its problem.
    expect(games[1].moves().map((m) => m.san).join(" ")).toBe("d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7 e4");
    expect(games[5].moves()[0].variations[0].map((m) => m.san)).toEqual(["d4", "d5", "c4", "e5"]);
    expect(games[9].moves().length).toBe(4);
    // The good games are whole.
    expect(games[0].status()).toBe("checkmate");
    expect(games[2].moves().map((m) => m.san)).toEqual(["c4", "e5"]);
    expect(games[2].result).toBe("*");
    expect(games[4].status()).toBe("threefold");
    expect(games[4].result).toBe("1/2-1/2");
    expect(games[10].moves().map((m) => m.san)).toEqual(["e4", "c5"]);
  });

  it("the streaming reader reports the same games and errors", async () => {
    const whole = (await parsePgn(FILE)).map(shape);
    const streamed: unknown[] = [];
    for await (const g of readPgn(chunked(FILE, 7))) streamed.push(shape(g));
    expect(streamed).toEqual(whole);
  });
});

/** The text in chunks of `size` characters. */
async function* chunked(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

/** A deterministic pseudo-random generator (a linear congruential one). */
function random(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return s % n;
  };
}

/** Games of random legal moves with comments (some with non-ASCII text), NAGs and variations. */
async function randomGames(count: number, seed: number): Promise<Game[]> {
  const rnd = random(seed);
  const games: Game[] = [];
  for (let i = 0; i < count; i++) {
    const g = await Game.create();
    g.headers.set("Event", `Random ${i}`);
    g.headers.set("White", `Wëiß ♞ ${i}`);
    const plies = 20 + rnd(100);
    for (let p = 0; p < plies && g.status() === "ongoing"; p++) {
      const legal = g.legalMoves();
      const alternative = legal[rnd(legal.length)];
      const node = g.play(legal[rnd(legal.length)].san);
      if (rnd(10) === 0) node.comment = `note ${p} — ünïcode ♛ {${rnd(1000)}}`.replace(/[{}]/g, "");
      if (rnd(12) === 0) node.nags.push(1 + rnd(20));
      if (rnd(15) === 0 && alternative.uci !== node.uci) node.variations.push([{ san: alternative.san, uci: alternative.uci, nags: [], variations: [] }]);
    }
    const status = g.status();
    g.headers.set("Result", status === "checkmate" ? (g.turn() === "w" ? "0-1" : "1-0") : status === "ongoing" ? "*" : "1/2-1/2");
    games.push(g);
  }
  return games;
}

describe("streaming reader", () => {
  let dir: string;
  let sources: Game[];
  let sourceTexts: string[];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "wasmchess-pgn-"));
    sources = await randomGames(60, 7);
    sourceTexts = sources.map((g) => g.toPgn());
    for (const text of sourceTexts) expectExportFormat(text);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads a multi-megabyte file one game at a time, with a bad game in the middle", async () => {
    const parts: string[] = [];
    let size = 0;
    let n = 0;
    const BAD_AT = 1500;
    for (; size < 3_000_000; n++) {
      const text = n === BAD_AT ? `[Event "bad"]\n\n1. e4 e5 2. Ke3 *\n` : sourceTexts[n % sourceTexts.length];
      parts.push(text, "\n");
      size += text.length + 1;
    }
    const file = join(dir, "big.pgn");
    writeFileSync(file, parts.join(""));
    let count = 0;
    let bad: Game | undefined;
    const badLine = parts.slice(0, 2 * BAD_AT).join("").split("\n").length;
    for await (const g of readPgn(createReadStream(file, { highWaterMark: 16 * 1024 }))) {
      if (count === BAD_AT) bad = g;
      else {
        const source = sources[count % sources.length];
        expect(g.error).toBeUndefined();
        expect(g.headers.get("White")).toBe(source.headers.get("White"));
        expect(g.moves().map((m) => m.uci)).toEqual(source.moves().map((m) => m.uci));
      }
      count++;
    }
    expect(count).toBe(n);
    expect(bad?.error?.message).toBe(`game ${BAD_AT + 1}, line ${badLine + 2}, column 13, move 2. Ke3: "Ke3" is not a legal move (illegal or malformed) in rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2`);
  });

  it("yields the first game before the source is read to its end", async () => {
    const text = sourceTexts.join("\n");
    let chunksRead = 0;
    async function* counting(): AsyncGenerator<string> {
      for (let i = 0; i < text.length; i += 1000) {
        chunksRead++;
        yield text.slice(i, i + 1000);
      }
    }
    for await (const g of readPgn(counting())) {
      expect(g.moves().map((m) => m.uci)).toEqual(sources[0].moves().map((m) => m.uci));
      break;
    }
    expect(chunksRead).toBeLessThanOrEqual(Math.ceil(sourceTexts[0].length / 1000) + 1);
    expect(chunksRead).toBeLessThan(text.length / 1000 / 10);
  });

  it("any chunking, CRLF line ends, a byte order mark and UTF-8 split inside a character", async () => {
    const text = "\uFEFF" + sourceTexts.join("\n").replace(/\n/g, "\r\n");
    const expected = sources.map((g) => g.moves().map((m) => m.san));
    const bytes = new TextEncoder().encode(text);
    // A web ReadableStream of byte chunks of 333 (cutting multi-byte characters).
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 333) controller.enqueue(bytes.subarray(i, i + 333));
        controller.close();
      },
    });
    const fromBytes: Game[] = [];
    for await (const g of readPgn(stream)) fromBytes.push(g);
    const fromChars: Game[] = [];
    for await (const g of readPgn(chunked(text, 1))) fromChars.push(g);
    for (const games of [fromBytes, fromChars]) {
      expect(games.map((g) => g.moves().map((m) => m.san))).toEqual(expected);
      expect(games.map((g) => g.headers.get("White"))).toEqual(sources.map((g) => g.headers.get("White")));
      expect(games.map((g) => shape(g).moves)).toEqual(sources.map((g) => shape(g).moves));
    }
  });
});
