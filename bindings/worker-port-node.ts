// The engine worker's channel to its Engine inside a Node worker thread. Chosen through
// package.json "imports" (#worker-port); the browser's counterpart is worker-port-browser.ts.

import { parentPort } from "node:worker_threads";
import type { WorkerPort } from "./worker-channel.js";

/** The channel to the thread that started this worker. */
export function openPort<Out, In>(): WorkerPort<Out, In> {
  const port = parentPort;
  if (!port) throw new Error("engine-worker must run in a worker thread");
  return { post: (m) => port.postMessage(m), listen: (h) => port.on("message", h) };
}
