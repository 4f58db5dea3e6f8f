// Continuous analysis: while it is on, every position change stops the running search and
// starts one on the new position at once (Engine.analyse), and each info line updates the
// evaluation bar, win/draw/loss, depth, speed and the MultiPV lines in SAN; a click on a move of a line
// plays the line up to it. Drawing is batched to one update per animation frame; the lines
// hold still while the pointer or the focus is on them, so that a click hits the move read.
//
// Where the engine stops in place (a cross-origin isolated page: shared memory) one engine
// does it all and keeps its hash table from position to position. Elsewhere stop() ends the
// engine's worker and starts a new one, which takes 100-400 ms on a loaded machine; there a
// second engine takes turns with the first, so that a new position starts at once on a worker
// that is up while the other one restarts.

import { Game } from "wasmchess";
import type { Engine, SearchInfo, SearchResult } from "wasmchess";
import type { GameTree, TreeNode } from "./tree.js";
import { sideToMove, moveNumber } from "./fen-facts.js";
import { whiteView, formatScore, describeScore, barShare, whiteWdl, formatWdl, describeWdl } from "./score.js";
import type { Wdl } from "./score.js";

export interface AnalysisView {
  panel: HTMLElement;
  toggle: HTMLButtonElement;
  multiPv: HTMLSelectElement;
  depth: HTMLElement;
  nps: HTMLElement;
  nodes: HTMLElement;
  /** The search threads of the engine analysing. */
  threads: HTMLElement;
  lines: HTMLElement;
  bar: HTMLElement;
  barFill: HTMLElement;
  barText: HTMLElement;
  /** Win/draw/loss from White's view, under the bar's numbers. */
  wdl: HTMLElement;
}

export interface AnalysisHost {
  /** Plays the UCI moves from node (a click on a line). */
  playLine(node: TreeNode, ucis: readonly string[]): void;
  /** The best move of the position shown, for the board's arrow (none: empty). */
  showBestMove(ucis: readonly string[]): void;
  /** An engine error for the page to show. */
  showError(message: string): void;
}

/** Moves of a line shown (the rest is cut). */
const SHOWN_PLIES = 14;

export class Analysis {
  private enabled = false;
  private tree?: GameTree;
  private node?: TreeNode;
  private run = 0;
  private startedAt = 0;
  private firstInfoSeen = false;
  private lines: SearchInfo[] = [];
  private pending?: Promise<SearchResult>;
  private frame = 0;
  private readonly sanCache = new Map<string, string[]>();
  private readonly engines: Engine[];
  /** The engine of the running (or last) analysis. */
  private active = 0;
  /** The pointer or focus is on the lines: they keep what they show for this run. */
  private hold = false;
  private linesRun = -1;

  constructor(engine: Engine, private readonly view: AnalysisView, private readonly host: AnalysisHost) {
    this.engines = [engine];
    view.toggle.addEventListener("click", () => void this.setEnabled(!this.enabled));
    view.multiPv.addEventListener("change", () => this.restart());
    view.lines.addEventListener("click", (e) => this.onLineClick(e));
    const hold = (on: boolean) => () => {
      this.hold = on;
      if (!on) this.scheduleRender();
    };
    view.lines.addEventListener("pointerenter", hold(true));
    view.lines.addEventListener("pointerleave", hold(false));
    view.lines.addEventListener("focusin", hold(true));
    view.lines.addEventListener("focusout", hold(false));
    this.render();
  }

  /** A second engine to take turns with (see the top of this file). */
  addEngine(engine: Engine): void {
    if (this.engines.length < 2) this.engines.push(engine);
  }

  /** Searches on n threads from now on (a cross-origin-isolated page: the engine stops in
   *  place, so there is one engine); a running analysis starts again on them. */
  async setThreads(n: number): Promise<void> {
    await this.engines[0].setThreads(n);
    this.restart();
    this.render();
  }

  get on(): boolean {
    return this.enabled;
  }

