// The perft panel: counts the leaf nodes of the legal move tree of the position shown to a
// depth (and per root move with divide), with the time and nodes per second. It runs on an
// engine of its own, in its own worker, so that the analysis goes on and the page never waits;
// Cancel ends that worker.

import { Engine } from "wasmchess";
import type { DivideEntry } from "wasmchess";
import type { TreeNode, GameTree } from "./tree.js";

export interface PerftView {
  form: HTMLFormElement;
  depth: HTMLInputElement;
  divide: HTMLInputElement;
  cancel: HTMLButtonElement;
  run: HTMLButtonElement;
  result: HTMLElement;
  table: HTMLTableSectionElement;
}

export class PerftPanel {
  private engine?: Promise<Engine>;
  private running = 0;

  constructor(private readonly view: PerftView, private readonly current: () => { tree: GameTree; node: TreeNode }) {
    view.form.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.run();
    });
    view.cancel.addEventListener("click", () => void this.cancel());
  }

  private async run(): Promise<void> {
    const depth = Number(this.view.depth.value);
    const divide = this.view.divide.checked;
    const { tree, node } = this.current();
    const run = ++this.running;
    this.busy(true);
    this.view.result.textContent = `Counting depth ${depth}…`;
    delete this.view.result.dataset.nodes;
    this.view.table.replaceChildren();
    try {
      this.engine ??= Engine.create({ hashMb: 1 });
      const engine = await this.engine;
      await engine.setChess960(tree.chess960);
      await engine.setPosition(node.fen);
      const start = performance.now();
      const entries: DivideEntry[] = divide ? await engine.divide(depth) : [];
      const nodes = divide ? entries.reduce((sum, e) => sum + e.nodes, 0n) : await engine.perft(depth);
      const ms = performance.now() - start;
      if (run !== this.running) return;
      const nps = ms > 0 ? Math.round((Number(nodes) / ms) * 1000) : 0;
      this.view.result.textContent = `depth ${depth}: ${nodes.toLocaleString("en")} nodes in ${ms.toFixed(0)} ms, ${nps.toLocaleString("en")} nodes/s`;
      this.view.result.dataset.nodes = String(nodes);
      const sans = new Map(tree.legalMoves(node).map((m) => [m.uci, m.san]));
      for (const { move, nodes: n } of entries.sort((a, b) => (sans.get(a.move) ?? a.move).localeCompare(sans.get(b.move) ?? b.move))) {
        const row = this.view.table.insertRow();
        row.insertCell().textContent = sans.get(move) ?? move;
        row.insertCell().textContent = n.toLocaleString("en");
      }
    } catch (err) {
      if (run === this.running) this.view.result.textContent = err instanceof Error ? err.message : String(err);
    } finally {
      if (run === this.running) this.busy(false);
    }
  }

  /** Ends the count: the perft engine's worker is ended (a new one starts with the next run). */
  private async cancel(): Promise<void> {
    const engine = this.engine;
    this.engine = undefined;
    this.running++;
    this.busy(false);
    this.view.result.textContent = "Cancelled.";
    await engine?.then((e) => e.dispose()).catch(() => undefined);
  }

  private busy(on: boolean): void {
    this.view.run.disabled = on;
    this.view.cancel.disabled = !on;
    this.view.form.setAttribute("aria-busy", String(on));
  }
}
