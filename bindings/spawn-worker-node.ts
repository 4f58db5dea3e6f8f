// Starts the engine's worker as a Node worker thread. Chosen through package.json "imports"
// (#spawn-worker); the browser's counterpart is spawn-worker-browser.ts.

import { Worker } from "node:worker_threads";
import type { WorkerHandle, WorkerEntry } from "./worker-channel.js";

/** Starts the package's worker `entry` (engine-worker.js, or thread-worker.js for a search's
 *  helper thread), or the worker at url, and wires its messages and failures. */
export function spawnWorker<Out, In>(
  url: URL | undefined, onMessage: (m: In) => void, onFailure: (e: Error) => void, entry: WorkerEntry = "engine",
): WorkerHandle<Out> {
  const w = new Worker(url ?? (entry === "thread" ? new URL("./thread-worker.js", import.meta.url) : new URL("./engine-worker.js", import.meta.url)));
  let retired = false; // terminated on purpose: its exit is not a failure
  w.on("message", onMessage);
  w.on("error", (e) => !retired && onFailure(e instanceof Error ? e : new Error(String(e))));
  w.on("exit", (code) => !retired && code !== 0 && onFailure(new Error(`${entry} worker exited with code ${code}`)));
  return {
    post: (m) => w.postMessage(m),
    terminate: () => {
      retired = true;
      void w.terminate();
    },
    keepAlive: (on) => (on ? w.ref() : w.unref()),
  };
}