  /** Turns the analysis on or off (off: the search stops and the display clears); resolves
   *  when the engine is free. */
  async setEnabled(on: boolean): Promise<void> {
    if (on === this.enabled) return;
    this.enabled = on;
    this.view.toggle.setAttribute("aria-pressed", String(on));
    this.view.toggle.textContent = on ? "Stop analysis" : "Analyse";
    this.view.panel.dataset.state = on ? "on" : "off";
    document.body.classList.toggle("analysing", on);
    if (on) this.restart();
    else await this.stop();
  }

  /** The board shows node of tree now: a running analysis moves there. */
  show(tree: GameTree, node: TreeNode): void {
    this.tree = tree;
    this.node = node;
    if (this.enabled) this.restart();
  }

  /** Stops the search; records how long the engine took to answer. */
  async stop(): Promise<void> {
    this.run++;
    this.lines = [];
    this.scheduleRender();
    const pending = this.pending;
    this.pending = undefined;
    if (!pending) return;
    const t = performance.now();
    this.engines[this.active].stop();
    await pending.catch(() => undefined);
    this.view.panel.dataset.stopMs = (performance.now() - t).toFixed(1);
  }

  private restart(): void {
    const tree = this.tree;
    const node = this.node;
    if (!this.enabled || !tree || !node) return;
    const run = ++this.run;
    this.lines = [];
    this.sanCache.clear();
    this.firstInfoSeen = false;
    this.startedAt = performance.now();
    this.view.panel.dataset.fen = node.fen;
    delete this.view.panel.dataset.restartMs;
    if (tree.legalMoves(node).length === 0) {
      // Mate or stalemate: nothing to search.
      if (this.pending) void this.stop().then(() => this.scheduleRender());
      this.render();
      return;
    }
    const position = { fen: tree.root.fen, moves: tree.ucis(node) };
    const multiPv = Number(this.view.multiPv.value);
    if (this.engines.length > 1) {
      // The last search's worker restarts in the background; the other engine takes over.
      if (this.pending) this.engines[this.active].stop();
      this.active = 1 - this.active;
    }
    const engine = this.engines[this.active];
    void engine.setChess960(tree.chess960); // the mode of the positions it is given
    const pending = engine.analyse(position, { multiPv }, (info) => this.onInfo(run, info));
    this.pending = pending;
    pending.catch((err: unknown) => {
      if (run === this.run) this.host.showError(err instanceof Error ? err.message : String(err));
    });
    this.scheduleRender();
  }

  private onInfo(run: number, info: SearchInfo): void {
    if (run !== this.run || info.bound) return;
    if (!this.firstInfoSeen) {
      this.firstInfoSeen = true;
      this.view.panel.dataset.restartMs = (performance.now() - this.startedAt).toFixed(1);
    }
    this.lines[info.multipv - 1] = info;
    this.scheduleRender();
  }

