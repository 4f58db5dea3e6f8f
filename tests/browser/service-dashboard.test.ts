// The service's dashboard in headless Chromium, on a real service, worker and redis-server:
// it asks for the token (and refuses a wrong one), shows the worker online and a data run, a
// test match, a game analysis and a perft live until they are done (progress, positions per
// second, W/L/D, Elo, the LLR chart, marks and unreadable games, the perft's count), shows every
// text as text (a worker named with HTML), and logs no console error. Screenshots of them in
// progress and done go to app/screenshots/ (git-ignored).
import { afterAll, beforeAll, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { ROOT, hasChromium, launchChromium } from "../../bench/app-page.js";
import { REDIS_SERVER } from "../../match/redis-server.js";
import { describeWithOracle } from "../helpers/oracles.js";
import { TOKEN, serviceFixture } from "../helpers/service.js";
import { perft } from "../../build/index.js";

const SHOTS = join(ROOT, "app/screenshots");
const STRANGE_NAME = "<b>w1</b>&amp;";

describeWithOracle("chromium", hasChromium && existsSync(REDIS_SERVER), "the service's dashboard in Chromium", () => {
  const f = serviceFixture("dashboard");
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
  });

  async function open(url: string, token: string): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const errors: string[] = [];
    page.on("console", (m) => m.type() === "error" && errors.push(`console: ${m.text()}`));
    page.on("pageerror", (e) => errors.push(`page: ${e.message}`));
    await page.goto(`${url}/#token=${encodeURIComponent(token)}`);
    return { page, errors };
  }

  it("shows the workers and the runs live, as text, until they are done", async () => {
    const { url } = await f.startService();
    f.worker(STRANGE_NAME, "data,match,analysis,perft", ["--cores", "2", "--hash", "16"]);
    const engine = await f.upload(url, "engines", new Uint8Array(readFileSync(join(ROOT, "build/wasmchess.wasm"))), "classical");

    const wrong = await open(url, "not-the-token");
    await wrong.page.waitForSelector("#login-error:has-text('wrong token')");
    await wrong.page.close();

    const { page, errors } = await open(url, TOKEN);
    await page.waitForSelector(`#workers tbody tr`);
    expect(await page.textContent("#workers tbody td")).toBe(STRANGE_NAME);
    expect(await page.$$eval("#workers td b", (b) => b.length)).toBe(0);

    expect((await f.api(url, "POST", "/api/runs", {
      kind: "match", id: "t1", games: 200, pairsPerTask: 2, limits: { nodes: 600 }, openings: "builtin", sprt: { elo0: 0, elo1: 50 },
      engines: [{ name: "full", engine, options: { Hash: 1 } }, { name: "skill0", engine, options: { Hash: 1, "Skill Level": 0 } }],
    })).status).toBe(201);
    expect((await f.api(url, "POST", "/api/runs", {
      kind: "data", id: "d1", engine, positions: 2000, chunkGames: 2, settings: { nodes: 400, seed: 3, hashMb: 1 },
    })).status).toBe(201);
    const pgn = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n1. e4 e5 2. Ke3 *\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 *\n";
    expect((await f.api(url, "POST", "/api/runs", { kind: "analysis", id: "a1", engine, pgn, nodes: 20_000 })).status).toBe(201);
    expect((await f.api(url, "POST", "/api/runs", { kind: "perft", id: "p1", depth: 5 })).status).toBe(201);

    await page.waitForSelector(`[data-run="t1"] .chart canvas`, { timeout: 60_000 });
    await page.waitForSelector(`[data-run="d1"] .facts:has-text("positions/s")`);
    await page.screenshot({ path: join(SHOTS, "service-running.png"), fullPage: true });
    await page.waitForSelector(`[data-run="t1"] .state:has-text("done")`, { timeout: 120_000 });
    expect(await page.textContent(`[data-run="t1"] .facts`)).toMatch(/H1 accepted/);
    await page.waitForSelector(`[data-run="d1"] .state:has-text("done")`, { timeout: 120_000 });
    const data = await page.textContent(`[data-run="d1"] .facts`);
    expect(data).toMatch(/positions \d[\d,]* \/ 2,000/);
    expect(await page.getAttribute(`[data-run="d1"] progress`, "value")).toBe("1");
    await page.waitForSelector(`[data-run="a1"] .state:has-text("done")`, { timeout: 120_000 });
    expect(await page.textContent(`[data-run="a1"] .facts`)).toMatch(/games 2 \/ 2.*unreadable 1 \(game 2\)/);
    await page.waitForSelector(`[data-run="p1"] .state:has-text("done")`, { timeout: 120_000 });
    const perft5 = await perft("startpos", 5);
    expect(await page.textContent(`[data-run="p1"] .facts`)).toMatch(new RegExp(`perft ${perft5.toLocaleString("en-US")}(?![\\d,])`));
    await page.screenshot({ path: join(SHOTS, "service-done.png"), fullPage: true });
    expect(await page.textContent("#connection")).toBe("live");
    expect(errors).toEqual([]);
  }, 300_000);
});
