// Keeps a copy of the current build under data/engines/NAME, so that later builds can play
// matches against it (the copy runs as `node data/engines/NAME/build/cli.js`).
//
//   npx tsx bench/snapshot.ts NAME [--wasm FILE]
//
// --wasm FILE runs that module in the copy instead of build/wasmchess.wasm (the network build:
// --wasm build/wasmchess-nnue.wasm).

import { cpSync, mkdirSync, readdirSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execFileSync } from "node:child_process";

const name = process.argv[2];
const wasmAt = process.argv.indexOf("--wasm");
const wasm = wasmAt > 0 ? process.argv[wasmAt + 1] : undefined;
if (!name || !/^[\w.-]+$/.test(name)) {
  console.error("usage: npx tsx bench/snapshot.ts NAME (letters, digits, . _ -)");
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
  if (f.endsWith(".js") || f === "wasmchess.wasm") cpSync(join(root, "build", f), join(target, "build", f));
}
if (wasm) cpSync(wasm, join(target, "build", "wasmchess.wasm"));
cpSync(join(root, "package.json"), join(target, "package.json"));
const commit = execFileSync("git", ["-C", root, "describe", "--always", "--dirty"], { encoding: "utf8" }).trim();
writeFileSync(join(target, "SNAPSHOT"), `${commit}\n${new Date().toISOString()}\n${wasm ?? "build/wasmchess.wasm"}\n`);
console.log(`cmd=node,args=${join("data", "engines", name, "build", "cli.js")},name=${name}`);
