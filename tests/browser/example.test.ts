// The browser example end to end: bundles examples/browser with Vite, serves the bundle on
// localhost (once plain, once cross-origin isolated with COOP/COEP), and drives Debian's
// Chromium through playwright-core: perft, a 2-second search with live info lines, and Stop.
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Browser, Page } from "playwright-core";
import { legalMoves } from "wasmchess";
import { describeWithOracle } from "../helpers/oracles.js";
import { CHROMIUM, ROOT, serveStatic, launchChromium } from "../../bench/app-page.js";
import type { StaticServer } from "../../bench/app-page.js";

const KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const KIWIPETE_PERFT_3 = 97862;
// A quiet middlegame: the 2-second search has real work and no quick mate to end it early.
const MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8";
describeWithOracle("chromium", existsSync(CHROMIUM), "browser example in headless Chromium", () => {
  let dist: string;
  let buildLog: string;
  let browser: Browser;

  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), "wasmchess-example-"));
    const vite = join(ROOT, "node_modules/vite/bin/vite.js");
    const config = join(ROOT, "examples/browser/vite.config.ts");
    const out = await promisify(execFile)(process.execPath, [vite, "build", "--config", config, "--outDir", dist, "--emptyOutDir"], { cwd: ROOT });
    buildLog = out.stdout + out.stderr;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    if (dist) await rm(dist, { recursive: true, force: true });
  });

  it("bundles the page, the worker and the wasm without warnings", async () => {
    expect(buildLog).not.toMatch(/externalized for browser compatibility|\[plugin |\(!\)|warning/i);
    const assets = await readdir(join(dist, "assets"));
    // Both builds are assets; a page fetches one (the network build where SIMD runs).
    const wasm = assets.filter((f) => f.endsWith(".wasm"));
    expect(wasm).toHaveLength(2);
    const contents = await Promise.all(wasm.map((f) => readFile(join(dist, "assets", f))));
    for (const build of ["build/wasmchess.wasm", "build/wasmchess-nnue.wasm"]) {
      const bytes = await readFile(join(ROOT, build));
      expect(contents.some((c) => c.equals(bytes)), build).toBe(true);
    }
    const worker = assets.find((f) => /^engine-worker-.*\.js$/.test(f));
    expect(worker, `no worker chunk in ${assets.join(", ")}`).toBeDefined();
    const workerCode = await readFile(join(dist, "assets", worker!), "utf8");
    for (const f of wasm) expect(workerCode).toContain(f);
    for (const js of assets.filter((f) => f.endsWith(".js"))) {
      expect(await readFile(join(dist, "assets", js), "utf8"), js).not.toMatch(/["']node:/);
    }
  });

  describe.each([
    { mode: "plain page (no SharedArrayBuffer: stop restarts the worker)", isolate: false, stopBoundMs: 500 },
    { mode: "cross-origin isolated page (stop through shared memory)", isolate: true, stopBoundMs: 100 },
  ])("$mode", ({ isolate, stopBoundMs }) => {
    let server: StaticServer;
    let page: Page;
    const errors: string[] = [];

    beforeAll(async () => {
      server = await serveStatic(dist, isolate);
      page = await browser.newPage();
      page.on("pageerror", (e) => errors.push(`page error: ${e.message}`));
      page.on("console", (m) => m.type() === "error" && errors.push(`console: ${m.text()} ${m.location().url}`));
      await page.goto(server.url);
      await page.waitForFunction(() => document.getElementById("status")?.textContent === "ready", null, { timeout: 20_000 });
    });

    afterAll(async () => {
      await page?.close();
      await server?.close();
    });

    async function startSearch(fen: string): Promise<number> {
      await page.fill("input[name=fen]", fen);
      const t = Date.now();
      await page.click("#search");
      return t;
    }

    it("uses shared memory for stop exactly when the page is cross-origin isolated", async () => {
      expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(isolate);
      expect(await page.getAttribute("body", "data-shared-stop")).toBe(String(isolate));
    });

    it("counts perft of a typed FEN", async () => {
      await page.fill("input[name=fen]", KIWIPETE);
      await page.fill("input[name=depth]", "3");
      await page.click("#perft");
      await page.waitForSelector("#perft-result[data-nodes]", { timeout: 10_000 });
      expect(Number(await page.getAttribute("#perft-result", "data-nodes"))).toBe(KIWIPETE_PERFT_3);
    });

    it("searches a typed FEN for 2 seconds, streaming info lines, and shows a legal best move", async () => {
      const started = await startSearch(MIDDLEGAME);
      // Info lines show while the search runs, before the best move.
      await page.waitForFunction(() => (document.getElementById("info")?.textContent ?? "").includes("info depth"), null, { timeout: 5_000 });
      expect(await page.textContent("#bestmove")).toBe("");
      await page.waitForSelector("#bestmove[data-uci]", { timeout: 10_000 });
      const elapsed = Date.now() - started;
      const best = (await page.getAttribute("#bestmove", "data-uci"))!;
      expect(await legalMoves(MIDDLEGAME)).toContain(best);
      expect(elapsed).toBeGreaterThanOrEqual(1900);
      const lines = (await page.textContent("#info"))!.trim().split("\n");
      expect(lines.length).toBeGreaterThanOrEqual(3);
      for (const line of lines) expect(line).toMatch(/^info depth \d+ seldepth \d+ score (cp|mate) -?\d+.* nodes \d+ nps \d+ time \d+ pv [a-h][1-8]/);
      expect(Number(/^info depth (\d+)/.exec(lines.at(-1)!)![1])).toBeGreaterThanOrEqual(5);
    });

    it(`Stop ends a running search within ${stopBoundMs} ms and the engine keeps working`, async () => {
      await page.fill("input[name=depth]", "3");
      await startSearch(KIWIPETE);
      await page.waitForFunction(() => (document.getElementById("info")?.textContent ?? "").includes("info depth"), null, { timeout: 5_000 });
      await page.waitForTimeout(300);
      expect(await page.textContent("#bestmove")).toBe(""); // still searching: 2 s not spent yet
      const clicked = Date.now();
      await page.click("#stop");
      await page.waitForSelector("#search-summary[data-stop-ms]", { timeout: 5_000 });
      const observed = Date.now() - clicked;
      const stopMs = Number(await page.getAttribute("#search-summary", "data-stop-ms"));
      console.log(`browser stop latency (${isolate ? "shared memory" : "worker restart"}): ${stopMs} ms in the page, ${observed} ms seen by the test`);
      expect(stopMs).toBeLessThan(stopBoundMs);
      await page.waitForSelector("#bestmove[data-uci]", { timeout: 5_000 });
      expect(await legalMoves(KIWIPETE)).toContain(await page.getAttribute("#bestmove", "data-uci"));
      // The engine still answers after the stop (without shared memory: a fresh worker).
      await page.waitForFunction(() => document.getElementById("status")?.textContent === "ready");
      await page.click("#perft");
      await page.waitForSelector("#perft-result[data-nodes]", { timeout: 10_000 });
      expect(Number(await page.getAttribute("#perft-result", "data-nodes"))).toBe(KIWIPETE_PERFT_3);
      expect(errors).toEqual([]);
    });
  });
});
