// The code signature: which program plays a job. Self-play records and match games depend on
// the worker's own JavaScript (the game driver, the bindings) as well as on the engine it
// runs, so a job kind whose results must be the same wherever they are made has one queue per
// code signature: the package version and a hash of the package's JavaScript. A coordinator
// and its workers agree on it as fishtest's server and workers agree on a version; a worker
// of another build takes nothing of its runs. (The engines themselves are named apart, by the
// SHA-256 of their wasm: engines.ts.)

import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";

let cached: string | undefined;

/** The JavaScript files under dir that the package ships (not asc's generated wasmchess-*.js
 *  nor the trainer's), recursively, in name order. */
function scripts(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...scripts(path));
    else if (entry.name.endsWith(".js") && !/^(wasmchess-|wasmchess\.js$|trainer)/.test(entry.name)) out.push(path);
  }
  return out;
}

/** "wasmchess-<version>-<12 hex digits of the SHA-256 of the package's build/**.js>". */
export function codeSignature(): string {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const packageFile = require.resolve("#package.json");
  const { version } = require(packageFile) as { version: string };
  const build = join(dirname(packageFile), "build");
  const hash = createHash("sha256");
  for (const file of scripts(build)) {
    hash.update(relative(build, file));
    hash.update(readFileSync(file));
  }
  cached = `wasmchess-${version}-${hash.digest("hex").slice(0, 12)}`;
  return cached;
}
