// Writes bindings/polyglot-keys.ts: the 781 64-bit Zobrist numbers of the Polyglot opening
// book format (the Random64 table of Polyglot's book_format.html and random.cpp), read out of
// Debian's polyglot program, where they are stored in order as little-endian words. The
// table is found by its first and last numbers as the specification prints them;
// tests/package/books.test.ts checks keys computed with it against the specification's examples.
// Run with `npx tsx tools/polyglot-keys.ts [path of polyglot]` (default /usr/games/polyglot).

import { readFileSync, writeFileSync } from "node:fs";

const FIRST = 0x9d39247e33776d41n;
const LAST = 0xf8d626aaaf278509n;
const COUNT = 781;

const path = process.argv[2] ?? "/usr/games/polyglot";
const bytes = readFileSync(path);
const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
let start = -1;
for (let i = 0; i + COUNT * 8 <= bytes.length; i++) {
  if (view.getBigUint64(i, true) === FIRST && view.getBigUint64(i + (COUNT - 1) * 8, true) === LAST) {
    start = i;
    break;
  }
}
if (start < 0) {
  console.error(`${path}: no Polyglot Random64 table found (first ${FIRST.toString(16)}, last ${LAST.toString(16)})`);
  process.exit(1);
}
const words: string[] = [];
for (let k = 0; k < COUNT; k++) words.push(`0x${view.getBigUint64(start + k * 8, true).toString(16).padStart(16, "0")}n`);
const lines: string[] = [];
for (let k = 0; k < COUNT; k += 4) lines.push(`  ${words.slice(k, k + 4).join(", ")},`);
writeFileSync(
  new URL("../bindings/polyglot-keys.ts", import.meta.url),
  `// The Polyglot book format's Zobrist numbers (Random64[781]): 768 for the pieces (index\n` +
    `// 64 * kind + 8 * row + file, kind 0 black pawn, 1 white pawn, ..., 10 black king, 11 white\n` +
    `// king), 4 for the castling rights (white O-O, white O-O-O, black O-O, black O-O-O), 8 for the\n` +
    `// en-passant file, 1 for white to move. A fixed published table, not ours to generate: written\n` +
    `// by tools/polyglot-keys.ts from ${path}; do not edit.\n\n` +
    `export const POLYGLOT_RANDOM: readonly bigint[] = [\n${lines.join("\n")}\n];\n`,
);
console.log(`bindings/polyglot-keys.ts: ${COUNT} numbers from ${path} at offset ${start}`);
