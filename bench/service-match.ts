// A test match through the service against the same test played by the match runner
// (bench/match.ts): the Elo of each with its error bar, which must agree within them. The
// test: one build against itself with another network (by default the embedded network
// against network 8, nets/wcnn-c296ed8f.nnue), the same time control, openings, order, seed
// and number of games; N games at a time in both (N one-core workers against --concurrency N;
// --concurrency 1 leaves a core of a two-core machine free).
// A redis-server of its own is started in a temporary directory and stopped after. Time
// controls: run it on a quiet machine.
//   npx tsx bench/service-match.ts [--games 100] [--tc 10+0.1] [--seed 93]
//       [--openings bench/data/openings-random6.epd] [--engine build/wasmchess-nnue.wasm]
//       [--network nets/wcnn-c296ed8f.nnue] [--hash 16] [--concurrency 2] [--only service|runner]
//       [--out data/service-match]

import { parseArgs } from "node:util";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { RedisServer } from "../match/redis-server.js";
import { UciProcess } from "../match/uci-process.js";
import { eloFromJson, formatElo } from "../match/stats.js";
import type { EloEstimate } from "../match/stats.js";
import { requireService, uploadFile } from "../services/client.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const { values } = parseArgs({
  options: {
    games: { type: "string", default: "100" },
    tc: { type: "string", default: "10+0.1" },
    seed: { type: "string", default: "93" },
    openings: { type: "string", default: join(ROOT, "bench/data/openings-random6.epd") },
    engine: { type: "string", default: join(ROOT, "build/wasmchess-nnue.wasm") },
    network: { type: "string", default: join(ROOT, "nets/wcnn-c296ed8f.nnue") },
    hash: { type: "string", default: "16" },
    concurrency: { type: "string", default: "2" },
    only: { type: "string" },
    out: { type: "string", default: join(ROOT, "data/service-match") },
  },
});
const CLI = join(ROOT, "build/cli.js");
const TOKEN = "bench-token-0123456789";
const games = Number(values.games);
const seed = Number(values.seed);
const hash = Number(values.hash);
const concurrency = Number(values.concurrency);
const engine = resolve(values.engine!);
const network = resolve(values.network!);
const names = ["embedded", basename(network).replace(/\.nnue$/, "")] as const;
const out = resolve(values.out!);
mkdirSync(out, { recursive: true });

interface Result {
  line: string;
  elo: EloEstimate;
  pentaElo: EloEstimate;
  seconds: number;
}

