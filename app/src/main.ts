// The web app's entry: starts the engine (its search runs in a Web Worker), then wires the
// board, the move list, the analysis, the game against the engine, PGN and FEN, perft and the
// keyboard around one game tree. Everything chess comes from the package's public API.

import "./style.css";
import { Engine, START_FEN, threadSupport } from "wasmchess";
import { GameTree } from "./tree.js";
import type { TreeNode } from "./tree.js";
import { BoardView } from "./board.js";
import { MoveList } from "./move-list.js";
import { Analysis } from "./analysis.js";
import { Play } from "./play.js";
import { PgnPanel } from "./pgn-panel.js";
import { PerftPanel } from "./perft-panel.js";
import { TablebasePanel } from "./tablebase-panel.js";
import { type Side, sideToMove, kingSquare } from "./fen-facts.js";

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el as T;
};
const named = <T extends Element>(form: HTMLFormElement, name: string): T => form.elements.namedItem(name) as unknown as T;

const ENDINGS: Record<string, string> = {
  stalemate: "Draw by stalemate",
  threefold: "Draw by threefold repetition",
  "fifty-moves": "Draw by the fifty-move rule",
  "insufficient-material": "Draw by insufficient material",
};

class App {
  private tree!: GameTree;
  private rootCheck?: string;
  private readonly board: BoardView;
  private readonly moveList: MoveList;
  private readonly analysis: Analysis;
  private readonly play: Play;
  private readonly pgn: PgnPanel;
  readonly tablebase: TablebasePanel;

  constructor(private readonly engine: Engine) {
    this.board = board;
    this.moveList = new MoveList($("move-list"), (id) => {
      const node = this.tree.find(id);
      if (node) this.show(node);
    });
    this.analysis = new Analysis(engine, {
      panel: $("analysis-panel"),
      toggle: $<HTMLButtonElement>("analyse"),
      multiPv: $<HTMLSelectElement>("multipv"),
      depth: $("an-depth"),
      nps: $("an-nps"),
      nodes: $("an-nodes"),
      threads: $("an-threads"),
      lines: $("pv-lines"),
      bar: $("eval-bar"),
      barFill: $("eval-fill"),
      barText: $("eval-text"),
      wdl: $("an-wdl"),
    }, {
      playLine: (node, ucis) => this.playLine(node, ucis),
      showBestMove: (ucis) => this.board.setArrows(ucis),
      showError: (message) => this.say(message, true),
    });
    this.wireThreads();
    const playForm = $<HTMLFormElement>("play-form");
    this.play = new Play(engine, {
      form: playForm,
      side: named(playForm, "side"),
      level: named(playForm, "level"),
      timeControl: named(playForm, "time-control"),
      start: named(playForm, "start"),
      chess960Number: named(playForm, "chess960-number"),
      info: $("play-info"),
      takeback: $<HTMLButtonElement>("takeback"),
      resign: $<HTMLButtonElement>("resign"),
      clockTop: $("clock-top"),
      clockBottom: $("clock-bottom"),
    }, {
      tree: () => this.tree,
      newTree: (fen, side, chess960) => {
        this.setTree(new GameTree(fen, chess960));
        this.board.orientation = side;
        return this.tree;
      },
      showNode: (node) => {
        this.moveList.render(this.tree);
        this.show(node, true);
      },
      stopAnalysis: () => this.analysis.setEnabled(false),
      changed: () => this.refresh(),
      finished: () => this.moveList.render(this.tree),
      showError: (message) => this.say(message, true),
    });
    this.pgn = new PgnPanel({
      text: $<HTMLTextAreaElement>("pgn-text"),
      load: $<HTMLButtonElement>("load-pgn"),
      file: $<HTMLInputElement>("pgn-file"),
      games: $<HTMLSelectElement>("pgn-games"),
      save: $<HTMLButtonElement>("save-pgn"),
      copy: $<HTMLButtonElement>("copy-pgn"),
      pgnMessage: $("pgn-message"),
      fen: $<HTMLInputElement>("fen"),
      setFen: $<HTMLButtonElement>("set-fen"),
      copyFen: $<HTMLButtonElement>("copy-fen"),
      fenMessage: $("fen-message"),
    }, {
      tree: () => this.tree,
      load: async (tree) => {
        await this.play.close();
        this.setTree(tree);
      },
    });
    new PerftPanel({
      form: $<HTMLFormElement>("perft-form"),
      depth: $<HTMLInputElement>("perft-depth"),
      divide: $<HTMLInputElement>("perft-divide"),
      cancel: $<HTMLButtonElement>("perft-cancel"),
      run: $<HTMLButtonElement>("perft-run"),
      result: $("perft-result"),
      table: $<HTMLTableSectionElement>("perft-table"),
    }, () => ({ tree: this.tree, node: this.tree.current }));
    this.tablebase = new TablebasePanel({
      panel: $("tablebase-panel"),
      status: $("tb-status"),
      moves: $<HTMLOListElement>("tb-moves"),
    }, (uci) => this.playMove(uci));
    this.wireControls();
    this.setTree(new GameTree());
    // The engine plays and analyses with the 3-4-piece tables (fetched once, 4.3 MB).
    this.tablebase.give(engine).then(() => (document.body.dataset.tablebases = "loaded"), (err: unknown) => {
      document.body.dataset.tablebases = "failed";
      this.say(`The tablebases could not be loaded: ${err instanceof Error ? err.message : String(err)}`, true);
    });
    // Without shared memory a stop restarts the worker: a second engine takes turns with the
    // first in the analysis (see analysis.ts).
    if (!engine.hasSharedStop) {
      Engine.create().then(async (second) => {
        this.analysis.addEngine(second);
        await this.tablebase.give(second);
      }).catch(() => undefined);
    }
  }

