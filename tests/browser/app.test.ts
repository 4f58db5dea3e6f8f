// The web app (app/) end to end in headless Chromium, driven as a person would: the mouse
// drags and clicks pieces (castling, promotions, hints, highlights), keys step through the
// moves and type them, the engine replies at a level and takes a move back, the analysis
// shows its evaluation and lines and restarts on every move, a PGN with comments and
// variations is pasted, navigated, extended and saved, a bad FEN shows the engine's error,
// perft counts, the tablebase panel answers for four pieces, and the page fits a phone. Once
// in an ordinary page, once cross-origin isolated (shared-memory stop). No console error is
// allowed. Screenshots of the main states go to app/screenshots/ (git-ignored).
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { mkdtemp, mkdir, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { Game, Engine, parsePgn, legalMoves, perft, chess960StartFen } from "../../build/index.js";
import { buildApp, serveStatic, launchChromium, hasChromium, ROOT } from "../../bench/app-page.js";
import type { StaticServer } from "../../bench/app-page.js";
import { describeWithOracle } from "../helpers/oracles.js";

const SHOTS = join(ROOT, "app/screenshots");
const KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/** Chess960 start 96 (BBQNRNKR): White's king on g1 beside its rook, one knight in the way. */
const C960_NUMBER = 96;
/** A Chess960 position (king b1, rooks a1 and h1) that reads only in Chess960 mode. */
const C960_FEN = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1";
/** Black to move without its queen: White's side is far better. */
const NO_BLACK_QUEEN = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1";
const BAD_FEN = "rnbqkbnr/pppppppp/8/8/8/8P/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/** King and pawn against king, White to move: a win, with drawing moves too. */
const KPVK = "8/8/8/4k3/8/8/3KP3/8 w - - 0 1";
const PGN = `[Event "Casual"]
[White "Anna"]
[Black "Ben"]
[Result "1-0"]

{A short game.} 1. e4 e5 2. Nf3 Nc6 {the usual} 3. Bb5 (3. Bc4 Bc5 {Giuoco Piano} 4. c3) 3... a6 4. Ba4 Nf6 5. O-O $1 Be7 1-0
`;

/** FEN after SAN moves from a FEN, by the engine's rules in Node. */
async function fenAfter(sans: readonly string[], fen = START, chess960 = false): Promise<string> {
  const game = await Game.create(fen, { chess960 });
  for (const san of sans) game.play(san);
  return game.fen();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

describeWithOracle("chromium", hasChromium, "web app in headless Chromium", () => {
  let dist: string;
  let buildLog: string;
  let browser: Browser;
  /** The tables the app ships, probed in Node: what the panel must show. */
  let tablebaseOracle: Engine;

  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), "wasmchess-app-"));
    buildLog = await buildApp(dist);
    browser = await launchChromium();
    await mkdir(SHOTS, { recursive: true });
    tablebaseOracle = await Engine.create({ build: "classical", hashMb: 1, syzygyPath: join(ROOT, "app/public/syzygy/3-4") });
  });

  afterAll(async () => {
    await tablebaseOracle?.dispose();
    await browser?.close();
    if (dist) await rm(dist, { recursive: true, force: true });
  });

  it("builds into static files: the page, the worker, both wasm builds and the board's sprites", async () => {
    expect(buildLog).not.toMatch(/\[plugin |\(!\)|warning/i);
    const files = await readdir(join(dist, "assets"));
    expect(files.filter((f) => f.endsWith(".wasm"))).toHaveLength(2);
    expect(files.some((f) => /^engine-worker-.*\.js$/.test(f))).toBe(true);
    for (const sprite of ["standard", "markers", "arrows"]) expect(files.some((f) => f.startsWith(sprite) && f.endsWith(".svg")), sprite).toBe(true);
    expect(await readFile(join(dist, "index.html"), "utf8")).toContain('src="./assets/'); // relative: any folder works
  });

  describe.each([
    { mode: "ordinary page (stop restarts the worker)", isolate: false, stopBoundMs: 500 },
    { mode: "cross-origin isolated page (stop through shared memory)", isolate: true, stopBoundMs: 100 },
  ])("$mode", ({ isolate, stopBoundMs }) => {
    let served: StaticServer;
    let context: BrowserContext;
    let page: Page;
    const errors: string[] = [];
    const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${isolate ? "isolated" : "plain"}-${name}.png`), fullPage: true });

    beforeAll(async () => {
      served = await serveStatic(dist, isolate);
      context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: served.url.slice(0, -1) });
      page = await context.newPage();
      page.on("pageerror", (e) => errors.push(`page error: ${e.message}`));
      page.on("console", (m) => m.type() === "error" && errors.push(`console: ${m.text()} ${m.location().url}`));
      await page.goto(served.url);
      await page.waitForSelector("body[data-engine=ready]", { timeout: 20_000 });
    });

    afterAll(async () => {
      await context?.close();
      await served?.close();
    });

    // ---- the person's tools: the mouse on the board, the keyboard, what the page shows

    async function center(square: string): Promise<{ x: number; y: number }> {
      const box = (await page.locator(`#board rect[data-square="${square}"]`).boundingBox())!;
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    }

    async function drag(from: string, to: string): Promise<void> {
      const a = await center(from);
      const b = await center(to);
      await page.mouse.move(a.x, a.y);
      await page.mouse.down();
      await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 3 });
      await page.mouse.move(b.x, b.y, { steps: 3 });
      await page.mouse.up();
    }

    async function clickSquare(square: string): Promise<void> {
      const a = await center(square);
      await page.mouse.click(a.x, a.y);
    }

    async function clickMove(from: string, to: string): Promise<void> {
      await clickSquare(from);
      await clickSquare(to);
    }

    async function typeMove(san: string): Promise<void> {
      await page.fill("#move-input", san);
      await page.press("#move-input", "Enter");
    }

    const boardFen = () => page.getAttribute("#board", "data-fen");
    /** Waits until the board shows fen and its pieces and squares stand still (as a person
     *  waits to see a move land, or the board turn, before the next move). */
    const waitFen = (fen: string) =>
      page.waitForSelector(`#board[data-fen="${fen}"]:not([data-moving]):not([data-turning])`, { timeout: 10_000 });
    const mainLine = () => page.$$eval("#move-list > .move", (els) => els.map((e) => e.textContent));

    async function setFen(fen: string): Promise<void> {
      await page.fill("#fen", fen);
      await page.click("#set-fen");
      await waitFen(fen);
    }

    it("starts the engine in a Web Worker and fetches the network build, with the stop that fits the page", async () => {
      expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(isolate);
      expect(await page.getAttribute("body", "data-shared-stop")).toBe(String(isolate));
      // Chromium runs wasm SIMD: the page asks for the network build, not the classical one.
      expect(await page.getAttribute("body", "data-build")).toBe("nnue");
      const wasm = served.requests.filter((r) => r.endsWith(".wasm"));
      expect(wasm.length).toBeGreaterThan(0);
      expect(wasm.every((r) => /\/wasmchess-nnue-[\w-]+\.wasm$/.test(r)), wasm.join(", ")).toBe(true);
      expect(await page.getAttribute("body", "data-wasm")).toMatch(/^wasmchess-nnue-/);
      expect(await boardFen()).toBe(START);
      expect(await page.locator("#board .pieces g[data-piece]").count()).toBe(32);
      expect(await page.textContent("#game-status")).toBe("White to move.");
      console.log(`app ready (${isolate ? "isolated" : "plain"}): ${await page.getAttribute("body", "data-ready-ms")} ms after navigation`);
      await shot("01-start");
    });

    it("plays a game by dragging and by clicking: hints, last move, castling both ways of input, check, keyboard navigation", async () => {
      await setFen(START);
      await drag("e2", "e4");
      await waitFen(await fenAfter(["e4"]));
      expect(await page.getAttribute("#board", "data-last-move")).toBe("e2e4");
      // A click on a piece shows its legal moves; the second click plays one.
      await clickSquare("e7");
      await expect.poll(() => page.locator("#board .markers use.marker-dot").count()).toBe(2);
      await clickSquare("e5");
      await waitFen(await fenAfter(["e4", "e5"]));
      expect(await page.locator("#board .markers use.marker-dot").count()).toBe(0);
      const sans = ["e4", "e5"];
      const moves: [string, () => Promise<void>][] = [
        ["Nf3", () => drag("g1", "f3")],
        ["Nf6", () => clickMove("g8", "f6")],
        ["Bc4", () => clickMove("f1", "c4")],
        ["Bc5", () => drag("f8", "c5")],
        ["O-O", () => drag("e1", "g1")], // castling by dragging the king
        ["O-O", () => clickMove("e8", "g8")], // and by clicking
        ["d3", () => typeMove("d3")], // and by typing
        ["Bxf2+", () => clickMove("c5", "f2")],
      ];
      for (const [san, move] of moves) {
        await move();
        sans.push(san);
        await waitFen(await fenAfter(sans));
      }
      expect(await page.getAttribute("#board", "data-check")).toBe("g1");
      expect(await page.locator("#board .markers use.marker-check").count()).toBe(1);
      await shot("02-check");
      await drag("f1", "f2");
      sans.push("Rxf2");
      await waitFen(await fenAfter(sans));
      expect(await mainLine()).toEqual(sans);
      expect(await page.getAttribute("#board", "data-check")).toBe("");
      // An illegal drop changes nothing.
      await drag("f2", "f8");
      await page.waitForTimeout(200);
      expect(await boardFen()).toBe(await fenAfter(sans));
      // Keys: back, forward, start, end.
      await page.locator("body").click({ position: { x: 5, y: 5 } });
      await page.keyboard.press("ArrowLeft");
      await waitFen(await fenAfter(sans.slice(0, -1)));
      await page.keyboard.press("ArrowLeft");
      await waitFen(await fenAfter(sans.slice(0, -2)));
      await page.keyboard.press("ArrowRight");
      await waitFen(await fenAfter(sans.slice(0, -1)));
      await page.keyboard.press("Home");
      await waitFen(START);
      await page.keyboard.press("End");
      await waitFen(await fenAfter(sans));
      await page.keyboard.press("f");
      expect(await page.getAttribute("#board", "data-orientation")).toBe("b");
      await page.keyboard.press("f");
      expect(await page.getAttribute("#board", "data-orientation")).toBe("w");
      await page.waitForSelector("#board:not([data-turning])");
    });

    it("promotes by drag and by click through the promotion dialog", async () => {
      const fen = "3k4/1P6/8/8/8/8/6p1/3K4 w - - 0 1";
      await setFen(fen);
      await drag("b7", "b8");
      await page.waitForSelector(".promotion-dialog-button-group[data-piece=wn]");
      await shot("03-promotion");
      await page.locator(".promotion-dialog-button-group[data-piece=wn]").click();
      await waitFen(await fenAfter(["b8=N"], fen));
      await clickMove("g2", "g1");
      await page.waitForSelector(".promotion-dialog-button-group[data-piece=bq]");
      await page.locator(".promotion-dialog-button-group[data-piece=bq]").click();
      await waitFen(await fenAfter(["b8=N", "g1=Q+"], fen));
      expect(await mainLine()).toEqual(["b8=N", "g1=Q+"]);
      expect(await page.getAttribute("#board", "data-check")).toBe("d1");
    });

    it("types moves (SAN) and shows a draw by the rules: threefold repetition", async () => {
      await setFen(START);
      const shuffle = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"];
      for (const san of shuffle) await typeMove(san);
      await waitFen(await fenAfter(shuffle));
      expect(await page.textContent("#game-status")).toBe("Draw by threefold repetition.");
      // A move that is not legal is refused with the engine's words, and nothing changes.
      const refusal = await (async () => {
        const game = await Game.create();
        for (const san of shuffle) game.play(san);
        try {
          game.play("Ke2");
        } catch (e) {
          return (e as Error).message;
        }
        return "";
      })();
      expect(refusal).toMatch(/Ke2/);
      await typeMove("Ke2");
      await expect.poll(() => page.textContent("#move-message")).toBe(refusal);
      expect(await page.inputValue("#move-input")).toBe("Ke2");
      expect(await mainLine()).toEqual(shuffle);
    });

    it("plays the engine at an Elo level: the engine plays at that strength, replies, a move is taken back, the game is resigned", async () => {
      await page.selectOption("#play-form select[name=side]", "w");
      expect(await page.$$eval("#play-form select[name=level] option", (els) => els.map((e) => e.textContent)))
        .toEqual(["1000 Elo", "1200 Elo", "1400 Elo", "1600 Elo", "1800 Elo", "2000 Elo", "2100 Elo", "Full strength"]);
      await page.selectOption("#play-form select[name=level]", "1000");
      await page.selectOption("#play-form select[name=time-control]", "none");
      await page.selectOption("#play-form select[name=start]", "standard");
      await page.click("#new-game");
      await waitFen(START);
      await page.waitForSelector("body[data-play=your-move]");
      // The engine's strength() after the game's setElo: 1000 Elo, a low fractional skill level.
      await page.waitForSelector("#play-info[data-elo='1000']", { timeout: 10_000 });
      const skill = Number(await page.getAttribute("#play-info", "data-skill-level"));
      expect(skill).toBeGreaterThanOrEqual(0);
      expect(skill).toBeLessThan(5);
      expect(await page.textContent("#play-info")).toBe(`The engine plays at 1000 Elo (skill level ${skill.toFixed(1)} of 20).`);
      await drag("e2", "e4");
      await page.waitForFunction(() => document.querySelectorAll("#move-list > .move").length === 2, null, { timeout: 15_000 });
      await page.waitForSelector("body[data-play=your-move]");
      const [, reply] = (await mainLine()) as string[];
      expect(await boardFen()).toBe(await fenAfter(["e4", reply]));
      // The engine's side cannot be moved by the user.
      expect(await page.getAttribute("#board", "data-input")).toBe("w");
      await page.click("#takeback");
      await waitFen(START);
      expect(await mainLine()).toEqual([]);
      await clickMove("d2", "d4");
      await page.waitForFunction(() => document.querySelectorAll("#move-list > .move").length === 2, null, { timeout: 15_000 });
      await page.waitForSelector("body[data-play=your-move]");
      await shot("04-play");
      await page.click("#resign");
      await page.waitForSelector("body[data-play=over]");
      expect(await page.textContent("#game-status")).toBe("White resigned.");
      expect(await page.textContent("#move-list .result")).toBe("0-1");
    });

    it("plays the engine with clocks: the engine moves first for the user's Black, and the clocks run", async () => {
      await page.selectOption("#play-form select[name=side]", "b");
      await page.selectOption("#play-form select[name=level]", "1200");
      await page.selectOption("#play-form select[name=time-control]", "3+2");
      await page.click("#new-game");
      await page.waitForSelector("body[data-play=your-move]", { timeout: 15_000 });
      expect(await page.getAttribute("#play-info", "data-elo")).toBe("1200");
      expect(await page.getAttribute("#board", "data-orientation")).toBe("b");
      expect((await mainLine()).length).toBe(1);
      expect(await page.isVisible("#clock-bottom.running")).toBe(true);
      expect(await page.getAttribute("#clock-bottom", "data-side")).toBe("b");
      // White's clock got its 2 s increment after the engine's move.
      const white = (await page.textContent("#clock-top"))!;
      expect(white).toMatch(/^3:0[0-2]$/);
      await typeMove("e6");
      await page.waitForFunction(() => document.querySelectorAll("#move-list > .move").length === 3, null, { timeout: 15_000 });
      await page.waitForSelector("body[data-play=your-move]");
      // The user's clock runs down while they think.
      const mine = await page.textContent("#clock-bottom");
      await page.waitForTimeout(1100);
      expect(await page.textContent("#clock-bottom")).not.toBe(mine);
      await shot("05-clocks");
      await page.click("#resign");
      await page.waitForSelector("body[data-play=over]");
      expect(await page.isVisible("#clock-bottom.running")).toBe(false);
      await page.keyboard.press("f"); // back to White's view for the next tests
      await page.waitForSelector("#board[data-orientation=w]:not([data-turning])");
    });

    it("plays Chess960 from a numbered start: castling by putting the king onto its rook or on its square, PGN with Variant, analysis in Chess960 mode", async () => {
      const start = chess960StartFen(C960_NUMBER);
      await page.selectOption("#play-form select[name=side]", "w");
      await page.selectOption("#play-form select[name=level]", "1000");
      await page.selectOption("#play-form select[name=time-control]", "none");
      await page.selectOption("#play-form select[name=start]", "chess960");
      await page.fill("#play-form input[name=chess960-number]", String(C960_NUMBER));
      await page.click("#new-game");
      await waitFen(start);
      await page.waitForSelector("body[data-play=your-move]");
      expect(await page.getAttribute("#play-info", "data-chess960")).toBe(String(C960_NUMBER));
      await drag("f1", "g3");
      await page.waitForFunction(() => document.querySelectorAll("#move-list > .move").length === 2, null, { timeout: 15_000 });
      await page.waitForSelector("body[data-play=your-move]");
      const [, reply] = (await mainLine()) as string[];
      // The king has no square to go to but its rook's: it is put onto the rook (g1h1).
      await drag("g1", "h1");
      await page.waitForFunction(() => document.querySelectorAll("#move-list > .move").length === 4, null, { timeout: 15_000 });
      await page.waitForSelector("body[data-play=your-move]");
      const line = (await mainLine()) as string[];
      expect(line.slice(0, 3)).toEqual(["Ng3", reply, "O-O"]);
      expect(await boardFen()).toBe(await fenAfter(line, start, true));
      expect((await boardFen())!.split(" ")[0].split("/")[7]).toBe("BBQNRRK1"); // rook f1, king g1
      await page.click("#resign");
      await page.waitForSelector("body[data-play=over]");
      await page.click("#copy-pgn");
      await expect.poll(() => page.textContent("#pgn-message")).toBe("PGN copied to the clipboard.");
      const pgn = await page.evaluate(() => navigator.clipboard.readText());
      expect(pgn).toContain('[Variant "Chess960"]');
      expect(pgn).toContain(`[FEN "${start}"]`);
      expect(pgn).toMatch(/2\. O-O /);
      const [read] = await parsePgn(pgn);
      expect(read.chess960).toBe(true);
      expect(read.moves().map((m) => m.san)).toEqual(line);
      await page.selectOption("#play-form select[name=start]", "standard");

      // A FEN that reads only as Chess960 is set in Chess960 mode; the king castles by going
      // to its square (b1 to g1: O-O) and by a click on its rook (b8 then a8: O-O-O).
      await setFen(C960_FEN);
      expect(await page.textContent("#play-info")).toBe(""); // the game is closed
      await page.locator("#board").scrollIntoViewIfNeeded(); // the PGN buttons scrolled it away
      await drag("b1", "g1");
      await waitFen(await fenAfter(["O-O"], C960_FEN, true));
      await clickMove("b8", "a8");
      const castled = await fenAfter(["O-O", "O-O-O"], C960_FEN, true);
      expect(castled).toBe("2kr3r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w - - 2 2");
      await waitFen(castled);
      expect(await mainLine()).toEqual(["O-O", "O-O-O"]);
      // The analysis reads the Chess960 position (standard mode would refuse its castling
      // rights) and its lines are legal Chess960 moves.
      await page.locator("#move-list > .move").first().click();
      await waitFen(await fenAfter(["O-O"], C960_FEN, true));
      await page.click("#analyse");
      await page.waitForFunction(() => Number(document.getElementById("analysis-panel")!.dataset.depth) >= 4, null, { timeout: 15_000 });
      const sans = await page.$$eval("#pv-lines li.pv-line:first-child .pv-move", (els) => els.map((e) => e.textContent!));
      const game = await Game.create(C960_FEN, { chess960: true });
      game.play("O-O");
      for (const san of sans) game.play(san);
      expect(await page.locator("#move-message.error").count()).toBe(0); // no engine error shown
      await page.click("#analyse");
      await page.waitForSelector("#analysis-panel[data-state=off]");
    });

    it("shows the engine's win/draw/loss from White's view under the evaluation", async () => {
      await setFen(NO_BLACK_QUEEN);
      expect(await page.textContent("#an-wdl")).toBe("–");
      await page.click("#analyse");
      await page.waitForFunction(() => Number(document.getElementById("analysis-panel")!.dataset.depth) >= 6, null, { timeout: 15_000 });
      // One look (the page redraws with every info line).
      const { text, data, label } = await page.evaluate(() => {
        const el = document.getElementById("an-wdl")!;
        return { text: el.textContent!, data: el.dataset.wdl!, label: el.getAttribute("aria-label")! };
      });
      expect(text).toMatch(/^W \d+% D \d+% L \d+%$/);
      const [w, d, l] = data.split(" ").map(Number);
      expect(w + d + l).toBeGreaterThanOrEqual(998);
      expect(w + d + l).toBeLessThanOrEqual(1002);
      // Black to move a queen down: the engine's wdl is Black's, and White's view turns it round.
      expect(w).toBeGreaterThan(l);
      expect(text).toBe(`W ${Math.round(w / 10)}% D ${Math.round(d / 10)}% L ${Math.round(l / 10)}%`);
      expect(label).toMatch(/^White wins \d+%, draw \d+%, Black wins \d+%$/);
      await shot("10-wdl");
      await page.click("#analyse");
      await expect.poll(() => page.textContent("#an-wdl")).toBe("–");
    });

    it("analyses: evaluation, depth, speed and lines update, restart on every move, a line plays, stop is quick", async () => {
      await setFen(START);
      // The page never freezes: no task on its thread takes long while the engine analyses.
      await page.evaluate(() => {
        const w = window as unknown as { longTasks: number[] };
        w.longTasks = [];
        new PerformanceObserver((list) => list.getEntries().forEach((e) => w.longTasks.push(e.duration))).observe({ type: "longtask" });
      });
      await page.selectOption("#multipv", "3");
      await page.click("#analyse");
      await page.waitForFunction(() => {
        const d = document.getElementById("analysis-panel")!.dataset;
        return Number(d.depth) >= 5 && d.lines === "3";
      }, null, { timeout: 15_000 });
      expect(await page.getAttribute("#eval-bar", "data-score")).toMatch(/^([+-]?\d+\.\d\d|#-?\d+)$/);
      expect(await page.textContent("#an-nps")).toMatch(/^[\d.]+[kM]?\/s$/);
      // One look at the page (it redraws with every line the engine reports).
      const { lines, arrow } = await page.evaluate(() => ({
        lines: [...document.querySelectorAll("#pv-lines li.pv-line")].map((e) => [...e.querySelectorAll(".pv-move")].map((b) => b.textContent)),
        arrow: document.getElementById("board")!.dataset.arrows!,
      }));
      expect(lines).toHaveLength(3);
      // The arrow shows the first line's move; each line is SAN of legal moves.
      expect(await legalMoves(START)).toContain(arrow);
      const first = await Game.create();
      expect(lines[0][0]).toBe(first.legalMoves().find((m) => m.uci === arrow)!.san);
      for (const line of lines) {
        const g = await Game.create();
        for (const san of line) g.play(san!);
      }
      await shot("06-analysis");

      // Every move restarts the analysis on the new position at once.
      const restarts: number[] = [];
      const played = ["e4", "c5", "Nf3"];
      for (let i = 0; i < played.length; i++) {
        const fen = await fenAfter(played.slice(0, i + 1));
        await typeMove(played[i]);
        await page.waitForFunction((f) => {
          const d = document.getElementById("analysis-panel")!.dataset;
          return d.fen === f && d.restartMs !== undefined && Number(d.depth) >= 1;
        }, fen, { timeout: 5_000 });
        restarts.push(Number(await page.getAttribute("#analysis-panel", "data-restart-ms")));
        expect(await page.getAttribute("#eval-bar", "data-score")).toBeTruthy();
        await page.waitForTimeout(300);
      }
      console.log(`analysis restart, move to the new position's first line (${isolate ? "isolated" : "plain"}): ${restarts.join(", ")} ms`);
      // The aim is 200 ms (printed above, not asserted: timings on a shared machine are noise).
      // A restart that waited for the old analysis would never come (it is infinite) and time
      // out above; the bound catches one that waits for a whole worker start on every move.
      expect(median(restarts)).toBeLessThan(1000);

      // A click on a line's second move plays the line up to it (the lines hold still while
      // the pointer is on them).
      const before = await boardFen();
      await page.hover("#pv-lines li.pv-line:first-child .pv-score");
      await page.waitForTimeout(100);
      const line = await page.$$eval("#pv-lines li.pv-line:first-child .pv-move", (els) => els.map((e) => e.textContent!));
      await page.locator("#pv-lines li.pv-line:first-child .pv-move").nth(1).click();
      await waitFen(await fenAfter(line.slice(0, 2), before!));
      await page.mouse.move(5, 5);

      // Five lines, or as many as there are moves: the line played may end in a check with
      // fewer replies (1. e4 c5 2. Nf3 d6 3. Bb5+ has four).
      const wanted = String(Math.min(5, (await legalMoves((await boardFen())!)).length));
      await page.selectOption("#multipv", "5");
      await page.waitForFunction((n) => document.getElementById("analysis-panel")!.dataset.lines === n, wanted, { timeout: 10_000 });

      const longTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
      console.log(`long tasks on the page's thread while analysing (${isolate ? "isolated" : "plain"}): ${longTasks.length ? longTasks.map((t) => t.toFixed(0)).join(", ") + " ms" : "none"}`);
      // The search runs in a worker: the page's own tasks stay short (tens of ms; a search on
      // the page's thread would hold it for seconds). The bound leaves room for a loaded CI
      // machine (one task of 255 ms among 50-80 ms ones was seen while the suites ran beside).
      expect(Math.max(0, ...longTasks)).toBeLessThan(500);

      // Stop.
      await page.click("#analyse");
      await page.waitForSelector("#analysis-panel[data-stop-ms]");
      const stopMs = Number(await page.getAttribute("#analysis-panel", "data-stop-ms"));
      console.log(`analysis stop from the page (${isolate ? "shared memory" : "worker restart"}): ${stopMs} ms`);
      expect(stopMs).toBeLessThan(stopBoundMs);
      await expect.poll(() => page.locator("#pv-lines li").count()).toBe(0);
      expect(await page.getAttribute("#board", "data-arrows")).toBe("");
    });

    it(isolate ? "analyses on two threads (Threads setting of an isolated page)" : "offers no Threads setting on a page that is not isolated", async () => {
      expect(await page.getAttribute("body", "data-threads-available")).toBe(String(isolate));
      expect(await page.isVisible("#threads")).toBe(isolate);
      if (!isolate) return;
      await setFen(START);
      await page.selectOption("#threads", "2");
      await page.click("#analyse");
      await page.waitForFunction(() => {
        const d = document.getElementById("analysis-panel")!.dataset;
        return d.threads === "2" && Number(d.depth) >= 8;
      }, null, { timeout: 20_000 });
      expect(await page.textContent("#an-threads")).toBe("2");
      await page.click("#analyse");
      await page.waitForSelector("#analysis-panel[data-stop-ms]");
      const stopMs = Number(await page.getAttribute("#analysis-panel", "data-stop-ms"));
      console.log(`analysis stop from the page on two threads: ${stopMs} ms`);
      expect(stopMs).toBeLessThan(stopBoundMs);
      await page.selectOption("#threads", "1");
      await page.waitForFunction(() => document.getElementById("analysis-panel")!.dataset.threads === "1", null, { timeout: 10_000 });
    });

    it("loads a pasted PGN with comments and a variation, navigates it, adds a variation by playing another move, saves and copies it", async () => {
      await page.fill("#pgn-text", PGN);
      await page.click("#load-pgn");
      await expect.poll(() => page.textContent("#pgn-message")).toBe("Loaded 10 moves.");
      const main = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O!", "Be7"];
      expect(await mainLine()).toEqual(main);
      expect(await page.$$eval("#move-list .comment", (els) => els.map((e) => e.textContent))).toEqual(["A short game.", "the usual", "Giuoco Piano"]);
      expect(await page.$$eval("#move-list .variation .move", (els) => els.map((e) => e.textContent))).toEqual(["Bc4", "Bc5", "c3"]);
      await waitFen(START);
      // Through the main line with the keys, into the variation with a click.
      await page.locator("body").click({ position: { x: 5, y: 5 } });
      for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowRight");
      await waitFen(await fenAfter(["e4", "e5", "Nf3", "Nc6", "Bb5"]));
      await page.locator("#move-list .variation .move", { hasText: "Bc5" }).click();
      await waitFen(await fenAfter(["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"]));
      await page.keyboard.press("ArrowRight");
      await waitFen(await fenAfter(["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "c3"]));
      await page.keyboard.press("ArrowLeft");
      // A different move here becomes a second variation inside the first.
      await drag("b2", "b4");
      await waitFen(await fenAfter(["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "b4"]));
      expect(await page.$$eval("#move-list .variation .move", (els) => els.map((e) => e.textContent))).toEqual(["Bc4", "Bc5", "c3", "b4"]);
      await shot("07-pgn");
      // The saved file and the copied text are the package's own export of the same tree.
      const expected = (await parsePgn(PGN.replace("4. c3)", "4. c3 (4. b4))")))[0].toPgn();
      const [download] = await Promise.all([page.waitForEvent("download"), page.click("#save-pgn")]);
      expect(download.suggestedFilename()).toBe("Anna-Ben.pgn");
      expect(await readFile((await download.path())!, "utf8")).toBe(expected);
      await page.click("#copy-pgn");
      await expect.poll(() => page.textContent("#pgn-message")).toBe("PGN copied to the clipboard.");
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(expected);
      await page.click("#copy-fen");
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await boardFen());
      // A file of two games opens as a list to choose from.
      await page.setInputFiles("#pgn-file", { name: "two.pgn", mimeType: "application/x-chess-pgn", buffer: Buffer.from(`${PGN}\n[White "Cleo"]\n[Black "Dan"]\n\n1. d4 d5 *\n`) });
      await expect.poll(() => page.textContent("#pgn-message")).toBe("Loaded 10 moves (game 1 of 2).");
      expect(await page.$$eval("#pgn-games option", (els) => els.map((e) => e.textContent))).toEqual(["1. Anna – Ben 1-0", "2. Cleo – Dan *"]);
      await page.selectOption("#pgn-games", "1");
      await expect.poll(mainLine).toEqual(["d4", "d5"]);
      await page.selectOption("#pgn-games", "0");
      await expect.poll(mainLine).toEqual(main);
      // Back to the main line's end.
      await page.locator("#move-list > .move", { hasText: "Be7" }).click();
      await waitFen(await fenAfter(["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"]));
    });

    it("shows the engine's error for a bad FEN and keeps the position", async () => {
      const before = await boardFen();
      const message = await legalMoves(BAD_FEN).then(() => "", (e: Error) => e.message);
      expect(message).toBe("invalid FEN: rank 3 describes 9 squares, not 8");
      await page.fill("#fen", BAD_FEN);
      await page.click("#set-fen");
      await expect.poll(() => page.textContent("#fen-message")).toBe(message);
      expect(await page.getAttribute("#fen", "aria-invalid")).toBe("true");
      expect(await boardFen()).toBe(before);
      await shot("08-bad-fen");
      await setFen(KIWIPETE);
      expect(await page.getAttribute("#fen", "aria-invalid")).toBeNull();
    });

    it("counts perft and divide of the position shown, on its own worker", async () => {
      await setFen(KIWIPETE);
      await page.click("#perft-panel summary");
      await page.fill("#perft-depth", "3");
      await page.click("#perft-run");
      await page.waitForSelector("#perft-result[data-nodes]", { timeout: 20_000 });
      expect(BigInt(await page.getAttribute("#perft-result", "data-nodes") ?? "")).toBe(await perft(KIWIPETE, 3));
      expect(await page.textContent("#perft-result")).toMatch(/^depth 3: 97,862 nodes in \d+ ms, [\d,]+ nodes\/s$/);
      await page.check("#perft-divide");
      await page.fill("#perft-depth", "2");
      await page.click("#perft-run");
      await page.waitForFunction(() => document.getElementById("perft-result")!.dataset.nodes === "2039", null, { timeout: 20_000 });
      expect(await page.locator("#perft-table tr").count()).toBe((await legalMoves(KIWIPETE)).length);
      expect(await page.textContent("#perft-table")).toContain("O-O-O");
      await page.click("#perft-panel summary");
    });

    it("shows the tablebase's result and every move coloured for four pieces, and plays a move from it", async () => {
      await page.waitForSelector("body[data-tablebases=loaded]", { timeout: 20_000 });
      await setFen(KPVK);
      await page.waitForSelector("#tablebase-panel[data-state=shown]", { timeout: 20_000 });
      const expected = await tablebaseOracle.probe(KPVK);
      expect(await page.textContent("#tb-status")).toBe(`Win for White (DTZ ${expected.dtz}).`);
      const shown = await page.$$eval("#tb-moves li", (lis) => lis.map((li) => ({ san: li.querySelector("button")!.textContent, category: (li as HTMLElement).dataset.category, colour: li.className })));
      // Lichess's answer, from the mover's side: the position after the move, seen by the other side.
      const forMover: Record<string, string> = { loss: "win", "blessed-loss": "cursed-win", draw: "draw", "cursed-win": "blessed-loss", win: "loss" };
      expect(shown.map((m) => [m.san, m.category])).toEqual(expected.moves.map((m) => [m.san, forMover[m.category]]));
      expect(shown[0].colour).toBe("tb-win");
      expect(shown.some((m) => m.colour === "tb-draw")).toBe(true);
      await shot("09-tablebase");
      await page.click("#tb-moves li:first-child button");
      await waitFen(await fenAfter([expected.moves[0].san], KPVK));
      await setFen(KIWIPETE);
      await expect.poll(() => page.textContent("#tb-status")).toBe("Positions with up to 4 pieces (this one has 32).");
    });

    it("has labels for its controls and fits a phone screen", async () => {
      // Every form control has a name a screen reader can read.
      const unnamed = await page.$$eval("input, select, textarea, button", (els) =>
        els.filter((e) => !(e as HTMLElement).closest("[hidden]") && (e as HTMLInputElement).type !== "file")
          .filter((e) => !((e as HTMLInputElement).labels?.length || e.getAttribute("aria-label") || (e.tagName === "BUTTON" && e.textContent!.trim())))
          .map((e) => e.outerHTML.slice(0, 80)));
      expect(unnamed).toEqual([]);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      const board = (await page.locator("#board svg").boundingBox())!;
      expect(board.width).toBeGreaterThan(300);
      expect(board.x + board.width).toBeLessThanOrEqual(390);
      await shot("09-phone");
      await page.setViewportSize({ width: 1280, height: 900 });
      expect(errors).toEqual([]);
    });
  });
});
