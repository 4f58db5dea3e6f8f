// The engine worker's channel to its Engine inside a Web Worker. Chosen through package.json
// "imports" (#worker-port); Node's counterpart is worker-port-node.ts.

import type { WorkerPort } from "./worker-channel.js";

interface WorkerScope {
  postMessage(message: unknown): void;
  addEventListener(type: "message", handler: (e: MessageEvent) => void): void;
}

/** The channel to the page (or worker) that started this worker. */
export function openPort<Out, In>(): WorkerPort<Out, In> {
  const scope = globalThis as unknown as WorkerScope;
  return { post: (m) => scope.postMessage(m), listen: (h) => scope.addEventListener("message", (e) => h(e.data as In)) };
}