  /** The Threads setting, where the page can share memory between threads (cross-origin
   *  isolated; `npm run app:isolated`): from 1 to the cores (at least 2), starting at
   *  lichess's default, the cores less one when even. Elsewhere the engine has one thread
   *  and the setting stays hidden. */
  private wireThreads(): void {
    const support = threadSupport();
    document.body.dataset.threadsAvailable = String(support.sharedMemory);
    if (!support.sharedMemory) return;
    const select = $<HTMLSelectElement>("threads");
    for (let n = 1; n <= Math.max(2, support.cores); n++) select.add(new Option(String(n), String(n), false, n === support.defaultThreads));
    $("threads-label").hidden = false;
    const apply = (n: number) => this.analysis.setThreads(n).catch((err: unknown) => this.say(err instanceof Error ? err.message : String(err), true));
    select.addEventListener("change", () => void apply(Number(select.value)));
    if (support.defaultThreads > 1) void apply(support.defaultThreads);
  }

  /** Called by the board: the user moved a piece. */
  onBoardMove(uci: string): void {
    this.playMove(uci);
  }

  /** The legal moves the board lets the user make. */
  legalMoves() {
    return this.tree ? this.tree.legalMoves(this.tree.current) : [];
  }

  /** Puts a new game tree on the board. */
  private setTree(tree: GameTree): void {
    this.tree = tree;
    this.rootCheck = undefined;
    // Whether the start position is check: asked of the engine's rules (in this thread).
    const root = tree.root;
    void this.engine.setChess960(tree.chess960);
    const set = this.engine.setPosition(root.fen);
    const checkers = this.engine.checkers();
    void set.then(() => checkers).then((c) => {
      if (this.tree.root !== root || c.length === 0) return;
      this.rootCheck = kingSquare(root.fen, sideToMove(root.fen));
      if (this.tree.current === root) this.show(root);
    }, () => undefined);
    this.moveList.render(tree);
    this.pgn?.clearMessages();
    this.say("", false);
    this.show(tree.current);
  }

