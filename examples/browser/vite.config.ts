// Vite configuration for the browser example: bundles the page, the engine's Web Worker and
// the wasm. `--mode isolated` serves (dev and preview) with COOP/COEP headers, so that the
// page is cross-origin isolated and stop() works through shared memory.

import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";

const ISOLATION_HEADERS = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
};

export default defineConfig(({ mode }) => {
  const headers = mode === "isolated" ? ISOLATION_HEADERS : {};
  return {
    root: fileURLToPath(new URL(".", import.meta.url)),
    resolve: {
      // The example imports the package by name, as an application would; here that name is
      // this repository itself (its package.json "exports" decide what is loaded).
      alias: { wasmchess: fileURLToPath(new URL("../..", import.meta.url)) },
    },
    // The engine's worker uses top-level await: it must be an ES module worker.
    worker: { format: "es" },
    // Pre-bundling would move the package away from its worker and wasm files.
    optimizeDeps: { exclude: ["wasmchess"] },
    build: { outDir: "dist", emptyOutDir: true, target: "es2022" },
    server: { headers },
    preview: { headers },
  };
});
