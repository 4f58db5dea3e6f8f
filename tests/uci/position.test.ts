// UCI after a rejected `position` (issue 11, item 6): every `go` answers `bestmove 0000` with
// an `info string error` until a valid `position` arrives, instead of searching the position
// before (a K+R v K FEN was once answered with a move of the start position).
import { describe, it, expect, beforeEach, afterEach } from "vitest";
import { UciProcess } from "../../match/uci-process.js";
import { startCli } from "../helpers/cli.js";

describe("UCI after a rejected position", () => {
  let engine: UciProcess;
  let out: string[];
  beforeEach(() => ({ engine, out } = startCli()));
  afterEach(() => engine.kill());

  const bestmoves = () => out.filter((l) => l.startsWith("bestmove"));
  const errors = () => out.filter((l) => l.startsWith("info string error:"));

  it("a bad FEN: go answers bestmove 0000 until a valid position", async () => {
    engine.send("position startpos moves e2e4");
    engine.send("go depth 2");
    await engine.waitFor(() => bestmoves().length === 1);
    expect(bestmoves()[0]).toMatch(/^bestmove [a-h][1-8][a-h][1-8]/);
    // A K+R v K position with a letter that is not a piece.
    engine.send("position fen 4k3/8/8/8/8/8/8/4K2X w - - 0 1");
    engine.send("go depth 2");
    engine.send("go movetime 50");
    await engine.waitFor(() => bestmoves().length === 3);
    expect(bestmoves().slice(1)).toEqual(["bestmove 0000", "bestmove 0000"]);
    expect(errors()[0]).toBe("info string error: invalid FEN: unknown piece letter 'X'");
    expect(errors()[1]).toMatch(/^info string error: go: no valid position \(the last 'position' was rejected: invalid FEN: unknown piece letter 'X'\); send a valid 'position' first$/);
    expect(errors().length).toBe(3);
    // The board itself stays where it was, for d.
    engine.send("d");
    await engine.waitFor((l) => l.startsWith("Fen:"));
    expect(out).toContain("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    // A valid position ends it.
    engine.send("position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    engine.send("go depth 3");
    await engine.waitFor(() => bestmoves().length === 4);
    expect(bestmoves()[3]).toMatch(/^bestmove (e1|h1)/);
  });

  it("an illegal move in the list, a malformed command, and go infinite with stop", async () => {
    engine.send("position startpos moves e2e4 e7e5 e1e3");
    engine.send("go infinite");
    await engine.waitFor(() => bestmoves().length === 1);
    expect(bestmoves()[0]).toBe("bestmove 0000");
    expect(errors()[0]).toMatch(/illegal move 'e1e3'/);
    engine.send("position fen");
    engine.send("go perft 2");
    engine.send("go wtime 1000 btime 1000");
    await engine.waitFor(() => bestmoves().length === 2);
    expect(bestmoves()[1]).toBe("bestmove 0000");
    expect(out.some((l) => l.startsWith("Nodes searched"))).toBe(false);
    expect(errors().some((l) => l.startsWith("info string error: go perft: no valid position"))).toBe(true);
    engine.send("position startpos");
    engine.send("go perft 2");
    await engine.waitFor((l) => l === "Nodes searched: 400");
  });
});
