// Keeps a copy of the current build under data/engines/NAME, so that later builds can play
// matches against it; prints the match runner's --engine spec for it.
//
//   npx tsx bench/snapshot.ts NAME [--build classical|nnue] [--wasm FILE]
//
// --build picks the evaluation the copy runs (default: the network build where SIMD runs, as
// the CLI does); --wasm FILE is the network build to copy instead of build/wasmchess-nnue.wasm
// (one with another embedded network).

import { cpSync, mkdirSync, readdirSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({ allowPositionals: true, options: { build: { type: "string" }, wasm: { type: "string" } } });
const name = positionals[0];
if (!name || !/^[\w.-]+$/.test(name)) {
  console.error("usage: npx tsx bench/snapshot.ts NAME [--build classical|nnue] [--wasm FILE] (NAME: letters, digits, . _ -)");
  process.exit(2);
}
if (values.build !== undefined && values.build !== "classical" && values.build !== "nnue") {
  console.error("--build must be classical or nnue");
  process.exit(2);
}
const root = new URL("..", import.meta.url).pathname;
const target = join(root, "data", "engines", name);
if (existsSync(target)) {
  console.error(`${target} exists; pick another name`);
  process.exit(2);
}
mkdirSync(join(target, "build"), { recursive: true });
for (const f of readdirSync(join(root, "build"))) {
  if (f.endsWith(".js") || ["wasmchess.wasm", "wasmchess-nnue.wasm", "wasmchess-table.wasm"].includes(f)) cpSync(join(root, "build", f), join(target, "build", f));
}
if (values.wasm) cpSync(values.wasm, join(target, "build", "wasmchess-nnue.wasm"));
cpSync(join(root, "package.json"), join(target, "package.json"));
// The copy's entry: the CLI with the build fixed.
writeFileSync(
  join(target, "run.mjs"),
  (values.build ? `process.env.WASMCHESS_BUILD = ${JSON.stringify(values.build)};\n` : "") + `await import("./build/cli.js");\n`,
);
const commit = execFileSync("git", ["-C", root, "describe", "--always", "--dirty"], { encoding: "utf8" }).trim();
writeFileSync(join(target, "SNAPSHOT"), `${commit}\n${new Date().toISOString()}\nbuild ${values.build ?? "default"}, network build ${values.wasm ?? "build/wasmchess-nnue.wasm"}\n`);
console.log(`cmd=node,args=${join("data", "engines", name, "run.mjs")},name=${name}`);
