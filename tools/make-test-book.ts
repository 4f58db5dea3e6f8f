// Writes tests/data/book-test.bin, the Polyglot book the tests read, from
// tests/data/book-games.pgn with Debian's polyglot (`polyglot make-book`), so that the book is
// Polyglot's own and not ours. Run with `npx tsx tools/make-test-book.ts`.

import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const pgn = fileURLToPath(new URL("../tests/data/book-games.pgn", import.meta.url));
const bin = fileURLToPath(new URL("../tests/data/book-test.bin", import.meta.url));
const out = execFileSync("/usr/games/polyglot", ["make-book", "-pgn", pgn, "-bin", bin, "-max-ply", "16", "-min-game", "1"], { encoding: "utf8" });
console.log(out.trim().split("\n").slice(-3).join("\n"));
