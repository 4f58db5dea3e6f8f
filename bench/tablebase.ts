// The Syzygy prober measured: agreement with Fathom on seeded random positions of every table
// given (any difference is printed with its FEN and fails the run), WDL probes per second
// with the engine's block cache empty (cold) and full (warm), and the search's nodes per
// second with the tables against without on positions a few captures away from them.
//
//   npx tsx bench/tablebase.ts [--tables app/public/syzygy/3-4] [--tables data/syzygy/5]
//       [--agree 1000] [--seed 7] [--speed 200] [--nps-nodes 300000] [--only KRPvKR,KBNvK]
//       [--against OTHER.wasm] [--cache-kb 4096] [--rss]
//
// --agree N: N positions per table written by tools/syzygy-oracle.ts with Fathom's answers
// (its oracle program is built by tools/syzygy-tables.sh) into data/tablebase/, then every one
// compared with the engine (WDL, DTZ, each move's WDL and DTZ); 0 skips it. --speed N: N
// positions per table probed; "cold" is the first pass on a fresh engine (every block read
// through hostTbRead; the files may be in the OS's page cache, which this does not drop),
// "warm" the second. --nps-nodes: the node budget of each search in the nodes-per-second
// comparison (the classical build, one thread). --only: the named tables alone are sampled (all
// those given are loaded), so that a set can be checked in parts as it is generated.
// --against: another classical build (an earlier commit's build/wasmchess.wasm, copied aside)
// whose warm probes, and nodes per second with the tables, are measured in the same run in
// turn with this build's, and the ratios printed: a speed change of the prober side by side.
// --cache-kb: the size of the engine's block cache in both measures (default 4096).
// --rss: the memory of the UCI engine a user runs (node build/cli.js, Hash 16, the network
// build): its peak and private resident memory after searching the nodes-per-second
// positions (--nps-nodes each) without the tables and with them, and Stockfish's (found on
// PATH or in /usr/games) with the same options and searches as the anchor; Stockfish maps
// the files, so the pages of them it touched count in its resident memory.

import { parseArgs } from "node:util";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Core } from "../bindings/core.js";
import { createInstance, buildUrl } from "../bindings/wasm.js";
import { SyzygyFiles } from "../bindings/syzygy.js";
import { engineAnswer, makeRandom, randomPosition, tablesIn } from "../tools/syzygy-oracle.js";
import { findExecutable, UciProcess } from "../match/uci-process.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const { values } = parseArgs({
  options: {
    tables: { type: "string", multiple: true, default: [join(ROOT, "app/public/syzygy/3-4")] },
    agree: { type: "string", default: "1000" },
    seed: { type: "string", default: "7" },
    speed: { type: "string", default: "200" },
    "nps-nodes": { type: "string", default: "300000" },
    only: { type: "string", default: "" },
    against: { type: "string" },
    "cache-kb": { type: "string" },
    rss: { type: "boolean", default: false },
  },
});
const dirs = values.tables!.map((d) => resolve(d));
const syzygyPath = dirs.join(":");
const seed = Number(values.seed) >>> 0;
const only = values.only!.split(",").filter(Boolean);
const tables = dirs.flatMap(tablesIn).filter((t) => only.length === 0 || only.includes(t));
const unknown = only.filter((t) => !tables.includes(t));
if (unknown.length) throw new Error(`--only: no table ${unknown.join(", ")} in ${syzygyPath}`);
console.log(`tables: ${tables.length} in ${syzygyPath}; seed ${seed}`);

/** A fresh classical instance (of another build's file if given) with the tables registered. */
async function prober(file?: string): Promise<{ w: Awaited<ReturnType<typeof createInstance>>; files: SyzygyFiles; bare: number }> {
  const files = new SyzygyFiles();
  const w = await createInstance({ hostTbRead: files.read }, file ? pathToFileURL(resolve(file)) : buildUrl("classical"));
  const bare = w.memory.buffer.byteLength;
  const load = files.load(w, syzygyPath);
  if (values["cache-kb"]) w.tbSetCacheKb(Number(values["cache-kb"]));
  if (load.errors.length) throw new Error(`tables refused: ${load.errors.join("; ")}`);
  return { w, files, bare };
}

