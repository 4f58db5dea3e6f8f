// Vite configuration for the web app: bundles the page, the engine's Web Worker, both wasm
// builds and the board's sprites into static files (app/dist). `--mode isolated` serves
// (dev and preview) with COOP/COEP headers, so that the page is cross-origin isolated and the
// engine stops through shared memory.

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
    // Relative URLs: the files work from any folder of any static server.
    base: "./",
    resolve: {
      // The app imports the package by name, as any application would; here that name is this
      // repository itself (its package.json "exports" decide what is loaded).
      alias: { wasmchess: fileURLToPath(new URL("..", import.meta.url)) },
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
