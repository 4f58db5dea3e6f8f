// Start-up and memory of the UCI engine: time from spawning the CLI to `readyok`, stop
// latency of an infinite search, and peak resident memory (VmHWM) after a search.
//   npm run bench:startup [-- --runs 5]

import { parseArgs } from "node:util";
import { readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { UciProcess } from "./uci-process.js";

const { values } = parseArgs({ options: { runs: { type: "string", default: "5" } } });
const CLI = fileURLToPath(new URL("../build/cli.js", import.meta.url));
const WASM = fileURLToPath(new URL("../build/wasmchess.wasm", import.meta.url));

function peakMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

const starts: number[] = [];
const stops: number[] = [];
let peak = 0;
for (let i = 0; i < Number(values.runs); i++) {
  const t0 = performance.now();
  const engine = new UciProcess(process.execPath, [CLI]);
  await engine.init();
  await engine.isReady();
  starts.push(performance.now() - t0);
  engine.send("position startpos");
  engine.send("go infinite");
  await new Promise((r) => setTimeout(r, 1000));
  const s0 = performance.now();
  engine.send("stop");
  await engine.waitFor((l) => l.startsWith("bestmove"));
  stops.push(performance.now() - s0);
  peak = Math.max(peak, peakMb(engine["child"].pid!));
  await engine.quit();
}
const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const wasm = readFileSync(WASM);
console.log(`wasm size            : ${statSync(WASM).size} bytes (${gzipSync(wasm).length} gzipped)`);
console.log(`start-up to readyok  : ${median(starts).toFixed(0)} ms median of ${starts.length} (min ${Math.min(...starts).toFixed(0)})`);
console.log(`stop to bestmove     : ${median(stops).toFixed(1)} ms median (max ${Math.max(...stops).toFixed(1)})`);
console.log(`peak memory (VmHWM)  : ${peak.toFixed(0)} MB after a 1 s search with the default 16 MB hash`);
