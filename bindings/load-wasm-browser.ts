// The browser's way to compile the engine's wasm: fetch and compile while it streams (the
// server must send application/wasm); and the cores the host has. Chosen through package.json
// "imports" (#load-wasm).

/** Compiles the wasm module at url. */
export async function compileWasm(url: URL): Promise<WebAssembly.Module> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot load the engine wasm from ${url}: HTTP ${response.status}`);
  return WebAssembly.compileStreaming(response);
}

/** The number of cores the browser reports (navigator.hardwareConcurrency; 1 when it does not). */
export function hostCores(): number {
  return Math.max(1, globalThis.navigator?.hardwareConcurrency ?? 1);
}
