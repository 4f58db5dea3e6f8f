// Playing the engine: a game from the standard start, a Chess960 start (random or by number)
// or the position on the board, with the user on one side, at a strength level (the engine's
// Elo limit) and an optional time control with clocks; take back, resign,
// and the endings the engine's rules report (mate, stalemate, threefold repetition, the
// fifty-move rule, insufficient material) or a fallen flag.

import { chess960StartFen } from "wasmchess";
import type { Engine, SearchResult } from "wasmchess";
import type { GameTree, TreeNode } from "./tree.js";
import { type Side, sideToMove, opponent, bareKing } from "./fen-facts.js";
import { ChessClock, TIME_CONTROLS, formatClock } from "./clock.js";
import { LEVELS, DEFAULT_LEVEL, levelOf, levelLimits, type Level } from "./levels.js";

export interface PlayView {
  form: HTMLFormElement;
  side: HTMLSelectElement;
  level: HTMLSelectElement;
  timeControl: HTMLSelectElement;
  start: HTMLSelectElement;
  /** The Chess960 start position's number (0–959; empty: a random one). */
  chess960Number: HTMLInputElement;
  /** Says what the game is: the engine's strength, the Chess960 start position. */
  info: HTMLElement;
  takeback: HTMLButtonElement;
  resign: HTMLButtonElement;
  clockTop: HTMLElement;
  clockBottom: HTMLElement;
}

export interface PlayHost {
  tree(): GameTree;
  /** Replaces the game on the board with a new one from fen (in Chess960 mode when
   *  chess960), seen from side. */
  newTree(fen: string, side: Side, chess960: boolean): GameTree;
  /** Shows node (a move just played) on the board. */
  showNode(node: TreeNode): void;
  /** Stops the analysis before the game starts; resolves when the engine is free. */
  stopAnalysis(): Promise<void>;
  /** The game state changed (started, the engine thinks or moved, it ended). */
  changed(): void;
  /** The game ended: its result is in the tree's headers. */
  finished(): void;
  showError(message: string): void;
}

const DRAWS: Record<string, string> = {
  stalemate: "stalemate",
  threefold: "threefold repetition",
  "fifty-moves": "the fifty-move rule",
  "insufficient-material": "insufficient material",
};

export class Play {
  /** A game is on: the user moves only their side, at the end of the game. */
  active = false;
  human: Side = "w";
  /** Why the last game ended, e.g. "Black wins by checkmate". */
  result = "";
  private level: Level = levelOf(DEFAULT_LEVEL);
  private clock?: ChessClock;
  private game = 0;
  private thinking?: Promise<SearchResult>;

