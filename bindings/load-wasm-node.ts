// Node's way to compile the engine's wasm: read a file: URL from disk (Node's fetch does not
// read files), fetch any other URL; and the cores the host has. Chosen through package.json
// "imports" (#load-wasm).

import { readFile } from "node:fs/promises";
import { availableParallelism } from "node:os";

/** Compiles the wasm module at url. */
export async function compileWasm(url: URL): Promise<WebAssembly.Module> {
  if (url.protocol === "file:") return WebAssembly.compile(await readFile(url));
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot load the engine wasm from ${url}: HTTP ${response.status}`);
  return WebAssembly.compileStreaming(response);
}

/** The number of cores this process may use (os.availableParallelism). */
export function hostCores(): number {
  return availableParallelism();
}
