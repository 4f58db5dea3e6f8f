// Writes build/net-embedded.ts, the default network as static data of the network build
// (assembly/index-nnue.ts imports it). Without a file argument it writes an empty network,
// and the build evaluates with the hand-crafted evaluation.
//
//   npx tsx tools/embed-net.ts [nets/<name>.nnue]

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";

const file = process.argv[2];
const bytes = file ? readFileSync(file) : Buffer.alloc(0);
const out = new URL("../build/net-embedded.ts", import.meta.url);
mkdirSync(new URL(".", out), { recursive: true });
const data = bytes.length ? `memory.data<u8>([${Array.from(bytes).join(",")}], 16)` : "0";
writeFileSync(
  out,
  `// Written by tools/embed-net.ts from ${file ?? "no network"}; do not edit.\n` +
    `export const NET_BYTES: usize = ${data};\nexport const NET_LENGTH: i32 = ${bytes.length};\n`,
);
console.log(`${out.pathname}: ${bytes.length} bytes from ${file ?? "no network"}`);
