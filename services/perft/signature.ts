// The perft signature: which engine counts a batch. A distributed perft's coordinator and
// workers agree on it, as fishtest's server and workers agree on a bench: it is the package
// version and a hash of the wasm modules a perft runs on, so two builds that could count
// differently never share a queue, and a worker of another version is refused.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { perftModuleUrls } from "#bindings/wasm.js";

/** The engine build that counts batches: perft is the same in both, the classical module is
 *  the smaller one to load. */
export const PERFT_BUILD = "classical";

let cached: string | undefined;

/** "wasmchess-<version>-<12 hex digits of the modules' SHA-256>". */
export function perftSignature(): string {
  if (cached) return cached;
  const { version } = createRequire(import.meta.url)("#package.json") as { version: string };
  const hash = createHash("sha256");
  for (const url of perftModuleUrls(PERFT_BUILD)) hash.update(readFileSync(url));
  cached = `wasmchess-${version}-${hash.digest("hex").slice(0, 12)}`;
  return cached;
}
