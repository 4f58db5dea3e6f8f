// Test matches through the service, on a real redis-server (started here), with real service
// and worker processes of the package's command line: two engine builds held by hash play
// the games the match runner (bench/match.ts) plays with the same settings, move for move;
// the W/D/L and pentanomial counts add up over the tasks; an SPRT is decided by the
// coordinator; a build that cannot start fails the run with its reason; a worker runs no more
// jobs at once than its cores, whatever their kinds, and shares its time between them.
import { expect, it } from "vitest";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CLI, sleep } from "../helpers/cli.js";
import { describeWithOracle } from "../helpers/oracles.js";
import { TOKEN, serviceFixture } from "../helpers/service.js";
import type { UciProcess } from "../../match/uci-process.js";
import { REDIS_SERVER } from "../../match/redis-server.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Each game's moves (SAN, comments dropped) by round. */
function movesByRound(pgn: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const game of pgn.split(/\n(?=\[Event )/)) {
    const round = /\[Round "(\d+)"\]/.exec(game)?.[1];
    if (!round) continue;
    const movetext = game.replace(/\[[^\]]*\]\s*/g, "").replace(/\{[^}]*\}/g, "").replace(/\d+\.(\.\.)?/g, "").replace(/\s+/g, " ").trim();
    out.set(round, movetext);
  }
  return out;
}

