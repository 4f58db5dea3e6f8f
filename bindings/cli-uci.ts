// `wasmchess uci` (the default command): the UCI engine on stdin/stdout. The protocol runs on
// this thread; the search runs in a worker thread, so input is always read.

import { createInterface } from "node:readline";
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Engine } from "./engine.js";
import { Core } from "./core.js";
import { UciSession } from "./uci.js";
import { collectIfGrown, limitYoungGeneration } from "./idle-gc.js";

/** Runs the UCI engine until `quit` or the end of input. `tune` offers the search's tunable
 *  parameters as UCI options (bench/spsa.ts tunes them); `build` is the evaluation build
 *  (default: the network build where the host has wasm SIMD); `wasm`, a module file to run
 *  instead. */
export async function runUci(options: { tune: boolean; build?: "nnue" | "classical"; wasm?: string }): Promise<void> {
  const wasmUrl = options.wasm === undefined ? undefined : pathToFileURL(resolve(options.wasm));
  if (wasmUrl) {
    // Another module: it must be an engine these bindings can drive, or the command ends here
    // with the reason (not at the first search, after the handshake).
    if (!WebAssembly.validate(readFileSync(wasmUrl))) throw new Error(`${options.wasm} is not a WebAssembly module`);
    try {
      (await Core.create({ wasmUrl, hashMb: 1 })).dispose();
    } catch (err) {
      throw new Error(`${options.wasm} is not an engine these bindings can run: ${err instanceof Error ? err.message : err}`);
    }
  }
  // open(): commands are read as soon as the in-thread rules instance is up; the worker starts
  // after the first readyok (or the first command that needs it, which waits for it).
  limitYoungGeneration();
  const engine = await Engine.open({ build: options.build, wasmUrl });
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
