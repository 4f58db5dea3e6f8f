// The UCI CLI as a real process: the minimal protocol, `go perft`, `d`, and robustness.
import { describe, it, expect, beforeEach, afterEach } from "vitest";
import { fileURLToPath } from "node:url";
import { UciProcess } from "../../match/uci-process.js";

const CLI = fileURLToPath(new URL("../../build/cli.js", import.meta.url));

/** Collects every line the engine prints. */
function record(engine: UciProcess): string[] {
  const lines: string[] = [];
  engine.listeners.push((l) => lines.push(l));
  return lines;
}

describe("UCI CLI", () => {
  let engine: UciProcess;
  let out: string[];
  beforeEach(() => {
    engine = new UciProcess(process.execPath, [CLI]);
    out = record(engine);
  });
  afterEach(() => engine.kill());

  it("identifies itself", async () => {
    engine.send("uci");
    await engine.waitFor((l) => l === "uciok");
    expect(out.some((l) => l.startsWith("id name "))).toBe(true);
    expect(out.some((l) => l.startsWith("id author "))).toBe(true);
    await engine.isReady();
  });

  it("prints go perft like Stockfish", async () => {
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go perft 2");
    const last = await engine.waitFor((l) => l.startsWith("Nodes searched"));
    expect(last).toBe("Nodes searched: 835");
    const perMove = out.filter((l) => /^[a-h][1-8][a-h][1-8][nbrq]?: \d+$/.test(l));
    expect(perMove.length).toBe(29);
    expect(perMove.reduce((s, l) => s + Number(l.split(": ")[1]), 0)).toBe(835);
  });

  it("go perft is hashed with PerftHash set, with the same counts, and not with it at 0", async () => {
    engine.send("uci");
    await engine.waitFor((l) => l === "uciok");
    expect(out).toContain("option name PerftHash type spin default 0 min 0 max 2048");
    engine.send("setoption name PerftHash value 8");
    engine.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    const perMove = () => out.filter((l) => /^[a-h][1-8][a-h][1-8][nbrq]?: \d+$/.test(l));
    engine.send("go perft 4");
    expect(await engine.waitFor((l) => l.startsWith("Nodes searched"))).toBe("Nodes searched: 4085603");
    const hashed = perMove();
    expect(hashed.length).toBe(48);
    out.length = 0;
    engine.send("setoption name PerftHash value 0");
    engine.send("go perft 4");
    await engine.waitFor((l) => l === "Nodes searched: 4085603");
    expect(perMove()).toEqual(hashed);
  });

  it("d shows the board, FEN and key", async () => {
    engine.send("position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    engine.send("d");
    await engine.waitFor((l) => l.startsWith("Checkers:"));
    expect(out).toContain("Fen: 4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    expect(out.some((l) => /^Key: [0-9A-F]{16}$/.test(l))).toBe(true);
    expect(out).toContain(" |   |   |   |   | K |   |   | R | 1");
  });

  it("reports bad input and keeps going", async () => {
    engine.send("position startpos moves e2e4");
    engine.send("position fen 8/8/8/8/8/8/8/8 w - - 0 1");
    engine.send("xyzzy");
    engine.send("go perft banana");
    engine.send("x".repeat(10_000));
    engine.send("position startpos moves e2e4 e7e5 e1e3 d7d5");
    engine.send("   isready   \r");
    await engine.waitFor((l) => l === "readyok");
    const errors = out.filter((l) => l.startsWith("info string error: "));
    expect(errors.length).toBe(5);
    expect(errors[0]).toMatch(/invalid FEN: white has 0 kings/);
    expect(errors[1]).toMatch(/unknown command 'xyzzy'/);
    expect(errors[4]).toMatch(/illegal move 'e1e3'/);
    // An illegal move keeps the position reached before it.
    engine.send("d");
    await engine.waitFor((l) => l.startsWith("Fen:"));
    expect(out).toContain("Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
  });

  it("error lines stay printable whatever the input echoed in them", async () => {
    engine.send("go depth 1 searchmoves e2e4 \u0005d2d4 a1\u0011a8");
    await engine.waitFor((l) => l.startsWith("bestmove"));
    engine.send("x\u0007yzzy");
    await engine.isReady();
    const errors = out.filter((l) => l.startsWith("info string error: "));
    expect(errors).toEqual([
      "info string error: searchmoves: not legal here:  d2d4 a1 a8 (ignored)",
      "info string error: unknown command 'x yzzy'",
    ]);
  });

  it("skips unknown tokens before a command, as the UCI specification asks", async () => {
    engine.send("joho position startpos moves e2e4");
    engine.send("joho isready");
    await engine.waitFor((l) => l === "readyok");
    expect(out.filter((l) => l.startsWith("info string error: "))).toEqual([
      "info string error: unknown token 'joho' (ignored)",
      "info string error: unknown token 'joho' (ignored)",
    ]);
    engine.send("d");
    await engine.waitFor((l) => l.startsWith("Fen:"));
    expect(out).toContain("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  });

  it("a bad FEN leaves the previous position in place", async () => {
    // The previous position differs from every bad FEN, so accepting one would show in `d`.
    const previous = "Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    const bad: [string, RegExp][] = [
      ["4k3/8/8/8/8/8/8/4K2R w K - 0 1 trailing", /unexpected text after the FEN: 'trailing'/],
      ["4k2R/8/8/8/8/8/8/4K3 w - - 0 1", /the side not to move is in check/],
      ["4k3/8/8/8/8/8/8/4K2R w Q - 0 1", /castling rights 'Q' do not match/],
      ["4k3/8/8/8/8/8/8/4K2R3 w - - 0 1", /rank 1 describes 11 squares, not 8/],
      ["4k2P/8/8/8/8/8/8/4K3 w - - 0 1", /a pawn stands on the first or eighth rank/],
      ["4k3/8/8/8/8/8/8/4K3 x - - 0 1", /side to move must be 'w' or 'b'/],
    ];
    engine.send("position startpos moves e2e4 e7e5");
    for (const [fen, message] of bad) {
      out.length = 0;
      engine.send(`position fen ${fen}`);
      engine.send("d");
      await engine.waitFor((l) => l.startsWith("Fen:"));
      expect(out.filter((l) => l.startsWith("info string error: ")), fen).toEqual([expect.stringMatching(message)]);
      expect(out.filter((l) => l.startsWith("Fen:")), fen).toEqual([previous]);
    }
  });

  it("quit exits with status 0", async () => {
    const exited = new Promise<number | null>((resolve) => engine["child"].on("exit", (code: number | null) => resolve(code)));
    engine.send("quit");
    expect(await exited).toBe(0);
  });
});