describeWithOracle("redis-server", existsSync(REDIS_SERVER), "test matches through the service and its workers", () => {
  const f = serviceFixture("match-service");
  const api = f.api.bind(f);
  const upload = f.upload.bind(f);
  const waitFor = f.waitFor.bind(f);
  const startService = async () => (await f.startService()).url;

  /** The lines the workers print from now on, in the order they come. */
  function linesOf(...workers: UciProcess[]): string[] {
    const lines: string[] = [];
    for (const w of workers) w.listeners.push((l) => lines.push(l));
    return lines;
  }

  /** Submits a test of long tasks (two pairs at `nodes` a move, the classical build against
   *  itself at Skill Level 10) and a data run of chunks of one to three seconds (16 games at
   *  2,000 nodes) at once: long enough that the three a core the service keeps ahead outlast
   *  its two seconds between top-ups. */
  async function longTestAndShortData(url: string, engine: string, games: number, nodes: number): Promise<void> {
    for (const body of [
      { kind: "match", id: "long", games, pairsPerTask: 2, limits: { nodes }, openings: "builtin",
        engines: [{ name: "a", engine, options: { Hash: 1 } }, { name: "b", engine, options: { Hash: 1, "Skill Level": 10 } }] },
      { kind: "data", id: "short", engine, positions: 200_000, chunkGames: 16, settings: { nodes: 2000, seed: 3, hashMb: 1 } },
    ]) {
      const r = await api(url, "POST", "/api/runs", body);
      expect(r.status, r.text).toBe(201);
    }
  }

  it("plays the games the match runner plays with the same settings, two builds held by hash, in tasks of pairs", async () => {
    const url = await startService();
    f.worker("w", "match", ["--cores", "2"]);
    const nnue = await upload(url, "engines", new Uint8Array(readFileSync(join(ROOT, "build/wasmchess-nnue.wasm"))), "nnue");
    const classical = await upload(url, "engines", new Uint8Array(readFileSync(join(ROOT, "build/wasmchess.wasm"))), "classical");
    const r = await api(url, "POST", "/api/runs", {
      kind: "match", id: "same", games: 8, pairsPerTask: 1, limits: { nodes: 1500 }, openings: "builtin", order: "random", seed: 5,
      engines: [{ name: "nnue", engine: nnue, options: { Hash: 1 } }, { name: "classical", engine: classical, options: { Hash: 1 } }],
    });
    expect(r.status, r.text).toBe(201);
    const run = await waitFor(url, "same", ["done"]);
    const s = run.status;
    expect(s.games).toBe(8);
    expect(s.tasks).toBe(4);
    expect(s.tri.wins + s.tri.losses + s.tri.draws).toBe(8);
    expect(s.penta.reduce((a: number, b: number) => a + b, 0)).toBe(4);
    expect(s.faults).toEqual([{}, {}]);
    const service = movesByRound((await api(url, "GET", "/api/runs/same/games.pgn")).text);
    expect([...service.keys()].sort()).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"]);

    // The same match by the match runner, on the same two builds (run through the package's CLI).
    const pgn = join(f.dir, "runner.pgn");
    execFileSync("npx", [
      "tsx", "bench/match.ts", "--engine", `cmd=node,args=${CLI} uci --wasm ${join(ROOT, "build/wasmchess-nnue.wasm")},name=nnue,option.Hash=1`,
      "--engine", `cmd=node,args=${CLI} uci --wasm ${join(ROOT, "build/wasmchess.wasm")},name=classical,option.Hash=1`,
      "--games", "8", "--nodes", "1500", "--order", "random", "--seed", "5", "--pgn", pgn,
    ], { cwd: ROOT, stdio: "pipe", timeout: 120_000 });
    const runner = movesByRound(readFileSync(pgn, "utf8"));
    for (const [round, moves] of runner) expect(service.get(round), `round ${round}`).toBe(moves);
  }, 180_000);

  it("decides an SPRT submitted by its client (bench/service-test.ts) and stops, and fails a run whose build cannot start", async () => {
    const url = await startService();
    f.worker("w", "match", ["--cores", "2"]);
    const engine = await upload(url, "engines", new Uint8Array(readFileSync(join(ROOT, "build/wasmchess.wasm"))), "classical");
    const wasm = join(ROOT, "build/wasmchess.wasm");
    const client = await new Promise<{ code: number | null; out: string }>((done) => {
      const child = spawn("npx", ["tsx", "bench/service-test.ts", "--service", url, "--token", TOKEN, "--id", "sprt",
        "--engine", `wasm=${wasm},name=full`, "--engine", `wasm=${wasm},name=skill0,option.Skill Level=0`, "--each", "option.Hash=1",
        "--nodes", "800", "--games", "400", "--pairs-per-task", "4", "--openings", "builtin", "--sprt", "elo0=0,elo1=50"], { cwd: ROOT });
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (out += d));
      child.on("exit", (code) => done({ code, out }));
    });
    expect(client.code, client.out).toBe(0);
    expect(client.out).toMatch(/^submitted sprt: full vs skill0/m);
    expect(client.out).toMatch(/^Score of full vs skill0: \d+ - \d+ - \d+ /m);
    expect(client.out).toMatch(/^SPRT: H1 accepted after game \d+/m);
    const run = await waitFor(url, "sprt", ["done"], 300_000);
    expect(client.out).toContain(`Finished after ${run.status.games} games`);
    expect(run.status.sprt.decision).toBe("H1");
    expect(run.status.games).toBeGreaterThanOrEqual(30);
    expect(run.status.games).toBeLessThan(400);
    expect(run.status.sprt.llr).toBeGreaterThanOrEqual(run.status.sprt.upper);
    expect(run.status.llrHistory.at(-1)[0]).toBe(run.status.games);

    // A valid module that is no engine: every task fails, and the run fails saying why.
    const empty = await upload(url, "engines", new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), "empty");
    await api(url, "POST", "/api/runs", {
      kind: "match", id: "broken", games: 2, limits: { nodes: 100 }, openings: "builtin",
      engines: [{ name: "a", engine, options: { Hash: 1 } }, { name: "b", engine: empty }],
    });
    let broken;
    for (;;) {
      broken = (await api(url, "GET", "/api/runs/broken")).json;
      if (broken.state !== "running") break;
      await sleep(200);
    }
    expect(broken.state).toBe("failed");
    expect(broken.error).toMatch(/failed 6 times/);
  }, 400_000);

  it("runs no more jobs at once than the cores a worker gives, over all its kinds (a test and a data run at once), a task taking its engines' Threads", async () => {
    const url = await startService();
    const engine = await upload(url, "engines", new Uint8Array(readFileSync(join(ROOT, "build/wasmchess.wasm"))), "classical");
    // A one-core worker, engines of one thread; a two-core worker, one engine of two threads.
    for (const [cores, threads] of [[1, 1], [2, 2]]) {
      const w = f.worker(`w${cores}`, "data,match", ["--cores", String(cores)]);
      const lines = linesOf(w);
      for (const body of [
        { kind: "match", id: `test${cores}`, games: 8, pairsPerTask: 1, limits: { nodes: 600 }, openings: "builtin",
          engines: [{ name: "a", engine, options: { Hash: 1, Threads: threads } }, { name: "b", engine, options: { Hash: 1, "Skill Level": 5 } }] },
        { kind: "data", id: `data${cores}`, engine, positions: 400, chunkGames: 2, settings: { nodes: 400, seed: 3, hashMb: 1 } },
      ]) {
        const r = await api(url, "POST", "/api/runs", body);
        expect(r.status, r.text).toBe(201);
      }
      await waitFor(url, `test${cores}`, ["done"]);
      await waitFor(url, `data${cores}`, ["done"]);
      w.kill();
      // A job starts with "playing chunk|task <id>" and ends with "chunk|task <id>: <what it gave>".
      const taking = { chunk: 1, task: threads };
      let busy = 0;
      let most = 0;
      const kinds = new Set<string>();
      for (const line of lines) {
        const start = /: playing (chunk|task) /.exec(line);
        const end = /: (chunk|task) \S+: /.exec(line);
        if (start) {
          kinds.add(start[1]);
          most = Math.max(most, (busy += taking[start[1] as "chunk" | "task"]));
        } else if (end) busy -= taking[end[1] as "chunk" | "task"];
      }
      expect(kinds).toEqual(new Set(["chunk", "task"]));
      expect(most, lines.join("\n")).toBe(cores);
    }
  }, 180_000);

  it("shares a worker's time between kinds: a data run's short chunks run between a test's long tasks, not one per task", async () => {
    const url = await startService();
    const lines = linesOf(f.worker("w", "data,match", ["--cores", "1"]));
    const engine = await upload(url, "engines", new Uint8Array(readFileSync(join(ROOT, "build/wasmchess.wasm"))), "classical");
    await longTestAndShortData(url, engine, 16, 40_000);
    const starts = () => lines.flatMap((l) => /: playing (chunk|task) /.exec(l)?.[1] ?? []);
    for (let t = 0; starts().filter((k) => k === "task").length < 2; t++) {
      if (t > 1500) throw new Error(`no second task in 150 s:\n${lines.join("\n")}`);
      await sleep(100);
    }
    // Between the first task and the second, the chunks have the core for about as long as
    // the task had it (one chunk, a fraction of the task, when jobs merely take turns).
    const firstTask = lines.findIndex((l) => /: playing task /.test(l));
    const secondTask = lines.findIndex((l, i) => i > firstTask && /: playing task /.test(l));
    const durations = (kind: string, from = 0, to = lines.length) => lines.slice(from, to)
      .flatMap((l) => new RegExp(`: ${kind} \\S+: .*, ([\\d.]+) s$`).exec(l)?.[1] ?? []).map(Number);
    const seconds = (kind: string, from: number, to: number) => durations(kind, from, to).reduce((a, x) => a + x, 0);
    const task = seconds("task", firstTask, secondTask);
    const chunks = seconds("chunk", lines.findIndex((l, i) => i > firstTask && /: task /.test(l)), secondTask);
    // The task must outlast two chunks, so that one chunk alone cannot pass; machines differ
    // in speed, so this compares the two, not either with a fixed time.
    expect(task, lines.join("\n")).toBeGreaterThan(2 * Math.max(...durations("chunk")));
    expect(chunks, lines.join("\n")).toBeGreaterThan(0.5 * task);
  }, 180_000);

  it("goes on with a data run's later chunks while one waits in a worker behind a test's long task", async () => {
    const url = await startService();
    const lines = linesOf(f.worker("a", "data,match", ["--cores", "1"]), f.worker("b", "data", ["--cores", "1"]));
    const engine = await upload(url, "engines", new Uint8Array(readFileSync(join(ROOT, "build/wasmchess.wasm"))), "classical");
    await longTestAndShortData(url, engine, 8, 320_000);
    const taskStart = () => lines.findIndex((l) => /^worker a: playing task /.test(l));
    const taskEnd = (from: number) => lines.findIndex((l, i) => i > from && /^worker a: task /.test(l));
    for (let t = 0; taskEnd(taskStart()) < 0; t++) {
      if (t > 1500) throw new Error(`a's first task did not end in 150 s:\n${lines.join("\n")}`);
      await sleep(100);
    }
    // Worker a holds a data chunk while its task plays (it takes one more job than its cores);
    // the file waits for that chunk, but b plays the later ones all the while.
    const start = taskStart();
    const during = lines.slice(start, taskEnd(start)).filter((l) => /^worker b: chunk /.test(l)).length;
    expect(during, lines.join("\n")).toBeGreaterThanOrEqual(10);
  }, 180_000);

  it("refuses a test that names what the service does not hold, or a command line", async () => {
    const url = await startService();
    const engine = await upload(url, "engines", new Uint8Array(readFileSync(join(ROOT, "build/wasmchess.wasm"))), "classical");
    const base = { kind: "match", games: 2, limits: { nodes: 100 }, openings: "builtin" };
    const e = { name: "a", engine };
    const bad = async (body: object, error: RegExp) => {
      const r = await api(url, "POST", "/api/runs", body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error).toMatch(error);
    };
    await bad({ ...base, engines: [e, { name: "b", engine: "1".repeat(64) }] }, /^engines\.1\.engine: 1+ is not held/);
    await bad({ ...base, engines: [e, { ...e, name: "b", command: "/bin/sh" }] }, /command/);
    await bad({ ...base, engines: [e, { ...e, name: "b", options: { EvalFile: "/etc/passwd" } }] }, /^engines\.1\.options: EvalFile is set by the network field/);
    await bad({ ...base, engines: [e, { ...e, name: "b", options: { Hash: "1\nquit" } }] }, /^engines\.1\.options/);
    await bad({ ...base, engines: [e, e] }, /^engines\.1\.name: the two engines need two names/);
    await bad({ ...base, engines: [e, { ...e, name: "b" }], limits: { tc: "fast" } }, /^limits\.tc: bad time control/);
    await bad({ ...base, engines: [e, { ...e, name: "b" }], openings: "2".repeat(64) }, /^openings: 2+ is not held/);
    await bad({ ...base, engines: [e, { ...e, name: "b" }], sprt: { elo0: 5, elo1: 0 } }, /^sprt: elo0 must be below elo1/);
    const openings = await api(url, "POST", "/api/openings?name=bad", new TextEncoder().encode("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nnot a position\n"));
    expect(openings.status).toBe(400);
    expect(openings.json.error).toMatch(/openings:2/);
  });
});
