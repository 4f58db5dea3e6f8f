// Starts the engine's worker as a module Web Worker. Chosen through package.json "imports"
// (#spawn-worker); Node's counterpart is spawn-worker-node.ts.

import type { WorkerHandle, WorkerEntry } from "./worker-channel.js";

/** Starts the package's worker `entry` (engine-worker.js, or thread-worker.js for a search's
 *  helper thread), or the worker at url, and wires its messages and failures. */
export function spawnWorker<Out, In>(
  url: URL | undefined, onMessage: (m: In) => void, onFailure: (e: Error) => void, entry: WorkerEntry = "engine",
): WorkerHandle<Out> {
  // Written out in full so that bundlers (Vite, webpack) find and bundle the workers.
  const w = url
    ? new Worker(url, { type: "module" })
    : entry === "thread"
      ? new Worker(new URL("./thread-worker.js", import.meta.url), { type: "module" })
      : new Worker(new URL("./engine-worker.js", import.meta.url), { type: "module" });
  let retired = false; // terminated on purpose: no failure to report
  w.addEventListener("message", (e) => onMessage(e.data as In));
  w.addEventListener("error", (e) => !retired && onFailure(new Error(`${entry} worker failed: ${e.message}`)));
  return {
    post: (m) => w.postMessage(m),
    terminate: () => {
      retired = true;
      w.terminate();
    },
    keepAlive: () => undefined,
  };
}
