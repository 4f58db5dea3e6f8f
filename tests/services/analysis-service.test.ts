// Game analysis through the service, on a real redis-server (started here), with real service
// and worker processes of the package's command line: every move gets its evaluation, a
// blunder is marked ?? with the best move, a game that cannot be read is reported with its
// number while the others are analysed, and a result that is not the game (or has no
// evaluations) is refused and its worker flagged.
import { expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "bullmq";
import type { Job } from "bullmq";
import { Redis } from "ioredis";
import { parsePgn } from "../../bindings/pgn-read.js";
import { sleep } from "../helpers/cli.js";
import { describeWithOracle } from "../helpers/oracles.js";
import { serviceFixture } from "../helpers/service.js";
import { REDIS_SERVER } from "../../match/redis-server.js";
import { KEY_PREFIX } from "../../services/registry.js";
import { codeSignature } from "../../services/code-signature.js";
import { analysisQueueName } from "../../services/analysis/run.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const GAMES = `[Event "Scholar"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "Broken"]
[Result "*"]

1. e4 e5 2. Ke3 Ke6 *

[Event "Short"]
[Result "*"]

1. d4 d5 2. c4 {the Queen's Gambit} e6 *
`;

describeWithOracle("redis-server", existsSync(REDIS_SERVER), "game analysis through the service and its workers", () => {
  const f = serviceFixture("analysis-service");

  it("annotates every move, marks the blunder with the best move, and reports the game that does not read", async () => {
    const { url } = await f.startService();
    f.worker("w", "analysis", ["--cores", "2"]);
    const engine = await f.upload(url, "engines", new Uint8Array(readFileSync(join(ROOT, "build/wasmchess.wasm"))), "classical");
    const r = await f.api(url, "POST", "/api/runs", { kind: "analysis", id: "a1", engine, pgn: GAMES, nodes: 20_000, hashMb: 4 });
    expect(r.status, r.text).toBe(201);
    expect(r.json.spec.unreadable).toEqual([{ game: 2, error: expect.stringMatching(/Ke3/) }]);
    const run = await f.waitFor(url, "a1", ["done"]);
    expect(run.status).toMatchObject({ games: 2, analysed: 2, unreadable: 1 });
    expect(run.status.marks.black.blunder).toBeGreaterThanOrEqual(1);

    const games = await parsePgn((await f.api(url, "GET", "/api/runs/a1/games.pgn")).text);
    expect(games.map((g) => g.headers.get("Event"))).toEqual(["Scholar", "Short"]);
    for (const g of games) for (const m of g.moves()) expect(m.comment, `${g.headers.get("Event")} ${m.san}`).toMatch(/\[%eval -?[\d.#-]+\]|Checkmate\./);
    const scholar = games[0].moves();
    const nf6 = scholar[5];
    expect(nf6.san).toBe("Nf6");
    expect(nf6.nags).toContain(4);
    expect(nf6.comment).toMatch(/Blunder\. \S+ was best: /);
    expect(scholar[6].comment).toMatch(/Checkmate\./);
    // The game's own comment stays.
    expect(games[1].moves()[2].comment).toMatch(/^the Queen's Gambit \[%eval/);
    expect(games[0].headers.get("Annotator")).toMatch(/^wasmchess .*20000 nodes a position$/);
  }, 120_000);

  it("refuses a result that is not the game, or has no evaluations, and flags its worker", async () => {
    const { url } = await f.startService();
    const engine = await f.upload(url, "engines", new Uint8Array(readFileSync(join(ROOT, "build/wasmchess.wasm"))), "classical");
    // A worker that sends the game back as it got it, without analysis.
    const lazy = new Worker(
      analysisQueueName(codeSignature()),
      async (job: Job) => ({
        v: 1, code: job.data.code, run: job.data.run, game: job.data.game, worker: "lazy", seconds: 0, positions: 0, nodes: 0,
        marks: { white: { inaccuracy: 0, mistake: 0, blunder: 0 }, black: { inaccuracy: 0, mistake: 0, blunder: 0 } }, acpl: { white: 0, black: 0 }, pgn: job.data.pgn,
      }),
      { connection: new Redis(f.redis.url, { maxRetriesPerRequest: null }), prefix: KEY_PREFIX },
    );
    expect((await f.api(url, "POST", "/api/runs", { kind: "analysis", id: "a2", engine, pgn: GAMES, nodes: 5000 })).status).toBe(201);
    let flags;
    while (!(flags = (await f.api(url, "GET", "/api/flags")).json).flagged.lazy) await sleep(50);
    await lazy.close();
    expect(flags.recent[0].reason).toMatch(/has no evaluation/);
    f.worker("honest", "analysis");
    const run = await f.waitFor(url, "a2", ["done"]);
    expect(run.status.analysed).toBe(2);
    // A PGN of nothing readable is refused at once.
    const none = await f.api(url, "POST", "/api/runs", { kind: "analysis", engine, pgn: "1. e4 e5 2. Ke3 *" });
    expect(none.status).toBe(400);
    expect(none.json.error).toMatch(/^pgn: no game could be read \(game 1: .*Ke3/);
  }, 120_000);
});
