// Hashed perft against bulk counting, and against a native hashed perft (hqperft, by Richard
// Delorme: hyperbola quintessence, a hash table of 24-byte entries) with a table of the same
// size, in the same run, on one thread.
//   npm run bench:perft-hash [-- --hash-bits B] [--anchor PATH] [--runs N] [--no-bulk] [--depth N --fen "<FEN>"]
// Defaults: perft(7) and perft(8) of the start position and perft(6) of Kiwipete (the issue's
// cases); tables of 2^21 hqperft entries (48 MB) and our table of the same 48 MB
// (--hash-bits B: 24 · 2^B bytes each, B from 17 to 26). Counts are asserted against the
// Stockfish-computed suite (or the anchor's count for another position) before any time is
// printed. Times are wall-clock, so run it on a quiet machine: ours of the perft call (the
// table's clearing included), the anchor's the time it reports for its perft; the hashed
// runs alternate between the two, best of --runs (default 3); bulk counting runs once.
//
// The anchor is a C program built here from its public source (Debian's gcc; nothing is
// downloaded by this script):
//   git clone https://github.com/abulmo/hqperft && make -C hqperft
// then `--anchor hqperft/hqperft`, HQPERFT=path, or hqperft on the PATH.

import { parseArgs } from "node:util";
import { execFileSync } from "node:child_process";
import { Core } from "../bindings/core.js";
import { findExecutable } from "../match/uci-process.js";
import { PERFT_SUITE, readPerftSuite } from "../match/perft.js";

const { values } = parseArgs({
  options: {
    "hash-bits": { type: "string", default: "21" },
    anchor: { type: "string" },
    "no-bulk": { type: "boolean", default: false },
    runs: { type: "string", default: "3" },
    depth: { type: "string" },
    fen: { type: "string" },
  },
});

const KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const cases = values.fen
  ? [{ name: "custom", fen: values.fen, depth: Number(values.depth ?? 6) }]
  : [
      { name: "startpos", fen: START, depth: 7 },
      { name: "startpos", fen: START, depth: 8 },
      { name: "kiwipete", fen: KIWIPETE, depth: 6 },
    ];
const bits = Number(values["hash-bits"]);
if (!Number.isInteger(bits) || bits < 17 || bits > 26) throw new Error("--hash-bits is an integer from 17 to 26");
const hashMb = (24 * 2 ** bits) / 2 ** 20;
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error("--runs is a positive integer");

const anchorPath = values.anchor ?? process.env.HQPERFT ?? findExecutable("hqperft");
if (values.anchor && !findExecutable(values.anchor)) throw new Error(`--anchor ${values.anchor}: no such executable`);

/** The anchor's count and the time it reports, in ms. */
function runAnchor(fen: string, depth: number): { nodes: bigint; ms: number } {
  const out = execFileSync(anchorPath!, ["--fen", fen, "--depth", String(depth), "--bulk", "--hash", String(bits)], { encoding: "utf8" });
  const m = /perft\s+(\d+)\s*:\s*(\d+) leaves in\s+([\d.]+) s/.exec(out);
  if (!m || Number(m[1]) !== depth) throw new Error(`cannot read the anchor's output:\n${out}`);
  return { nodes: BigInt(m[2]), ms: Number(m[3]) * 1000 };
}

const clock = () => performance.now();
const suite = readPerftSuite(PERFT_SUITE);
const core = await Core.create();
core.setPosition(START);
core.perft(6);
core.perft(6, { hashMb: 16 }); // let the wasm tier up before timing

console.log(`Perft on one thread: bulk counting, and hashed with a ${hashMb} MB table (best of ${runs}); wall-clock times.`);
console.log(anchorPath
  ? `anchor: ${anchorPath}, hashed with 2^${bits} entries of 24 bytes (${hashMb} MB), bulk counting`
  : "anchor missing (no --anchor, HQPERFT or hqperft on the PATH): no ratio against it (see the header of bench/perft-hash.ts)");
console.log("");
const header = ["position", "depth", "nodes", "bulk s", "hashed s", "bulk/hashed", "anchor s", "anchor/ours"];
const rows: string[][] = [];
let failed = false;
for (const c of cases) {
  core.setPosition(c.fen);
  let bulkMs = NaN;
  if (!values["no-bulk"]) {
    const t0 = clock();
    const n = core.perft(c.depth);
    bulkMs = clock() - t0;
    const expected = suite.find((s) => s.fen === core.fen())?.counts[c.depth - 1];
    if (expected !== undefined && n !== expected) {
      console.error(`${c.name} depth ${c.depth}: bulk counting counted ${n}, expected ${expected}`);
      failed = true;
    }
  }
  let nodes = 0n;
  let hashedMs = Infinity;
  let anchor: { nodes: bigint; ms: number } | undefined;
  for (let r = 0; r < runs; r++) {
    const t0 = clock();
    nodes = core.perft(c.depth, { hashMb });
    hashedMs = Math.min(hashedMs, clock() - t0);
    if (!anchorPath) continue;
    const a = runAnchor(c.fen, c.depth);
    anchor = anchor && anchor.ms <= a.ms ? anchor : a;
  }
  const expected = suite.find((s) => s.fen === core.fen())?.counts[c.depth - 1] ?? anchor?.nodes;
  if (expected === undefined) console.log(`${c.name}: no reference count (not in the suite, no anchor): count not asserted`);
  else if (nodes !== expected || (anchor && anchor.nodes !== expected)) {
    console.error(`${c.name} depth ${c.depth}: hashed perft counted ${nodes}, expected ${expected}` + (anchor ? `, the anchor ${anchor.nodes}` : ""));
    failed = true;
    continue;
  }
  const s = (ms: number) => (Number.isNaN(ms) ? "-" : (ms / 1000).toFixed(2));
  rows.push([
    c.name, String(c.depth), String(nodes), s(bulkMs), s(hashedMs),
    Number.isNaN(bulkMs) ? "-" : (bulkMs / hashedMs).toFixed(2) + "x",
    anchor ? s(anchor.ms) : "-", anchor ? (anchor.ms / hashedMs).toFixed(2) + "x" : "-",
  ]);
}
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const fmt = (r: string[]) => r.map((v, i) => (i < 1 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join("  ");
console.log(fmt(header));
for (const r of rows) console.log(fmt(r));
console.log("\nanchor/ours above 1: our hashed perft is faster than the anchor's.");
if (failed) process.exit(1);