/** The test through the service: a service, `concurrency` one-core workers, the files uploaded. */
async function throughService(): Promise<Result> {
  const dir = mkdtempSync(join(tmpdir(), "service-match-"));
  const redis = await RedisServer.start();
  const service = new UciProcess(process.execPath, [CLI, "service", "--redis", redis.url, "--port", "0", "--token", TOKEN, "--data", join(dir, "service")]);
  const workers = Array.from({ length: concurrency }, (_, i) => new UciProcess(process.execPath, [CLI, "worker", "--redis", redis.url, "--kinds", "match", "--cores", "1", "--name", `bench-${i}`]));
  const ready = Promise.all(workers.map((w) => w.waitFor((l) => l.includes("waiting for jobs"), 20_000)));
  try {
    const url = (await service.waitFor((l) => l.startsWith("service: listening on "), 20_000)).match(/http:\/\/[\d.]+:\d+/)![0];
    await ready;
    const api = async (method: string, path: string, body?: unknown) => (await requireService(url, TOKEN, method, path, body)).json;
    const upload = (route: string, file: string) => uploadFile(url, TOKEN, route, file);
    const build = await upload("engines", engine);
    const net = await upload("networks", network);
    const openings = await upload("openings", resolve(values.openings!));
    const start = performance.now();
    await api("POST", "/api/runs", {
      kind: "match", id: "bench", games, openings, order: "random", seed, limits: { tc: values.tc },
      engines: [
        { name: names[0], engine: build, options: { Hash: hash } },
        { name: names[1], engine: build, network: net, options: { Hash: hash } },
      ],
    });
    let shown = -1;
    for (;;) {
      const r = await api("GET", "/api/runs/bench");
      if (r.state === "failed") throw new Error(`the test failed: ${r.error}`);
      if (r.status?.tri && r.status.games !== shown) {
        shown = r.status.games;
        console.log(`service: ${r.status.games}/${games} games, ${r.status.tri.wins}-${r.status.tri.losses}-${r.status.tri.draws}, Elo ${formatElo(eloFromJson(r.status.elo).elo)} ± ${bar(eloFromJson(r.status.elo).margin)}`);
      }
      if (r.state === "done") {
        const s = r.status;
        const pgn = await requireService(url, TOKEN, "GET", "/api/runs/bench/games.pgn");
        writeText(join(out, "service.pgn"), pgn.text);
        const faults = JSON.stringify(s.faults);
        return {
          line: `${s.tri.wins}-${s.tri.losses}-${s.tri.draws}, pairs [${s.penta.join(", ")}], faults ${faults}, endings ${JSON.stringify(s.endings)}`,
          elo: eloFromJson(s.elo), pentaElo: eloFromJson(s.pentaElo), seconds: (performance.now() - start) / 1000,
        };
      }
      await new Promise((res) => setTimeout(res, 2000));
    }
  } finally {
    for (const w of workers) w.kill();
    service.kill();
    await redis.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same test with the match runner, `concurrency` games at a time. */
async function withRunner(): Promise<Result> {
  const pgn = join(out, "runner.pgn");
  const spec = (name: string, extra = "") => `cmd=${process.execPath},args=${CLI} uci --wasm ${engine},name=${name}${extra}`;
  const args = [
    "tsx", "bench/match.ts", "--engine", spec(names[0]), "--engine", spec(names[1], `,option.EvalFile=${network}`),
    "--each", `option.Hash=${hash}`, "--tc", values.tc!, "--games", String(games), "--concurrency", String(concurrency), "--seed", String(seed),
    "--openings", resolve(values.openings!), "--order", "random", "--pgn", pgn,
  ];
  const start = performance.now();
  const lines: string[] = [];
  await new Promise<void>((done, fail) => {
    const child = spawn("npx", args, { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    child.stdout.setEncoding("utf8");
    let buffer = "";
    child.stdout.on("data", (text: string) => {
      buffer += text;
      const parts = buffer.split("\n");
      buffer = parts.pop()!;
      for (const l of parts) {
        lines.push(l);
        if (l.startsWith("Score of")) console.log(`runner: ${l}`);
      }
    });
    child.on("exit", (code) => (code === 0 ? done() : fail(new Error(`bench/match.ts exited with ${code}`))));
  });
  const seconds = (performance.now() - start) / 1000;
  const perGame = lastLine(lines, (l) => l.startsWith("Elo difference:"))!;
  const perPair = lastLine(lines, (l) => l.startsWith("Pairs"))!;
  const score = lastLine(lines, (l) => l.startsWith("Score of"))!;
  const estimate = (l: string, score: number): EloEstimate => {
    // bench/match.ts prints "<elo> +/- <margin>", either one possibly "+inf", "-inf" or "inf".
    const m = l.match(/(?:Elo|difference:) ([+-]?(?:[\d.]+|inf)) \+\/- ([\d.]+|inf)/)!;
    const value = (t: string) => Number(t.replace("inf", "Infinity"));
    return { score, elo: value(m[1]), margin: value(m[2]) };
  };
  const s = Number(score.match(/\[([\d.]+)\]/)![1]);
  const endings = lastLine(lines, (l) => l.startsWith("Endings"));
  return { line: `${score.replace(/^Score of .*?: /, "")}; ${perPair.replace(/, Elo.*/, "")}; ${endings}`, elo: estimate(perGame, s), pentaElo: estimate(perPair, s), seconds };
}

/** The runner's last line that passes the test. */
function lastLine(lines: string[], test: (l: string) => boolean): string | undefined {
  for (let i = lines.length - 1; i >= 0; i--) if (test(lines[i])) return lines[i];
  return undefined;
}

function writeText(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

const bar = (margin: number) => (Number.isFinite(margin) ? margin.toFixed(1) : "inf");
const show = (r: Result) => `Elo ${formatElo(r.elo.elo)} ± ${bar(r.elo.margin)} (pairs ${formatElo(r.pentaElo.elo)} ± ${bar(r.pentaElo.margin)}), ${r.line}, ${r.seconds.toFixed(0)} s`;

console.log(`${names[0]} vs ${names[1]} (${engine}), ${games} games at ${values.tc}, Hash ${hash}, openings ${values.openings} random seed ${seed}; ${concurrency} game(s) at a time`);
const service = values.only === "runner" ? undefined : await throughService();
if (service) console.log(`service: ${show(service)}`);
const runner = values.only === "service" ? undefined : await withRunner();
if (runner) console.log(`runner: ${show(runner)}`);
if (service && runner) {
  const diff = service.elo.elo - runner.elo.elo;
  const margin = Math.hypot(service.elo.margin, runner.elo.margin);
  const within = Math.abs(diff) <= Math.min(service.elo.margin, runner.elo.margin);
  console.log(`difference ${formatElo(diff)} Elo: ${Math.abs(diff) <= margin ? "within" : "OUTSIDE"} the 95% margin of a difference (± ${margin.toFixed(1)}); ` +
    `${within ? "each inside the other's error bar" : "not inside both error bars"}`);
}
