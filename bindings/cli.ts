#!/usr/bin/env node
// The package's command line (its bin, and `npm start`): `wasmchess [uci]`, the UCI engine on
// stdin/stdout (the default command), `wasmchess perft` (here, or on the workers of a Redis
// queue with --redis), `wasmchess worker` (a worker of the services' queues) and `wasmchess
// service` (the coordinator of the services' runs, with its HTTP API). --help and --version answer as
// command-line programs do; a usage error is one line on stderr and exit status 2, a bad
// position or a failed run one line and exit status 1. Each command's module is loaded only
// when it runs, so the UCI engine starts as fast as it did alone.

import { createRequire } from "node:module";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { HASH_MIN_MB, HASH_MAX_MB, MAX_PERFT_DEPTH, START_FEN, THREADS_MAX } from "./core.js";

const { version } = createRequire(import.meta.url)("../package.json") as { version: string };

/** An integer option's parser: from min to max, or a usage error that says so. */
function integer(name: string, min: number, max: number): (text: string) => number {
  return (text) => {
    const n = Number(text);
    if (!/^\s*-?\d+\s*$/.test(text) || n < min || n > max) throw new InvalidArgumentError(`${name} is an integer from ${min} to ${max}.`);
    return n;
  };
}

// WASMCHESS_BUILD=classical runs the hand-crafted evaluation (default: the network build
// where the host has wasm SIMD).
const build = process.env.WASMCHESS_BUILD;
if (build !== undefined && build !== "nnue" && build !== "classical") {
  process.stderr.write(`wasmchess: WASMCHESS_BUILD must be nnue or classical, not ${JSON.stringify(build)}\n`);
  process.exit(2);
}

const program = new Command("wasmchess")
  .description("A chess engine in WebAssembly: the UCI engine (the default command), perft, and the service and worker of jobs on Redis.")
  .version(version, "-V, --version", "print the version")
  .helpOption("-h, --help", "show this help")
  .showSuggestionAfterError()
  .exitOverride()
  .configureOutput({ outputError: (text, write) => write(`wasmchess: ${text.trim().replace(/^error: /, "").replace(/\s*\n\s*/g, " ")}\n`) });

program
  .command("uci", { isDefault: true })
  .description("the UCI engine on stdin/stdout (the default command)")
  .option("--tune", "offer the search's tunable parameters as UCI options (bench/spsa.ts)")
  .option("--wasm <file>", "run this engine module instead of the package's (a build of another commit: it must export what these bindings call)")
  .action(async (opts: { tune?: boolean; wasm?: string }) => {
    const { runUci } = await import("./cli-uci.js");
    await runUci({ tune: opts.tune === true, build: build as "nnue" | "classical" | undefined, wasm: opts.wasm });
  });

/** The services' modules, which this file loads by URL: they are compiled after the bindings
 *  (into build/services/), from the bindings' own declarations. */
const SERVICES = new URL("./services/", import.meta.url);

interface PerftOptions {
  depth: number; fen: string; hash?: number; threads?: number; divide?: boolean; chess960?: boolean; verify?: boolean; progress: boolean;
  redis?: string; run?: string; splitPly?: number; batches?: number;
}

program
  .command("perft")
  .description("count the leaves of the legal move tree to a depth; a progress bar on a terminal, a line of JSON last")
  .requiredOption("-d, --depth <n>", `depth, 1 to ${MAX_PERFT_DEPTH}`, integer("--depth", 1, MAX_PERFT_DEPTH))
  .option("-f, --fen <fen>", "the position (default: the start position)", START_FEN)
  .option("-H, --hash <mb>", `hashed perft with a table of this many MB (${HASH_MIN_MB} to ${HASH_MAX_MB})`, integer("--hash", HASH_MIN_MB, HASH_MAX_MB))
  .option("-t, --threads <n>", `threads (1 to ${THREADS_MAX})`, integer("--threads", 1, THREADS_MAX))
  .option("--divide", "print each root move's count first, as go perft does")
  .option("--chess960", "read the FEN as Chess960 (X-FEN or Shredder-FEN castling)")
  .option("--verify", "count a second time with other Zobrist keys and compare (root move by root move; with --redis, batch by batch)")
  .option("--redis <url>", "count on the workers of this Redis (wasmchess worker) instead of here")
  .option("--run <id>", "with --redis: the run's id; the same id again continues a stopped run")
  .option("--split-ply <n>", "with --redis: split into the unique positions this many plies down (default: depth - 3, at most 4)", integer("--split-ply", 0, 5))
  .option("--batches <n>", "with --redis: queue the positions in this many batches (default: about 2 s of counting each, at least 32)", integer("--batches", 1, 100_000))
  .addOption(new Option("--no-progress", "no progress bar, even on a terminal"))
  .action(async (opts: PerftOptions, command: Command) => {
    const progress = opts.progress && process.stderr.isTTY === true;
    if (opts.redis !== undefined) {
      for (const [flag, given] of [["--hash", opts.hash], ["--threads", opts.threads], ["--divide", opts.divide]] as const) {
        if (given !== undefined) command.error(`${flag} is not an option of a perft on Redis: the workers count (wasmchess worker --threads N --hash MB)`);
      }
      const { runDistributedPerft } = (await import(new URL("perft/coordinator.js", SERVICES).href)) as {
        runDistributedPerft(cmd: { redis: string; depth: number; fen: string; chess960: boolean; verify: boolean; run?: string; splitPly?: number; batches?: number; progress: boolean }): Promise<void>;
      };
      await runDistributedPerft({
        redis: opts.redis, depth: opts.depth, fen: opts.fen, chess960: opts.chess960 === true, verify: opts.verify === true,
        run: opts.run, splitPly: opts.splitPly, batches: opts.batches, progress,
      });
    } else {
      for (const [flag, given] of [["--run", opts.run], ["--split-ply", opts.splitPly], ["--batches", opts.batches]] as const) {
        if (given !== undefined) command.error(`${flag} needs --redis`);
      }
      const { runPerft } = await import("./cli-perft.js");
      await runPerft({
        depth: opts.depth, fen: opts.fen, hash: opts.hash, threads: opts.threads ?? 1, divide: opts.divide === true,
        chess960: opts.chess960 === true, verify: opts.verify === true, progress,
      });
    }
    process.exit(0); // the threads' workers and Redis connections are gone; nothing else to wait for
  });