  private scheduleRender(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  private render(): void {
    const { view } = this;
    const node = this.node;
    const best = this.lines[0];
    const active = this.enabled && node !== undefined;
    const stm = node ? sideToMove(node.fen) : "w";
    const mated = active && this.tree!.legalMoves(node!).length === 0;
    view.depth.textContent = active && best ? `${best.depth}/${best.seldepth}` : "–";
    view.nps.textContent = active && best ? formatCount(best.nps) + "/s" : "–";
    view.nodes.textContent = active && best ? formatCount(best.nodes) : "–";
    view.threads.textContent = String(this.engines[this.active].threads);
    view.panel.dataset.threads = view.threads.textContent;
    view.panel.dataset.depth = String(active && best ? best.depth : 0);
    view.panel.dataset.lines = String(active ? this.lines.filter(Boolean).length : 0);

    // The bar: White's share, from the best line (a mated side has lost).
    let share = 50;
    let text = "";
    let words = "no evaluation";
    if (mated) {
      const status = this.tree!.status(node!);
      share = status === "checkmate" ? (stm === "w" ? 0 : 100) : 50;
      text = status === "checkmate" ? (stm === "w" ? "0-1" : "1-0") : "½-½";
      words = status === "checkmate" ? `${stm === "w" ? "Black" : "White"} has won` : "draw";
    } else if (active && best) {
      const white = whiteView(best.score, stm);
      share = barShare(white);
      text = formatScore(white);
      words = describeScore(white);
      view.bar.dataset.score = text;
    }
    if (!active || !best) delete view.bar.dataset.score;
    view.barFill.style.height = `${share}%`;
    this.renderWdl(mated ? this.finalWdl(stm) : active && best?.wdl ? whiteWdl(best.wdl, stm) : undefined);
    view.barText.textContent = text;
    view.bar.setAttribute("aria-valuenow", share.toFixed(0));
    view.bar.setAttribute("aria-valuetext", words);
    this.host.showBestMove(active && best && best.pv.length ? [best.pv[0]] : []);

    // The lines, best first (held still for the user, unless the position changed).
    if (this.hold && this.linesRun === this.run) return;
    this.linesRun = this.run;
    view.lines.replaceChildren();
    if (active && node) {
      if (mated) {
        const item = document.createElement("li");
        item.textContent = this.tree!.status(node) === "checkmate" ? "Checkmate" : "Stalemate";
        view.lines.append(item);
      }
      for (const info of this.lines) if (info) view.lines.append(this.lineItem(node, info, stm));
    }
  }

  /** White's win/draw/loss of a finished game (mate or stalemate on the board). */
  private finalWdl(stm: "w" | "b"): Wdl {
    if (this.tree!.status(this.node!) !== "checkmate") return [0, 1000, 0];
    return stm === "w" ? [0, 0, 1000] : [1000, 0, 0];
  }

  private renderWdl(wdl: Wdl | undefined): void {
    const el = this.view.wdl;
    el.textContent = wdl ? formatWdl(wdl) : "–";
    el.setAttribute("aria-label", wdl ? describeWdl(wdl) : "no win/draw/loss estimate");
    if (wdl) el.dataset.wdl = wdl.join(" ");
    else delete el.dataset.wdl;
  }

  private lineItem(node: TreeNode, info: SearchInfo, stm: "w" | "b"): HTMLLIElement {
    const item = document.createElement("li");
    item.className = "pv-line";
    item.dataset.multipv = String(info.multipv);
    item.dataset.fen = node.fen;
    const score = document.createElement("span");
    score.className = "pv-score";
    score.textContent = formatScore(whiteView(info.score, stm));
    item.append(score, " ");
    const sans = this.sans(node.fen, info.pv);
    let number = moveNumber(node.fen);
    let side = stm;
    sans.slice(0, SHOWN_PLIES).forEach((san, i) => {
      if (side === "w") item.append(`${number}. `);
      else if (i === 0) item.append(`${number}… `);
      const move = document.createElement("button");
      move.type = "button";
      move.className = "pv-move";
      move.textContent = san;
      move.dataset.line = info.pv.slice(0, i + 1).join(" ");
      move.setAttribute("aria-label", `play line ${info.multipv} up to ${san}`);
      item.append(move, " ");
      if (side === "b") number++;
      side = side === "w" ? "b" : "w";
    });
    if (sans.length > SHOWN_PLIES) item.append("…");
    return item;
  }

  /** The principal variation in SAN (cached per position and line). */
  private sans(fen: string, pv: readonly string[]): string[] {
    const key = pv.join(" ");
    let out = this.sanCache.get(key);
    if (!out) {
      out = [];
      try {
        const game = new Game(fen, { chess960: this.tree?.chess960 ?? false });
        for (const uci of pv.slice(0, SHOWN_PLIES + 1)) out.push(game.play(uci).san);
      } catch {
        // A line that does not fit the position (it cannot happen) shows up to its end.
      }
      this.sanCache.set(key, out);
    }
    return out;
  }

  private onLineClick(e: Event): void {
    const button = (e.target as HTMLElement).closest<HTMLButtonElement>("button.pv-move");
    const item = button?.closest<HTMLElement>("li.pv-line");
    if (!button?.dataset.line || !this.node || item?.dataset.fen !== this.node.fen) return;
    this.host.playLine(this.node, button.dataset.line.split(" "));
  }
}

/** 1234 → "1.2k", 1234567 → "1.23M". */
function formatCount(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}
