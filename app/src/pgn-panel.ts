// Getting games in and out: PGN pasted, opened from a file (read as a stream, game by game)
// or saved to one, the FEN of the position shown, and copying either. Errors are the engine's
// own messages: a bad FEN names its defect, a PGN that cannot be read to its end names the
// game, line, column and move (what was read before the problem is loaded).

import { parsePgn, readPgn } from "wasmchess";
import type { Game } from "wasmchess";
import { GameTree } from "./tree.js";

export interface PgnView {
  text: HTMLTextAreaElement;
  load: HTMLButtonElement;
  file: HTMLInputElement;
  games: HTMLSelectElement;
  save: HTMLButtonElement;
  copy: HTMLButtonElement;
  pgnMessage: HTMLElement;
  fen: HTMLInputElement;
  setFen: HTMLButtonElement;
  copyFen: HTMLButtonElement;
  fenMessage: HTMLElement;
}

export interface PgnHost {
  tree(): GameTree;
  /** Puts tree on the board (ending a game against the engine). */
  load(tree: GameTree): Promise<void>;
}

/** Games kept from one file (a larger file shows its first ones). */
const MAX_GAMES = 500;

export class PgnPanel {
  private games: Game[] = [];

  constructor(private readonly view: PgnView, private readonly host: PgnHost) {
    view.load.addEventListener("click", () => void this.loadText());
    view.file.addEventListener("change", () => void this.loadFile());
    view.games.addEventListener("change", () => void this.loadGame(Number(view.games.value)));
    view.save.addEventListener("click", () => this.save());
    view.copy.addEventListener("click", () => void this.copy(this.pgn(), view.pgnMessage, "PGN"));
    view.setFen.addEventListener("click", () => void this.setFen());
    view.fen.addEventListener("keydown", (e) => {
      if (e.key === "Enter") void this.setFen();
    });
    view.copyFen.addEventListener("click", () => void this.copy(this.host.tree().current.fen, view.fenMessage, "FEN"));
  }

  /** Shows the FEN of the position on the board (unless the user is editing the field). */
  showFen(fen: string): void {
    if (document.activeElement === this.view.fen) return;
    this.view.fen.value = fen;
    this.view.fen.removeAttribute("aria-invalid");
  }

  /** Clears the messages (a new game is on the board). */
  clearMessages(): void {
    for (const where of [this.view.pgnMessage, this.view.fenMessage]) this.say(where, "", false);
  }

  private pgn(): string {
    return this.host.tree().toGame().toPgn();
  }

  private async loadText(): Promise<void> {
    const text = this.view.text.value;
    if (!text.trim()) return this.say(this.view.pgnMessage, "Paste a PGN into the box first.", true);
    await this.setGames(await parsePgn(text));
  }

  private async loadFile(): Promise<void> {
    const file = this.view.file.files?.[0];
    if (!file) return;
    const games: Game[] = [];
    for await (const game of readPgn(file.stream())) {
      games.push(game);
      if (games.length >= MAX_GAMES) break;
    }
    this.view.file.value = "";
    await this.setGames(games);
  }

  private async setGames(games: Game[]): Promise<void> {
    this.games = games;
    const select = this.view.games;
    select.replaceChildren();
    games.forEach((g, i) => {
      const name = `${i + 1}. ${g.headers.get("White") ?? "?"} – ${g.headers.get("Black") ?? "?"} ${g.result}`;
      select.add(new Option(g.error ? `${name} (unreadable after move ${g.length})` : name, String(i)));
    });
    select.parentElement!.hidden = games.length < 2;
    if (games.length === 0) return this.say(this.view.pgnMessage, "No game found in that text.", true);
    await this.loadGame(0);
  }

  private async loadGame(index: number): Promise<void> {
    const game = this.games[index];
    if (!game) return;
    this.view.games.value = String(index);
    await this.host.load(GameTree.fromGame(game));
    if (game.error) this.say(this.view.pgnMessage, `Loaded up to the problem: ${game.error.message}`, true);
    else this.say(this.view.pgnMessage, `Loaded ${game.length} moves${this.games.length > 1 ? ` (game ${index + 1} of ${this.games.length})` : ""}.`, false);
  }

  private save(): void {
    const tree = this.host.tree();
    const names = [tree.headers.get("White"), tree.headers.get("Black")].filter((n) => n && n !== "?");
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([this.pgn()], { type: "application/x-chess-pgn" }));
    link.download = `${names.length ? names.join("-").replace(/[^\w.-]+/g, "_") : "game"}.pgn`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    this.say(this.view.pgnMessage, `Saved ${link.download}.`, false);
  }

  private async setFen(): Promise<void> {
    const fen = this.view.fen.value.trim();
    let tree: GameTree;
    try {
      tree = fenTree(fen);
    } catch (err) {
      this.view.fen.setAttribute("aria-invalid", "true");
      return this.say(this.view.fenMessage, err instanceof Error ? err.message : String(err), true);
    }
    this.view.fen.removeAttribute("aria-invalid");
    await this.host.load(tree);
    this.say(this.view.fenMessage, "Position set.", false);
  }

  private async copy(text: string, where: HTMLElement, what: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      this.say(where, `${what} copied to the clipboard.`, false);
    } catch {
      // No clipboard access (an insecure page, or permission refused): show it to copy by hand.
      this.view.text.value = text;
      this.view.text.select();
      this.say(where, `${what} is in the PGN box, selected: copy it from there.`, true);
    }
  }

  private say(where: HTMLElement, text: string, error: boolean): void {
    where.textContent = text;
    where.classList.toggle("error", error);
    where.dataset.kind = error ? "error" : "ok";
  }
}

/** A tree from a FEN: standard chess, or Chess960 when only Chess960 reads it (castling rights
 *  that name a king and rooks off their standard squares, or Shredder-FEN letters). A FEN
 *  neither reads throws the standard reading's error. */
function fenTree(fen: string): GameTree {
  try {
    return new GameTree(fen);
  } catch (err) {
    try {
      return new GameTree(fen, true);
    } catch {
      throw err;
    }
  }
}
