// The bench search of one wasm build at one depth, for bench/instructions.ts to run under
// valgrind: prints the node count. Run with plain `node`, not tsx.
//   node bench/instructions-probe.mjs FILE.wasm DEPTH

import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const { createInstance } = await import("../build/wasm.js");
const [file, depth] = process.argv.slice(2);
const engine = await createInstance({}, pathToFileURL(resolve(file)));
console.log(String(engine.bench(Number(depth))));
