// Starts the engine's worker as a Node worker thread. Chosen through package.json "imports"
// (#spawn-worker); the browser's counterpart is spawn-worker-browser.ts.

import { Worker } from "node:worker_threads";
import type { WorkerHandle } from "./worker-channel.js";

/** Starts engine-worker.js (or the worker at url) and wires its messages and failures. */
export function spawnWorker<Out, In>(url: URL | undefined, onMessage: (m: In) => void, onFailure: (e: Error) => void): WorkerHandle<Out> {
  const w = new Worker(url ?? new URL("./engine-worker.js", import.meta.url));
  let retired = false; // terminated on purpose: its exit is not a failure
  w.on("message", onMessage);
  w.on("error", (e) => !retired && onFailure(e instanceof Error ? e : new Error(String(e))));
  w.on("exit", (code) => !retired && code !== 0 && onFailure(new Error(`engine worker exited with code ${code}`)));
  return {
    post: (m) => w.postMessage(m),
    terminate: () => {
      retired = true;
      void w.terminate();
    },
    keepAlive: (on) => (on ? w.ref() : w.unref()),
  };
}
