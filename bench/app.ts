// The web app's numbers in headless Chromium: the bundle's sizes (raw and gzip -9), which wasm
// the page fetches, the time from opening the page to the engine being ready, the analysis'
// restart after a move and its stop from the page; each timing is the median (and range) of
// --runs fresh page loads, in an ordinary page and in a cross-origin isolated one.
//   npm run bench:app [-- --runs 5]

import { parseArgs } from "node:util";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { buildApp, serveStatic, launchChromium, hasChromium, CHROMIUM } from "./app-page.js";

const { values } = parseArgs({ options: { runs: { type: "string", default: "5" } } });
const RUNS = Number(values.runs);
if (!hasChromium) throw new Error(`${CHROMIUM} is absent (apt-get install chromium)`);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs: number[]) => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;
const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;

const dist = await mkdtemp(join(tmpdir(), "wasmchess-app-bench-"));
await buildApp(dist);
const files = new Map<string, { raw: number; gzip: number }>();
for (const dir of ["", "assets"]) {
  for (const name of await readdir(join(dist, dir), { withFileTypes: true })) {
    if (!name.isFile()) continue;
    const bytes = await readFile(join(dist, dir, name.name));
    files.set(join(dir, name.name), { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
  }
}

const browser = await launchChromium();
const report: string[] = [];
let fetched: string[] = [];
for (const isolate of [false, true]) {
  const ready: number[] = [];
  const restart: number[] = [];
  const stop: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const served = await serveStatic(dist, isolate);
    const context = await browser.newContext(); // a fresh cache each time: a first visit
    const page = await context.newPage();
    await page.goto(served.url);
    await page.waitForSelector("body[data-engine=ready]", { timeout: 30_000 });
    ready.push(Number(await page.getAttribute("body", "data-ready-ms")));
    fetched = served.requests.filter((r) => r.endsWith(".wasm"));
    // Analysis: let it run, play a move, read the restart, let it run, stop it.
    await page.click("#analyse");
    await page.waitForFunction(() => Number(document.getElementById("analysis-panel")!.dataset.depth) >= 8, null, { timeout: 30_000 });
    await page.fill("#move-input", "e4");
    await page.press("#move-input", "Enter");
    await page.waitForFunction(() => {
      const d = document.getElementById("analysis-panel")!.dataset;
      return d.fen?.includes(" b ") && d.restartMs !== undefined;
    }, null, { timeout: 30_000 });
    restart.push(Number(await page.getAttribute("#analysis-panel", "data-restart-ms")));
    await page.waitForTimeout(1000);
    await page.click("#analyse");
    await page.waitForSelector("#analysis-panel[data-stop-ms]", { timeout: 30_000 });
    stop.push(Number(await page.getAttribute("#analysis-panel", "data-stop-ms")));
    await context.close();
    await served.close();
  }
  const mode = isolate ? "cross-origin isolated (shared-memory stop)" : "ordinary page (stop restarts the worker)";
  report.push(
    `${mode}:`,
    `  open to engine ready: median ${median(ready).toFixed(0)} ms (${range(ready)})`,
    `  analysis restart after a move (to the first line): median ${median(restart).toFixed(1)} ms (${range(restart)})`,
    `  analysis stop from the page: median ${median(stop).toFixed(1)} ms (${range(stop)})`,
  );
}
await browser.close();

const sum = (pick: (name: string) => boolean) => {
  let raw = 0;
  let gzip = 0;
  for (const [name, size] of files) if (pick(name)) ((raw += size.raw), (gzip += size.gzip));
  return { raw, gzip };
};
const fetchedNames = fetched.map((f) => f.split("/").pop()!);
const row = (label: string, s: { raw: number; gzip: number }) => `| ${label} | ${kB(s.raw)} | ${kB(s.gzip)} |`;
console.log("| file | raw | gzip -9 |\n| --- | --- | --- |");
for (const [name, size] of [...files].sort()) console.log(row(name, size));
const page = (n: string) => /index-.*\.js$/.test(n);
const worker = (n: string) => /engine-worker-.*\.js$/.test(n);
const downloaded = (n: string) => !n.endsWith(".wasm") || fetchedNames.some((f) => n.endsWith(f));
console.log(row("page script + worker script + the wasm fetched (the example's measure)", sum((n) => page(n) || worker(n) || (n.endsWith(".wasm") && downloaded(n)))));
console.log(row("everything a first visit downloads (html, css, scripts, sprites, one wasm)", sum(downloaded)));
console.log(`\nwasm fetched by the page and its worker: ${[...new Set(fetchedNames)].join(", ")} (${fetched.length} requests)`);
console.log(`runs: ${RUNS} per mode\n${report.join("\n")}`);
await rm(dist, { recursive: true, force: true });
