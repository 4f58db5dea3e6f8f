// Starts the engine's worker as a module Web Worker. Chosen through package.json "imports"
// (#spawn-worker); Node's counterpart is spawn-worker-node.ts.

import type { WorkerHandle } from "./worker-channel.js";

/** Starts engine-worker.js (or the worker at url) and wires its messages and failures. */
export function spawnWorker<Out, In>(url: URL | undefined, onMessage: (m: In) => void, onFailure: (e: Error) => void): WorkerHandle<Out> {
  // Written out in full so that bundlers (Vite, webpack) find and bundle the worker.
  const w = url ? new Worker(url, { type: "module" }) : new Worker(new URL("./engine-worker.js", import.meta.url), { type: "module" });
  let retired = false; // terminated on purpose: no failure to report
  w.addEventListener("message", (e) => onMessage(e.data as In));
  w.addEventListener("error", (e) => !retired && onFailure(new Error(`engine worker failed: ${e.message}`)));
  return {
    post: (m) => w.postMessage(m),
    terminate: () => {
      retired = true;
      w.terminate();
    },
    keepAlive: () => undefined,
  };
}
