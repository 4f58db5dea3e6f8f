#!/usr/bin/env node
// The UCI engine on stdin/stdout (the package's bin and `npm start`). The protocol runs on
// this thread; the search runs in a worker thread, so input is always read.

import { createInterface } from "node:readline";
import { readFileSync, writeFileSync } from "node:fs";
import { Engine } from "./engine.js";
import { UciSession } from "./uci.js";
import { collectIfGrown, limitYoungGeneration } from "./idle-gc.js";

// WASMCHESS_BUILD=classical runs the hand-crafted evaluation (default: the network build
// where the host has wasm SIMD).
const build = process.env.WASMCHESS_BUILD;
if (build !== undefined && build !== "nnue" && build !== "classical") {
  process.stderr.write(`WASMCHESS_BUILD must be nnue or classical, not ${JSON.stringify(build)}\n`);
  process.exit(2);
}
// --tune offers the search's tunable parameters as UCI options (bench/spsa.ts tunes them).
const unknown = process.argv.slice(2).filter((a) => a !== "--tune");
if (unknown.length > 0) {
  process.stderr.write(`unknown argument ${JSON.stringify(unknown[0].slice(0, 60))}; the only one is --tune\n`);
  process.exit(2);
}
const tune = process.argv.includes("--tune");
// open(): commands are read as soon as the in-thread rules instance is up; the worker starts
// after the first readyok (or the first command that needs it, which waits for it).
limitYoungGeneration();
const engine = await Engine.open({ build });
const session = new UciSession(engine, (line) => {
  process.stdout.write(line + "\n");
  if (line === "readyok") engine.startWorker();
  if (line.startsWith("bestmove")) setImmediate(collectIfGrown);
}, {
  readFile: (path) => readFileSync(path),
  writeFile: (path, bytes) => writeFileSync(path, bytes),
  tune,
});
const input = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });

async function quit(): Promise<void> {
  input.close();
  await session.quit();
  process.exit(0);
}

input.on("line", (line) => {
  if (!session.handle(line)) void quit();
});
input.on("close", () => void quit());
