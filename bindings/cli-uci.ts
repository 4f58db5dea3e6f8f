// `wasmchess uci` (the default command): the UCI engine on stdin/stdout. The protocol runs on
// this thread; the search runs in a worker thread, so input is always read.

import { createInterface } from "node:readline";
import { readFileSync, writeFileSync } from "node:fs";
import { Engine } from "./engine.js";
import { UciSession } from "./uci.js";
import { collectIfGrown, limitYoungGeneration } from "./idle-gc.js";

/** Runs the UCI engine until `quit` or the end of input. `tune` offers the search's tunable
 *  parameters as UCI options (bench/spsa.ts tunes them); `build` is the evaluation build
 *  (default: the network build where the host has wasm SIMD). */
export async function runUci(options: { tune: boolean; build?: "nnue" | "classical" }): Promise<void> {
  // open(): commands are read as soon as the in-thread rules instance is up; the worker starts
  // after the first readyok (or the first command that needs it, which waits for it).
  limitYoungGeneration();
  const engine = await Engine.open({ build: options.build });
  const session = new UciSession(engine, (line) => {
    process.stdout.write(line + "\n");
    if (line === "readyok") engine.startWorker();
    if (line.startsWith("bestmove")) setImmediate(collectIfGrown);
  }, {
    readFile: (path) => readFileSync(path),
    writeFile: (path, bytes) => writeFileSync(path, bytes),
    tune: options.tune,
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
}
