// Self-play data generation: the engine plays itself at a fixed node budget per move and
// writes the kept positions as 32-byte records (see records.ts and assembly/packed-board.ts).
//
//   npm run datagen -- --out data/<name> --positions N [--nodes 1000] [--threads T] [--seed S]
//       [--random-plies 8-10] [--book FILE] [--min-ply 16] [--keep-check] [--keep-noisy]
//       [--hash MB] [--engine FILE.wasm] [--service URL [--token T]]
//   npm run datagen -- --export epd --data data/<name> [--out FILE]    (FEN | score | result)
//   npm run datagen -- --import FILE --out data/<name>
//
// A run writes <out>/positions.bin and <out>/datagen.json (its settings and progress), and
// keeps the engine that plays in <out>/engine.wasm (a copy of build/wasmchess.wasm or of
// --engine), so that a resumed run plays with the same engine after a rebuild. Games
// are written whole and in game order, so the file is the same for a seed whatever the number
// of threads; running the same command again resumes the run. Ctrl-C stops after the last
// whole game has been written. With --service URL the games are played by the workers of a
// `wasmchess service` (datagen-service.ts), the same records for the same seed.

import { parseArgs } from "node:util";
import type { Worker } from "node:worker_threads";
import { availableParallelism } from "node:os";
import {
  closeSync, copyFileSync, existsSync, ftruncateSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync,
  createWriteStream, createReadStream,
} from "node:fs";
import { join, resolve as resolvePath } from "node:path";
import { createHash } from "node:crypto";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createInterface } from "node:readline";
import { Core } from "../bindings/core.js";
import { parseOpenings } from "../match/openings.js";
import { DEFAULT_SETTINGS, SelfPlayGame, SelfPlaySettings } from "./selfplay.js";
import type { DatagenProgress as Progress } from "./selfplay.js";
import { startTsWorker } from "./ts-worker.js";
import { generateOnService } from "./datagen-service.js";
import { dataFiles, readRecords, RecordCodec, RECORD_BYTES } from "./records.js";

const { values } = parseArgs({
  options: {
    out: { type: "string" },
    data: { type: "string" },
    export: { type: "string" },
    import: { type: "string" },
    positions: { type: "string" },
    nodes: { type: "string" },
    threads: { type: "string" },
    seed: { type: "string" },
    "random-plies": { type: "string" },
    book: { type: "string" },
    "min-ply": { type: "string" },
    "keep-check": { type: "boolean", default: false },
    "keep-noisy": { type: "boolean", default: false },
    hash: { type: "string" },
    engine: { type: "string" },
    "progress-every": { type: "string", default: "30" },
    service: { type: "string" },
    token: { type: "string" },
  },
});

function fail(message: string): never {
  console.error(`datagen: ${message}`);
  process.exit(2);
}

function intOption(name: string, text: string | undefined, fallback: number, min = 0): number {
  if (text === undefined) return fallback;
  const v = Number(text);
  if (!Number.isInteger(v) || v < min) fail(`--${name} must be an integer >= ${min}, got ${JSON.stringify(text)}`);
  return v;
}

async function exportText(): Promise<void> {
  if (values.export !== "epd") fail(`--export supports "epd", not ${JSON.stringify(values.export)}`);
  if (!values.data) fail("--export needs --data PATH");
  const core = await Core.create({ hashMb: 1 });
  const codec = new RecordCodec(core);
  const out: NodeJS.WritableStream = values.out ? createWriteStream(values.out) : process.stdout;
  for (const chunk of readRecords(dataFiles(values.data))) {
    const lines: string[] = [];
    for (let i = 0; i < chunk.count; i++) lines.push(codec.toText(chunk.bytes, i, `${chunk.file}: record ${chunk.first + i}`));
    if (!out.write(lines.join("\n") + "\n")) await new Promise((r) => out.once("drain", r));
  }
  if (out !== process.stdout) await new Promise<void>((r) => out.end(() => r()));
}