  /** Shows node: the board, the move list, the FEN, the analysis and the status follow. */
  private show(node: TreeNode, animate = false): void {
    this.tree.current = node;
    const check = node.parent ? (/[+#]$/.test(node.san) ? kingSquare(node.fen, sideToMove(node.fen)) : undefined) : this.rootCheck;
    this.board.show(node.fen, { lastMove: node.uci || undefined, check }, animate);
    this.moveList.highlight(node);
    this.pgn.showFen(node.fen);
    this.analysis.show(this.tree, node);
    void this.tablebase?.show(node.fen);
    this.refresh();
  }

  /** Plays a move (SAN or UCI) from the board, the keyboard or a line; false when it was
   *  refused (the message says why). */
  private playMove(move: string): boolean {
    if (this.play.active && !this.play.humanMayMove(this.tree.current)) {
      this.say(this.play.engineThinking ? "Wait for the engine's move." : "Go to the last position to move.", true);
      this.refresh();
      return false;
    }
    let node: TreeNode;
    try {
      node = this.tree.play(move);
    } catch (err) {
      this.say(err instanceof Error ? err.message : String(err), true);
      this.refresh(); // the board takes back what the user dragged
      this.board.show(this.tree.current.fen, { lastMove: this.tree.current.uci || undefined });
      return false;
    }
    this.say("", false);
    this.moveList.render(this.tree);
    this.show(node, true);
    this.announce(node);
    if (this.play.active) this.play.humanMoved(node);
    return true;
  }

  private playLine(from: TreeNode, ucis: readonly string[]): void {
    if (this.play.active) return;
    let node = from;
    try {
      for (const uci of ucis) node = this.tree.play(uci, node);
    } catch (err) {
      this.say(err instanceof Error ? err.message : String(err), true);
    }
    this.moveList.render(this.tree);
    this.show(node, true);
  }

  /** Board input, buttons and status for the current state. */
  private refresh(): void {
    const node = this.tree?.current;
    if (!node) return;
    const active = this.play.active;
    let input: Side | null = null;
    if (active) input = this.play.humanMayMove(node) ? this.play.human : null;
    else if (this.tree.legalMoves(node).length > 0) input = sideToMove(node.fen);
    this.board.setInput(input);
    $<HTMLButtonElement>("analyse").disabled = active;
    $<HTMLButtonElement>("promote").disabled = active || this.tree.onMainLine(node);
    $<HTMLButtonElement>("delete").disabled = active || !node.parent;
    $<HTMLButtonElement>("nav-back").disabled = !node.parent;
    $<HTMLButtonElement>("nav-start").disabled = !node.parent;
    $<HTMLButtonElement>("nav-forward").disabled = !node.children[0];
    $<HTMLButtonElement>("nav-end").disabled = !node.children[0];
    document.body.classList.toggle("playing", active);
    const status = this.tree.status(node);
    document.body.dataset.status = status;
    $("game-status").textContent = this.statusText(node, status);
  }

  private statusText(node: TreeNode, status: string): string {
    const side = sideToMove(node.fen) === "w" ? "White" : "Black";
    const other = side === "White" ? "Black" : "White";
    if (this.play.active) {
      if (this.play.engineThinking) return "The engine is thinking…";
      return this.play.humanMayMove(node) ? "Your move." : `${side} to move (go to the last position to play).`;
    }
    if (this.play.result && node === this.tree.lineEnd(this.tree.root)) return `${this.play.result}.`;
    if (status === "checkmate") return `Checkmate: ${other} wins.`;
    if (status !== "ongoing") return `${ENDINGS[status]}.`;
    return `${side} to move.`;
  }

  /** Tells screen readers the move played. */
  private announce(node: TreeNode): void {
    $("move-message").textContent = `Played ${node.san}.`;
    $("move-message").classList.remove("error");
  }

  private say(text: string, error: boolean): void {
    const message = $("move-message");
    message.textContent = text;
    message.classList.toggle("error", error);
    message.dataset.kind = error ? "error" : "ok";
  }

  private go(to: "start" | "back" | "forward" | "end"): void {
    const node = this.tree.current;
    const next = to === "start" ? this.tree.root
      : to === "back" ? node.parent
        : to === "forward" ? node.children[0]
          : this.tree.lineEnd(node);
    if (next && next !== node) this.show(next, to === "forward");
  }

  private wireControls(): void {
    $("nav-start").addEventListener("click", () => this.go("start"));
    $("nav-back").addEventListener("click", () => this.go("back"));
    $("nav-forward").addEventListener("click", () => this.go("forward"));
    $("nav-end").addEventListener("click", () => this.go("end"));
    $("flip").addEventListener("click", () => this.flip());
    $("promote").addEventListener("click", () => {
      this.tree.promote(this.tree.current);
      this.moveList.render(this.tree);
      this.refresh();
    });
    $("delete").addEventListener("click", () => {
      const parent = this.tree.remove(this.tree.current);
      if (!parent) return;
      this.moveList.render(this.tree);
      this.show(this.tree.current);
    });
    const moveForm = $<HTMLFormElement>("move-form");
    moveForm.addEventListener("submit", (e) => {
      e.preventDefault();
      const input = $<HTMLInputElement>("move-input");
      const text = input.value.trim();
      if (text && this.playMove(text)) input.value = "";
    });
    document.addEventListener("keydown", (e) => this.onKey(e));
  }

  private flip(): void {
    this.board.flip();
    this.play.renderClocks();
  }

  private onKey(e: KeyboardEvent): void {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target as HTMLElement;
    if (target.closest("input, textarea, select, [contenteditable=true]")) return;
    const keys: Record<string, () => void> = {
      ArrowLeft: () => this.go("back"),
      ArrowRight: () => this.go("forward"),
      ArrowUp: () => this.go("start"),
      Home: () => this.go("start"),
      ArrowDown: () => this.go("end"),
      End: () => this.go("end"),
      f: () => this.flip(),
    };
    const action = keys[e.key];
    if (!action) return;
    e.preventDefault();
    action();
  }
}

// The board shows the start position at once; it takes moves when the engine is ready.
let app: App | undefined;
const board = new BoardView($("board"), {
  legalMoves: () => app?.legalMoves() ?? [],
  onMove: (uci) => app?.onBoardMove(uci),
});
board.show(START_FEN);
board.setInput(null);

async function start(): Promise<void> {
  const status = $("engine-status");
  try {
    const engine = await Engine.create();
    const readyMs = performance.now();
    app = new App(engine);
    const info = await engine.info();
    const wasm = performance.getEntriesByType("resource").map((e) => e.name.split("/").pop() ?? "").filter((n) => n.endsWith(".wasm"));
    const evaluation = info.evaluation === "nnue" ? `NNUE evaluation${info.network ? ` (${info.network.name})` : ""}` : "classical evaluation";
    const stop = engine.hasSharedStop ? "stop through shared memory" : "stop by restarting the worker";
    Object.assign(document.body.dataset, {
      engine: "ready",
      readyMs: readyMs.toFixed(0),
      sharedStop: String(engine.hasSharedStop),
      build: info.build,
      wasm: wasm.join(" "),
    });
    status.textContent = `Engine ready in ${readyMs.toFixed(0)} ms.`;
    $("about").textContent = `Engine: ${info.build === "nnue" ? "network" : "classical"} build (${wasm.join(", ") || "wasm"}), ${evaluation}, ${stop}.`;
  } catch (err) {
    document.body.dataset.engine = "failed";
    status.textContent = `The engine could not start: ${err instanceof Error ? err.message : String(err)}`;
  }
}

void start();