  constructor(private readonly engine: Engine, private readonly view: PlayView, private readonly host: PlayHost) {
    for (const level of LEVELS) view.level.add(new Option(level.name, level.value));
    view.level.value = DEFAULT_LEVEL;
    const showNumber = () => (view.chess960Number.closest("label")!.hidden = view.start.value !== "chess960");
    view.start.addEventListener("change", showNumber);
    showNumber();
    for (const tc of TIME_CONTROLS) view.timeControl.add(new Option(tc.name, tc.id));
    view.form.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.newGame();
    });
    view.takeback.addEventListener("click", () => void this.takeback());
    view.resign.addEventListener("click", () => this.resign());
    this.update();
  }

  /** True while the engine searches its move. */
  get engineThinking(): boolean {
    return this.thinking !== undefined;
  }

  /** True when the user may move at node now. */
  humanMayMove(node: TreeNode): boolean {
    const tree = this.host.tree();
    return this.active && !this.thinking && node === tree.lineEnd(tree.root) && sideToMove(node.fen) === this.human;
  }

  /** Starts a new game with the form's settings. */
  async newGame(): Promise<void> {
    await this.abandon();
    await this.host.stopAnalysis();
    const v = this.view;
    const side = v.side.value === "random" ? (Math.random() < 0.5 ? "w" : "b") : (v.side.value as Side);
    const start = this.startPosition();
    if (!start) return;
    const tree = this.host.newTree(start.fen, side, start.chess960);
    tree.headers.set("Event", "Casual game");
    tree.headers.set("Date", new Date().toISOString().slice(0, 10).replace(/-/g, "."));
    this.level = levelOf(v.level.value);
    const engineName = `WasmChess ${this.level.elo === null ? "full strength" : this.level.name}`;
    tree.headers.set("White", side === "w" ? "You" : engineName);
    tree.headers.set("Black", side === "b" ? "You" : engineName);
    const tc = TIME_CONTROLS.find((t) => t.id === v.timeControl.value);
    if (tc?.initialMs !== undefined) tree.headers.set("TimeControl", `${tc.initialMs / 1000}+${(tc.incrementMs ?? 0) / 1000}`);
    this.human = side;
    this.active = true;
    this.result = "";
    const game = ++this.game;
    this.clock = tc?.initialMs !== undefined
      ? new ChessClock({ initialMs: tc.initialMs, incrementMs: tc.incrementMs ?? 0 }, (s) => game === this.game && this.flagFell(s), () => this.renderClocks())
      : undefined;
    await this.engine.newGame();
    // The level is the engine's strength for the whole game (analysis, an infinite search,
    // stays at full strength on the same engine).
    await this.engine.setElo(this.level.elo);
    const strength = await this.engine.strength();
    if (game !== this.game) return;
    this.showInfo(strength, start.number);
    if (this.clock) this.clock.start(sideToMove(tree.root.fen));
    if (!this.checkEnd(tree.root)) this.nextTurn(tree.root);
    this.update();
  }

  /** The start position the form asks for; undefined (and a message) for a bad number. */
  private startPosition(): { fen: string; chess960: boolean; number?: number } | undefined {
    const v = this.view;
    if (v.start.value === "current") {
      const tree = this.host.tree();
      return { fen: tree.current.fen, chess960: tree.chess960 };
    }
    if (v.start.value !== "chess960") return { fen: "startpos", chess960: false };
    const text = v.chess960Number.value.trim();
    const number = text === "" ? Math.floor(Math.random() * 960) : Number(text);
    if (!Number.isInteger(number) || number < 0 || number > 959) {
      this.host.showError(`The Chess960 start position is a number from 0 to 959 (or empty for a random one), not "${text}".`);
      return undefined;
    }
    return { fen: chess960StartFen(number), chess960: true, number };
  }

  /** Says the engine's strength (as the engine reports it) and the Chess960 start; nothing
   *  without a game. */
  private showInfo(strength: { elo: number | null; level: number } | undefined, chess960Number?: number): void {
    const { info } = this.view;
    if (!strength) {
      info.textContent = "";
      for (const key of ["elo", "skillLevel", "chess960"]) delete info.dataset[key];
      return;
    }
    const playing = strength.elo === null
      ? "The engine plays at full strength."
      : `The engine plays at ${strength.elo} Elo (skill level ${strength.level.toFixed(1)} of 20).`;
    info.textContent = chess960Number === undefined ? playing : `Chess960 start position ${chess960Number}. ${playing}`;
    info.dataset.elo = strength.elo === null ? "full" : String(strength.elo);
    info.dataset.skillLevel = strength.level.toFixed(2);
    if (chess960Number === undefined) delete info.dataset.chess960;
    else info.dataset.chess960 = String(chess960Number);
  }

  /** The user played node (a move of their side at the end of the game). */
  humanMoved(node: TreeNode): void {
    if (!this.active) return;
    this.clock?.press(this.human);
    if (!this.checkEnd(node)) this.nextTurn(node);
    this.update();
  }

  /** Takes back the user's last move (and the engine's reply to it, or its search). */
  async takeback(): Promise<void> {
    if (!this.active) return;
    const tree = this.host.tree();
    const end = tree.lineEnd(tree.root);
    // Back to the last position where it was the user's turn before their last move.
    let node = end;
    do node = node.parent ?? node;
    while (node.parent && sideToMove(node.fen) !== this.human);
    if (node === end || sideToMove(node.fen) !== this.human) return;
    this.game++; // the engine's move under way, if any, is dropped
    await this.stopThinking();
    tree.remove(node.children[0]);
    tree.current = node;
    this.host.showNode(node);
    this.clock?.start(this.human);
    this.update();
  }

  /** The user gives up. */
  resign(): void {
    if (!this.active) return;
    this.finish(this.human === "w" ? "0-1" : "1-0", `${this.human === "w" ? "White" : "Black"} resigned`, "normal");
  }

  /** Ends the game without a result (a new game, a PGN or FEN loaded over it). */
  async abandon(): Promise<void> {
    if (!this.active) return;
    this.game++;
    this.clock?.stop();
    this.active = false;
    this.update();
    await this.stopThinking();
  }

  /** Forgets the last game (its clocks and result): another game is on the board now. */
  async close(): Promise<void> {
    await this.abandon();
    this.clock = undefined;
    this.result = "";
    this.showInfo(undefined);
    this.update();
  }

  private nextTurn(node: TreeNode): void {
    if (sideToMove(node.fen) !== this.human) void this.engineMove(node);
  }

  private async engineMove(node: TreeNode): Promise<void> {
    const game = this.game;
    const tree = this.host.tree();
    const limits = levelLimits(this.clock?.limits());
    let search: Promise<SearchResult> | undefined;
    try {
      void this.engine.setChess960(tree.chess960);
      await this.engine.setPosition(tree.root.fen, tree.ucis(node));
      if (game !== this.game) return;
      search = this.engine.search(limits);
      this.thinking = search;
      this.update();
      const result = await search;
      if (this.thinking === search) this.thinking = undefined;
      if (game !== this.game || !this.active || result.bestmove === "0000") return;
      const reply = tree.play(result.bestmove, node);
      tree.current = reply;
      this.clock?.press(opponent(this.human));
      this.host.showNode(reply);
      this.checkEnd(reply);
    } catch (err) {
      if (this.thinking === search) this.thinking = undefined;
      if (game === this.game) this.host.showError(err instanceof Error ? err.message : String(err));
    }
    this.update();
  }

  /** Stops the engine's search, if one runs; resolves when the engine is free. */
  private async stopThinking(): Promise<void> {
    const thinking = this.thinking;
    if (!thinking) return;
    this.engine.stop();
    await thinking.catch(() => undefined);
    if (this.thinking === thinking) this.thinking = undefined;
  }

  /** Ends the game when node is mate or a draw by rule; true when it did. */
  private checkEnd(node: TreeNode): boolean {
    const status = this.host.tree().status(node);
    if (status === "ongoing") return false;
    if (status === "checkmate") {
      const winner = opponent(sideToMove(node.fen));
      this.finish(winner === "w" ? "1-0" : "0-1", `${winner === "w" ? "White" : "Black"} wins by checkmate`, "normal");
    } else {
      this.finish("1/2-1/2", `Draw by ${DRAWS[status]}`, "normal");
    }
    return true;
  }

  private flagFell(side: Side): void {
    if (!this.active) return;
    void this.stopThinking();
    this.game++;
    const tree = this.host.tree();
    const other = opponent(side);
    const name = (s: Side) => (s === "w" ? "White" : "Black");
    if (bareKing(tree.lineEnd(tree.root).fen, other)) {
      this.finish("1/2-1/2", `Draw: ${name(side)}'s time ran out and ${name(other)} cannot mate`, "time forfeit");
    } else {
      this.finish(other === "w" ? "1-0" : "0-1", `${name(other)} wins on time`, "time forfeit");
    }
  }

  private finish(result: string, why: string, termination: string): void {
    this.active = false;
    this.result = why;
    this.clock?.stop();
    const tree = this.host.tree();
    tree.headers.set("Result", result);
    tree.headers.set("Termination", termination);
    this.host.finished();
    this.update();
  }

  private update(): void {
    this.view.takeback.disabled = !this.active;
    this.view.resign.disabled = !this.active;
    document.body.dataset.play = this.active ? (this.thinking ? "engine-thinking" : "your-move") : this.result ? "over" : "idle";
    this.renderClocks();
    this.host.changed();
  }

  /** Draws the clocks (the board's bottom side at the bottom). */
  renderClocks(): void {
    const { clockTop, clockBottom } = this.view;
    const clock = this.clock;
    const bottom = this.host.tree() ? this.bottomSide() : "w";
    for (const [el, side] of [[clockBottom, bottom], [clockTop, opponent(bottom)]] as const) {
      el.hidden = !clock;
      if (!clock) continue;
      el.textContent = formatClock(clock.timeLeft(side));
      el.dataset.side = side;
      el.classList.toggle("running", clock.runningSide === side);
      el.classList.toggle("low", clock.timeLeft(side) < 10_000);
      el.setAttribute("aria-label", `${side === "w" ? "White" : "Black"}'s clock: ${formatClock(clock.timeLeft(side))}`);
    }
  }

  private bottomSide(): Side {
    return (document.getElementById("board")?.dataset.orientation as Side | undefined) ?? this.human;
  }
}
