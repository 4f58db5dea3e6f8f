// Perft speed, beside native Stockfish in the same run.
//   npm run bench:perft [-- --depth N] [--fen "<FEN>"] [--runs N] [--sf PATH]... [--cpu]
// Defaults: start position depth 6 and Kiwipete depth 5, against the Stockfish found on the
// PATH or in /usr/games. `--sf PATH` (repeatable) compares with any Stockfish binaries
// instead, e.g. Debian's generic build and one built for this CPU; each reference's
// `compiler` report is printed beside its ratio. Node counts are asserted (against the
// Stockfish-computed suite, or against Stockfish itself for other positions) before any
// speed is printed. Times are wall-clock; with --cpu they are each process's CPU time
// (Linux), which a busy neighbour on a shared machine disturbs far less.

import { parseArgs } from "node:util";
import { Core } from "../bindings/core.js";
import { UciProcess, findExecutable } from "../match/uci-process.js";
import { PERFT_SUITE, readPerftSuite } from "../match/perft.js";
import { processCpuMs } from "../match/cpu-time.js";

const { values } = parseArgs({
  options: {
    depth: { type: "string" },
    fen: { type: "string" },
    runs: { type: "string", default: "3" },
    sf: { type: "string", multiple: true },
    cpu: { type: "boolean", default: false },
  },
});

const KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const cases: { name: string; fen: string; depth: number }[] = values.fen
  ? [{ name: "custom", fen: values.fen, depth: Number(values.depth ?? 5) }]
  : [
      { name: "startpos", fen: START, depth: Number(values.depth ?? 6) },
      { name: "kiwipete", fen: KIWIPETE, depth: Number(values.depth ?? 5) },
    ];
const runs = Math.max(1, Number(values.runs));

/** A reference engine: its process, its `id name` and what its `compiler` command says. */
interface Reference {
  path: string;
  uci: UciProcess;
  name: string;
  compiler: string;
}

/** Stockfish's `compiler` command: "Compiled by ..." and "Compilation settings include: ...",
 *  condensed to one line (empty for engines without the command). */
async function compilerLine(uci: UciProcess): Promise<string> {
  const lines: string[] = [];
  const l = (line: string) => lines.push(line);
  uci.listeners.push(l);
  uci.send("compiler");
  await uci.isReady();
  uci.listeners.splice(uci.listeners.indexOf(l), 1);
  const by = lines.find((x) => x.startsWith("Compiled by"))?.replace(/^Compiled by\s*/, "");
  const settings = lines.find((x) => x.startsWith("Compilation settings"))?.replace(/^Compilation settings include:\s*/, "");
  return [by && `compiled by ${by}`, settings && `settings: ${settings}`].filter(Boolean).join("; ");
}

async function startReference(path: string): Promise<Reference> {
  const uci = new UciProcess(path);
  const name = await uci.init();
  uci.send("setoption name Threads value 1");
  return { path, uci, name, compiler: await compilerLine(uci) };
}

const paths = values.sf ?? [findExecutable("stockfish")].filter((p): p is string => p !== undefined);
for (const p of paths) if (!findExecutable(p)) throw new Error(`--sf ${p}: no such executable`);
const refs: Reference[] = [];
for (const p of paths) refs.push(await startReference(findExecutable(p)!));

const suite = readPerftSuite(PERFT_SUITE);
const core = await Core.create();

const useCpu = values.cpu && processCpuMs("self") !== undefined;
if (values.cpu && !useCpu) console.log("--cpu: no /proc here; wall-clock times instead.");
console.log(`Perft, bulk counting, one thread; best of ${runs} runs each, alternating engines; ${useCpu ? "CPU" : "wall-clock"} times.`);
if (refs.length === 0) console.log("Stockfish is not installed (PATH, /usr/games) and no --sf given: no ratio measured.");
refs.forEach((r, i) => console.log(`sf${i + 1}: ${r.name} (${r.path}), ${r.compiler || "no compiler report"}`));
console.log("");
const header = ["position", "depth", "nodes", "ours ms", "ours Mnps"];
refs.forEach((_, i) => header.push(`sf${i + 1} ms`, `sf${i + 1} Mnps`, `ours/sf${i + 1}`));
const rows: string[][] = [];
let failed = false;

for (const c of cases) {
  core.setPosition(c.fen);
  core.perft(Math.min(c.depth, 4)); // let the wasm tier up before timing
  const known = suite.find((s) => s.fen === core.fen())?.counts[c.depth - 1];
  let ours = Infinity;
  const theirs = refs.map(() => Infinity);
  const theirNodes: bigint[] = [];
  let nodes = 0n;
  for (let r = 0; r < runs; r++) {
    const t0 = useCpu ? processCpuMs("self")! : performance.now();
    nodes = core.perft(c.depth);
    ours = Math.min(ours, (useCpu ? processCpuMs("self")! : performance.now()) - t0);
    for (let i = 0; i < refs.length; i++) {
      const pid = refs[i].uci.pid!;
      const c0 = useCpu ? processCpuMs(pid)! : 0;
      const [n, ms] = await refs[i].uci.perft(`fen ${c.fen}`, c.depth);
      theirNodes[i] = n;
      theirs[i] = Math.min(theirs[i], useCpu ? processCpuMs(pid)! - c0 : ms);
    }
  }
  const expected = known ?? theirNodes[0];
  const disagreeing = theirNodes.findIndex((n) => n !== expected);
  if (expected === undefined) {
    console.log(`${c.name}: no reference count (not in the suite, no Stockfish): count not asserted`);
  } else if (nodes !== expected || disagreeing >= 0) {
    console.error(`${c.name} depth ${c.depth}: counted ${nodes}, expected ${expected}` + (disagreeing >= 0 ? `, sf${disagreeing + 1} counted ${theirNodes[disagreeing]}` : ""));
    failed = true;
    continue;
  }
  const mnps = (n: bigint, ms: number) => (Number(n) / ms / 1000).toFixed(1);
  const row = [c.name, String(c.depth), String(nodes), ours.toFixed(0), mnps(nodes, ours)];
  theirs.forEach((ms) => row.push(ms.toFixed(0), mnps(nodes, ms), (ms / ours).toFixed(2) + "x"));
  rows.push(row);
}
for (const r of refs) await r.uci.quit();

const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const fmt = (r: string[]) => r.map((v, i) => (i < 1 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join("  ");
console.log(fmt(header));
for (const r of rows) console.log(fmt(r));
if (failed) process.exit(1);
