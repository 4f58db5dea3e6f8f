// Starts a worker thread on a TypeScript module: the learning tools run under tsx, whose
// loader worker threads do not inherit, so the worker registers it before importing.

import { Worker, WorkerOptions } from "node:worker_threads";

/** A worker running the TypeScript module at url. */
export function startTsWorker(url: URL, options: WorkerOptions = {}): Worker {
  const boot = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}