program
  .command("worker")
  .description("a worker of the services' jobs on Redis, until interrupted")
  .requiredOption("--redis <url>", "the Redis of the queues (redis://host:port)")
  .option("--kinds <list>", "the job kinds it takes, comma-separated: perft, data, match, analysis", "perft,data,match,analysis")
  .option("-c, --cores <n>", `cores it gives: jobs at once (perft: threads, unless --threads) (1 to ${THREADS_MAX})`, integer("--cores", 1, THREADS_MAX), 1)
  .option("-t, --threads <n>", `perft threads (1 to ${THREADS_MAX}; default: --cores)`, integer("--threads", 1, THREADS_MAX))
  .option("-H, --hash <mb>", `the perft table, in MB (${HASH_MIN_MB} to ${HASH_MAX_MB})`, integer("--hash", HASH_MIN_MB, HASH_MAX_MB), 64)
  .option("--name <name>", "the worker's name in the queue (default: host-pid)")
  .option("--stall-seconds <n>", "a job whose worker is silent this long goes to another", integer("--stall-seconds", 1, 3600), 30)
  .action(async (opts: { redis: string; kinds: string; cores: number; threads?: number; hash: number; name?: string; stallSeconds: number }, command: Command) => {
    const { runWorker, parseKinds } = (await import(new URL("worker.js", SERVICES).href)) as {
      parseKinds(text: string): string[];
      runWorker(cmd: { redis: string; kinds: string[]; cores: number; threads?: number; hashMb: number; name?: string; stallSeconds: number }): Promise<void>;
    };
    let kinds: string[] = [];
    try {
      kinds = parseKinds(opts.kinds);
    } catch (err) {
      command.error((err as Error).message);
    }
    await runWorker({ redis: opts.redis, kinds, cores: opts.cores, threads: opts.threads, hashMb: opts.hash, name: opts.name, stallSeconds: opts.stallSeconds });
    process.exit(0);
  });

program
  .command("service")
  .description("the services' coordinator, HTTP API and dashboard")
  .requiredOption("--redis <url>", "the Redis of the queues (redis://host:port)")
  .option("--host <host>", "the address it listens on", "127.0.0.1")
  .option("-p, --port <n>", "the port it listens on (0: any free one)", integer("--port", 0, 65535), 8080)
  .option("--token <token>", "the token every API call must give (default: WASMCHESS_TOKEN, else a new one, printed)")
  .option("--data <dir>", "where data runs write their records", "wasmchess-data")
  .action(async (opts: { redis: string; host: string; port: number; token?: string; data: string }, command: Command) => {
    const token = opts.token ?? process.env.WASMCHESS_TOKEN;
    if (token !== undefined && !/^[\x21-\x7e]{8,200}$/.test(token)) command.error("--token: 8 to 200 printable characters without spaces");
    const { runService } = (await import(new URL("service.js", SERVICES).href)) as {
      runService(cmd: { redis: string; host: string; port: number; token?: string; dataDir: string }): Promise<void>;
    };
    await runService({ redis: opts.redis, host: opts.host, port: opts.port, token, dataDir: opts.data });
    process.exit(0);
  });

try {
  await program.parseAsync();
} catch (err) {
  if (err instanceof CommanderError) {
    // --help and --version print and end with 0; usage errors have printed their line.
    process.exit(err.exitCode === 0 ? 0 : 2);
  }
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`wasmchess: ${message.split("\n")[0]}\n`);
  process.exit(1);
}
