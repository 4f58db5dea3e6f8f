// The browser's way to compile the engine's wasm: fetch and compile while it streams (the
// server must send application/wasm). Chosen through package.json "imports" (#load-wasm).

/** Compiles the wasm module at url. */
export async function compileWasm(url: URL): Promise<WebAssembly.Module> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot load the engine wasm from ${url}: HTTP ${response.status}`);
  return WebAssembly.compileStreaming(response);
}