async function importText(): Promise<void> {
  if (!values.out) fail("--import needs --out DIR");
  mkdirSync(values.out, { recursive: true });
  const target = join(values.out, "imported.bin");
  const core = await Core.create({ hashMb: 1 });
  const codec = new RecordCodec(core);
  const fd = openSync(target, "w");
  let n = 0;
  let lineNo = 0;
  for await (const line of createInterface({ input: createReadStream(values.import!) })) {
    lineNo++;
    if (line.trim() === "" || line.startsWith("#")) continue;
    writeSync(fd, codec.fromText(line, `${values.import}:${lineNo}`));
    n++;
  }
  closeSync(fd);
  console.log(`${n} records written to ${target}`);
}


function formatDuration(s: number): string {
  if (!Number.isFinite(s)) return "?";
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}h${String(m).padStart(2, "0")}m` : `${m}m${String(Math.floor(s % 60)).padStart(2, "0")}s`;
}

async function generate(): Promise<void> {
  if (!values.out) fail("--out DIR is required");
  const target = intOption("positions", values.positions, NaN, 1);
  if (Number.isNaN(target)) fail("--positions N is required");
  const threads = intOption("threads", values.threads, Math.max(1, availableParallelism() - 1), 1);
  const [lo, hi] = (values["random-plies"] ?? (values.book ? "0-0" : "8-10")).split("-").map(Number);
  if (!Number.isInteger(lo) || !Number.isInteger(hi) || lo < 0 || hi < lo) fail("--random-plies must look like 8-10");
  let book: string[] = [];
  if (values.book) {
    const core = await Core.create({ hashMb: 1 });
    book = parseOpenings(readFileSync(values.book, "utf8"), core, values.book).map((o) => o.fen);
  }
  const settings: SelfPlaySettings = {
    ...DEFAULT_SETTINGS,
    hashMb: intOption("hash", values.hash, DEFAULT_SETTINGS.hashMb, 1),
    nodes: intOption("nodes", values.nodes, DEFAULT_SETTINGS.nodes, 1),
    seed: intOption("seed", values.seed, DEFAULT_SETTINGS.seed),
    randomPlies: [lo, hi],
    book,
    minPly: intOption("min-ply", values["min-ply"], DEFAULT_SETTINGS.minPly),
    skipInCheck: !values["keep-check"],
    skipNoisy: !values["keep-noisy"],
  };

  mkdirSync(values.out, { recursive: true });
  const enginePath = join(values.out, "engine.wasm");
  if (!existsSync(enginePath)) copyFileSync(values.engine ?? fileURLToPath(new URL("../build/wasmchess.wasm", import.meta.url)), enginePath);
  else if (values.engine) fail(`${values.out} already has its engine; resume without --engine`);
  const engineHash = createHash("sha256").update(readFileSync(enginePath)).digest("hex").slice(0, 16);
  const dataPath = join(values.out, "positions.bin");
  const progressPath = join(values.out, "datagen.json");
  if (values.service) {
    if (existsSync(progressPath) && (JSON.parse(readFileSync(progressPath, "utf8")) as { run?: string }).run === undefined) {
      fail(`${values.out} holds a run of this machine; continue it without --service, or use another --out`);
    }
    const token = values.token ?? process.env.WASMCHESS_TOKEN;
    if (!token) fail("--service needs the service's token (--token T or WASMCHESS_TOKEN)");
    await generateOnService({
      service: values.service, token, out: values.out, positions: target, settings, enginePath,
      progressEverySeconds: Number(values["progress-every"]), log: (line) => console.log(line),
    });
    return;
  }
  let progress: Progress = {
    version: 1, engine: engineHash, settings, nextGame: 0, bytes: 0, positions: 0, games: 0,
    results: { white: 0, draw: 0, black: 0 }, endings: {}, seconds: 0,
  };
  if (existsSync(progressPath)) {
    const old = JSON.parse(readFileSync(progressPath, "utf8")) as Progress;
    if (JSON.stringify(old.settings) !== JSON.stringify(settings)) {
      fail(`${values.out} holds a run with other settings (${JSON.stringify(old.settings).slice(0, 200)}); use the same options or a new --out`);
    }
    if (old.engine !== engineHash) fail(`${enginePath} changed since the run started`);
    progress = old;
    console.log(`resuming at game ${progress.nextGame} with ${progress.positions} positions`);
  }
  const fd = openSync(dataPath, existsSync(dataPath) ? "r+" : "w");
  ftruncateSync(fd, progress.bytes); // drop whatever a killed run wrote past its last progress
  let offset = progress.bytes;

  const saveProgress = () => {
    writeFileSync(progressPath + ".tmp", JSON.stringify(progress, null, 1));
    renameSync(progressPath + ".tmp", progressPath);
  };

  // Finished games wait here until every earlier game is written.
  const finished = new Map<number, SelfPlayGame>();
  let nextToDispatch = progress.nextGame;
  let stopping = false;
  const startSeconds = progress.seconds;
  const start = performance.now();
  const startPositions = progress.positions;
  let searched = 0; // nodes of the games written by this invocation

  const writeReady = () => {
    let game: SelfPlayGame | undefined;
    while ((game = finished.get(progress.nextGame))) {
      finished.delete(progress.nextGame);
      writeSync(fd, game.records, 0, game.records.length, offset);
      offset += game.records.length;
      progress.bytes = offset;
      progress.positions += game.positions;
      progress.games++;
      progress.nextGame++;
      searched += game.nodes;
      if (game.result === 2) progress.results.white++;
      else if (game.result === 0) progress.results.black++;
      else progress.results.draw++;
      progress.endings[game.ending] = (progress.endings[game.ending] ?? 0) + 1;
      progress.seconds = startSeconds + (performance.now() - start) / 1000;
      saveProgress();
    }
  };

  const report = () => {
    const elapsed = (performance.now() - start) / 1000;
    const rate = (progress.positions - startPositions) / Math.max(elapsed, 1e-9);
    const r = progress.results;
    const perPosition = searched / Math.max(progress.positions - startPositions, 1);
    console.log(
      `positions ${progress.positions} / ${target}  ${rate.toFixed(1)}/s (${(rate / threads).toFixed(1)}/s per thread)  ` +
        `${Math.round(perPosition)} nodes per position  ` +
        `games ${progress.games} (white ${r.white} draw ${r.draw} black ${r.black})  ` +
        `ETA ${formatDuration(Math.max(0, target - progress.positions) / rate)}`,
    );
  };

  const workers: Worker[] = [];
  await new Promise<void>((resolve, reject) => {
    let running = threads;
    const done = () => {
      if (--running === 0) resolve();
    };
    const dispatch = (w: Worker) => {
      if (stopping || progress.positions >= target) {
        void w.terminate().then(done);
        return;
      }
      w.postMessage({ index: nextToDispatch++ });
    };
    process.on("SIGINT", () => {
      if (stopping) process.exit(130);
      stopping = true;
      console.log("stopping: the games in progress are dropped; run the same command to resume");
      for (const w of workers) void w.terminate().then(done);
    });
    for (let t = 0; t < threads; t++) {
      const w = startTsWorker(new URL("./datagen-worker.ts", import.meta.url), {
        workerData: { settings, wasmUrl: pathToFileURL(resolvePath(enginePath)).href },
      });
      workers.push(w);
      w.on("message", (msg: { ready?: boolean; game?: SelfPlayGame; index?: number; error?: string }) => {
        if (msg.error) {
          reject(new Error(`game ${msg.index}: ${msg.error}`));
          return;
        }
        if (msg.game) {
          finished.set(msg.game.index, msg.game);
          writeReady();
        }
        dispatch(w);
      });
      w.on("error", reject);
    }
    const timer = setInterval(report, Number(values["progress-every"]) * 1000);
    timer.unref();
  });
  writeReady();
  closeSync(fd);
  saveProgress();
  report();
  console.log(`${progress.positions} positions in ${dataPath} (${offset / RECORD_BYTES} records)`);
}

try {
  if (values.export) await exportText();
  else if (values.import) await importText();
  else await generate();
} catch (e) {
  // A refused or cancelled service run, an unreachable service, a bad file: one line, exit 2.
  if (!(e instanceof Error)) fail(String(e));
  fail(e.cause instanceof Error ? `${e.message} (${e.cause.message})` : e.message);
}
