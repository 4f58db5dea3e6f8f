// Builds the services into build/services/ for the package: one ES module for each file the
// command line or BullMQ loads by URL (the coordinators, the worker, the service, the
// sandboxed processors), with what they share in build/services/chunks/. The services use
// the match library and learn/'s self-play code, which are not compiled into the package on
// their own, so they are bundled here (esbuild); the bindings stay outside the bundle: an
// import of bindings/X.js becomes the package's own `#bindings/X.js` (build/X.js), so the
// services run on the same bindings as the rest of the package. The dashboard's files
// (services/dashboard/) are copied as they are. Type checking is `npm run typecheck`'s.
//
//   npx tsx tools/build-services.ts

import { build } from "esbuild";
import type { Plugin } from "esbuild";
import { basename, dirname, join, resolve } from "node:path";
import { cpSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BINDINGS = join(ROOT, "bindings");
const OUT = join(ROOT, "build", "services");
const ENTRIES = ["perft/coordinator.ts", "perft/processor.ts", "data/processor.ts", "matches/processor.ts", "analysis/processor.ts", "worker.ts", "service.ts"];

const bindingsOutside: Plugin = {
  name: "bindings-outside",
  setup(b) {
    // The package's own imports (#bindings/*, #package.json, ...) resolve at run time.
    b.onResolve({ filter: /^#/ }, (args) => ({ path: args.path, external: true }));
    b.onResolve({ filter: /\/bindings\/[^/]+\.js$/ }, (args) => {
      const file = resolve(args.resolveDir, args.path);
      if (dirname(file) !== BINDINGS) return undefined;
      return { path: `#bindings/${basename(file)}`, external: true };
    });
  },
};

rmSync(OUT, { recursive: true, force: true });
await build({
  entryPoints: ENTRIES.map((e) => join(ROOT, "services", e)),
  outdir: OUT,
  outbase: join(ROOT, "services"),
  bundle: true,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  plugins: [bindingsOutside],
  logLevel: "warning",
});
// The dashboard's page, script and style are served as they are.
cpSync(join(ROOT, "services", "dashboard"), join(OUT, "dashboard"), { recursive: true });
