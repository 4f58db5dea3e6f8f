// The start-up phases of the UCI engine, timed inside a fresh Node process (bench/startup.ts
// --breakdown runs it): the steps build/cli.js takes, one at a time, with the same modules.
// Prints one JSON line of epoch milliseconds; run with plain `node`, not tsx.

import { Worker } from "node:worker_threads";

const now = () => performance.timeOrigin + performance.now();
const marks = { processStart: performance.timeOrigin, firstLine: now() };

await import("../build/engine.js");
await import("../build/uci.js");
marks.modules = now();

const { loadModule, createInstance } = await import("../build/wasm.js");
await loadModule();
marks.compile = now();
await createInstance();
marks.rulesInstance = now();

// The worker's own steps (engine-worker.js: its modules, then Core.create), told apart.
const workerCode = `
  const now = () => performance.timeOrigin + performance.now();
  const { parentPort } = await import("node:worker_threads");
  const marks = { workerFirstLine: now() };
  await import(${JSON.stringify(new URL("../build/core.js", import.meta.url).href)});
  await import(${JSON.stringify(new URL("../build/protocol.js", import.meta.url).href)});
  const { loadModule, createInstance } = await import(${JSON.stringify(new URL("../build/wasm.js", import.meta.url).href)});
  marks.workerModules = now();
  await loadModule();
  marks.workerCompile = now();
  await createInstance();
  marks.workerInstance = now();
  parentPort.postMessage(marks);
`;
marks.workerSpawn = now();
const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(workerCode)}`));
Object.assign(marks, await new Promise((resolve, reject) => worker.once("message", resolve).once("error", reject)));
await worker.terminate();
console.log(JSON.stringify(marks));