// ---------------------------------------------------------------- agreement
const perTable = Number(values.agree);
if (perTable > 0) {
  mkdirSync(join(ROOT, "data/tablebase"), { recursive: true });
  const part = only.length ? `-only-${createHash("sha1").update(only.join(",")).digest("hex").slice(0, 8)}` : "";
  const out = join(ROOT, `data/tablebase/agree-${seed}-${perTable}${part}.jsonl`);
  const t0 = performance.now();
  const gen = spawnSync("npx", ["tsx", "tools/syzygy-oracle.ts", ...dirs.flatMap((d) => ["--tables", d]), "--per-table", String(perTable), "--seed", String(seed), "--out", out,
    ...(only.length ? ["--only", only.join(",")] : [])],
    { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
  if (gen.status !== 0) throw new Error("tools/syzygy-oracle.ts failed");
  const lines = readFileSync(out, "utf8").trim().split("\n").slice(1).map((l) => JSON.parse(l) as { table: string; fen: string });
  const { w, files } = await prober();
  let differ = 0;
  for (const line of lines) {
    const { table, ...expected } = line;
    const got = engineAnswer(w, line.fen);
    if (JSON.stringify(got) !== JSON.stringify(expected)) {
      if (++differ <= 20) console.log(`DIFFERENT ${table} ${line.fen}\n  fathom ${JSON.stringify(expected)}\n  engine ${JSON.stringify(got)}`);
    }
  }
  files.close();
  console.log(`agreement: ${lines.length - differ} of ${lines.length} positions equal Fathom's WDL, DTZ and every move's (${tables.length} tables, ` +
    `${((performance.now() - t0) / 1000).toFixed(0)} s with the oracle)${differ ? `: ${differ} DIFFER` : ""}`);
  if (differ) process.exitCode = 1;
}

// ---------------------------------------------------------------- probe speed
const perTableSpeed = Number(values.speed);
if (perTableSpeed > 0) {
  const core = await Core.create({ build: "classical", hashMb: 1 });
  const random = makeRandom(seed ^ 0x5eed);
  const fens: string[] = [];
  for (const table of tables) {
    for (let i = 0; i < perTableSpeed; i++) {
      const fen = randomPosition(core, random, table, i % 2 === 0, false);
      if (fen) fens.push(fen);
    }
  }
  core.dispose();
  // Shuffled, as a search meets them.
  for (let i = fens.length - 1; i > 0; i--) {
    const j = random(i + 1);
    [fens[i], fens[j]] = [fens[j], fens[i]];
  }
  type Prober = Awaited<ReturnType<typeof prober>>;
  const pass = ({ w }: Prober, probe: boolean): number => {
    const t = performance.now();
    for (const fen of fens) {
      w.setFen(fen);
      if (probe && w.tbProbeWdl() === w.TB_PROBE_FAILED.value) throw new Error(`probe failed: ${fen}`);
    }
    return performance.now() - t;
  };
  const ours = await prober();
  const { w, files, bare } = ours;
  const setOnly = Math.min(pass(ours, false), pass(ours, false));
  const cold = pass(ours, true) - setOnly;
  const warm = Math.min(pass(ours, true), pass(ours, true)) - setOnly;
  const rate = (ms: number) => Math.round((fens.length / ms) * 1000).toLocaleString("en");
  if (values.against) {
    const other = await prober(values.against);
    pass(other, true); // its cold pass
    const otherSetOnly = Math.min(pass(other, false), pass(other, false));
    let a = 0;
    let b = 0;
    for (let round = 0; round < 5; round++) {
      a += pass(ours, true) - setOnly;
      b += pass(other, true) - otherSetOnly;
    }
    other.files.close();
    console.log(`warm WDL probes against ${values.against}, 5 rounds ABAB: ${rate(a / 5)}/s against ${rate(b / 5)}/s, ${(b / a).toFixed(3)}x`);
  }
  files.close();
  const mib = (b: number) => (b / 2 ** 20).toFixed(1);
  console.log(`WDL probes: ${fens.length} positions; cold ${rate(cold)}/s (${cold.toFixed(0)} ms), warm ${rate(warm)}/s (${warm.toFixed(0)} ms); ` +
    `block cache ${w.tbCacheKb()} KiB; the instance's memory (no hash table yet) ${mib(bare)} MiB without tables, ` +
    `${mib(w.memory.buffer.byteLength)} MiB after every table was probed`);
}

// ---------------------------------------------------------------- nodes per second
const npsNodes = Number(values["nps-nodes"]);
// Two pieces more than the largest table (a pawn each): the tables come in after captures.
const largest = Math.max(...tables.map((t) => t.length - 1));
const materials = tables.filter((t) => t.length - 1 === largest).map((t) => t.replace("v", "Pv") + "P");

/** 20 seeded random positions of those materials, the searches' positions. */
async function searchPositions(): Promise<string[]> {
  const core = await Core.create({ build: "classical", hashMb: 1 });
  const random = makeRandom(seed ^ 0xa11);
  const fens: string[] = [];
  for (let i = 0; fens.length < 20 && i < 400; i++) {
    const fen = randomPosition(core, random, materials[random(materials.length)], i % 2 === 0, false);
    if (fen) fens.push(fen);
  }
  core.dispose();
  return fens;
}

if (npsNodes > 0) {
  const fens = await searchPositions();
  const core = await Core.create({ build: "classical", hashMb: 16 });
  const other = values.against ? await Core.create({ hashMb: 16, wasmUrl: pathToFileURL(resolve(values.against)) }) : null;
  const run = (engine: Core, withTables: boolean) => {
    engine.setSyzygyPath(withTables ? syzygyPath : "");
    if (values["cache-kb"]) engine.exports.tbSetCacheKb(Number(values["cache-kb"]));
    let nodes = 0;
    let ms = 0;
    let tbhits = 0;
    for (const fen of fens) {
      engine.newGame();
      engine.setPosition(fen);
      let hits = 0;
      const r = engine.search({ nodes: npsNodes }, { onInfo: (i) => (hits = i.tbhits) });
      nodes += r.nodes;
      ms += r.timeMs;
      tbhits += hits;
    }
    return { nps: (nodes / ms) * 1000, tbhits };
  };
  const rounds = [0, 1].map(() => ({ off: run(core, false), on: run(core, true), other: other ? run(other, true) : null }));
  core.dispose();
  other?.dispose();
  const mean = (f: (r: (typeof rounds)[number]) => number) => (f(rounds[0]) + f(rounds[1])) / 2;
  const off = mean((r) => r.off.nps);
  const on = mean((r) => r.on.nps);
  const hits = rounds[0].on.tbhits + rounds[1].on.tbhits;
  const n = (x: number) => Math.round(x).toLocaleString("en");
  console.log(`nodes per second, ${fens.length} positions of ${largest + 2} pieces (${materials.length} materials), ${npsNodes} nodes each, ABAB: ` +
    `without tables ${n(off)}, with ${n(on)} (${(on / off).toFixed(3)}×; ${hits} tbhits)`);
  if (other) {
    const theirs = mean((r) => r.other!.nps);
    console.log(`  ${values.against} with the tables, in the same rounds: ${n(theirs)} (${(theirs / off).toFixed(3)}× this build's without; ${rounds[0].other!.tbhits + rounds[1].other!.tbhits} tbhits)`);
  }
}

// ---------------------------------------------------------------- the UCI process's memory
if (values.rss) {
  if (npsNodes <= 0) throw new Error("--rss searches --nps-nodes nodes a position: give it more than 0");
  const fens = await searchPositions();
  /** Peak and private resident MB of an engine after searching every position. */
  const memoryOf = async (command: string, args: string[], path: string) => {
    const engine = new UciProcess(command, args, ROOT);
    await engine.init();
    engine.setOption("Hash", "16");
    if (path) engine.setOption("SyzygyPath", path);
    await engine.isReady();
    let searchHits = 0; // the tbhits of the search's last info line
    engine.listeners.push((l) => {
      const m = / tbhits (\d+)/.exec(l);
      if (m) searchHits = Number(m[1]);
    });
    let hits = 0;
    for (const fen of fens) {
      searchHits = 0;
      engine.send("ucinewgame");
      engine.send(`position fen ${fen}`);
      engine.send(`go nodes ${npsNodes}`);
      await engine.waitFor((l) => l.startsWith("bestmove"), 120_000);
      hits += searchHits;
    }
    const peak = engine.memoryMb("VmHWM");
    const anon = engine.memoryMb("RssAnon");
    await engine.quit();
    return { peak, anon, hits };
  };
  const mb = (x: number) => x.toFixed(1);
  const line = (name: string, off: Awaited<ReturnType<typeof memoryOf>>, on: Awaited<ReturnType<typeof memoryOf>>) =>
    console.log(`  ${name}: peak resident ${mb(off.peak)} MB without tables, ${mb(on.peak)} MB with (${mb(on.peak - off.peak)} more); ` +
      `private ${mb(off.anon)} and ${mb(on.anon)} MB (${mb(on.anon - off.anon)} more; ${on.hits} tbhits)`);
  console.log(`UCI process memory, Hash 16, after ${fens.length} searches of ${npsNodes} nodes (positions of ${largest + 2} pieces):`);
  line("WasmChess (node build/cli.js)", await memoryOf(process.execPath, ["build/cli.js"], ""), await memoryOf(process.execPath, ["build/cli.js"], syzygyPath));
  const stockfish = findExecutable("stockfish");
  if (stockfish) line(`Stockfish (${stockfish})`, await memoryOf(stockfish, [], ""), await memoryOf(stockfish, [], syzygyPath));
  else console.log("  stockfish not found (PATH, /usr/games): no anchor");
}
