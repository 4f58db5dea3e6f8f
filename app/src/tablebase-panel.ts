// The tablebase panel: for a position of up to four pieces without castling rights, the result
// with perfect play and every move coloured by what it keeps (win, draw, loss) with its DTZ, as
// lichess shows its tablebase, from the Syzygy 3-4-piece set the app ships (4.3 MB, fetched
// once, when first needed or after the engine has started). The panel probes on an engine of
// its own (its worker never waits behind the analysis); the app's engines get the same tables,
// so that play and analysis use them too.

import { Engine } from "wasmchess";
import type { TableBytes, TablebaseCategory, TablebaseMove } from "wasmchess";

/** The tables of three and four pieces, named as the generator names them. */
export function tableNames(): string[] {
  const p = ["Q", "R", "B", "N", "P"];
  const names: string[] = p.map((a) => `K${a}vK`);
  for (let i = 0; i < p.length; i++) {
    for (let j = i; j < p.length; j++) names.push(`K${p[i]}${p[j]}vK`, `K${p[i]}vK${p[j]}`);
  }
  return names.flatMap((n) => [`${n}.rtbw`, `${n}.rtbz`]);
}

/** Fetches the 3-4-piece set the app serves (public/syzygy/3-4). */
export async function fetchTables(base = "./syzygy/3-4/"): Promise<TableBytes[]> {
  return Promise.all(tableNames().map(async (name) => {
    const response = await fetch(new URL(name, new URL(base, document.baseURI)));
    if (!response.ok) throw new Error(`tablebase file ${name}: HTTP ${response.status}`);
    return { name, bytes: await response.arrayBuffer() };
  }));
}

export interface TablebaseView {
  panel: HTMLElement;
  status: HTMLElement;
  moves: HTMLOListElement;
}

/** What a move keeps for the side that makes it: the opposite of the position it leads to. */
const FOR_MOVER: Record<TablebaseCategory, TablebaseCategory> = {
  loss: "win", "blessed-loss": "cursed-win", draw: "draw", "cursed-win": "blessed-loss", win: "loss",
};
const LABEL: Record<TablebaseCategory, string> = {
  win: "Win", "cursed-win": "Win, but drawn by the 50-move rule", draw: "Draw", "blessed-loss": "Loss, but saved by the 50-move rule", loss: "Loss",
};
/** The colour class of a result: cursed wins and blessed losses are draws in a real game. */
const COLOUR: Record<TablebaseCategory, string> = { win: "win", "cursed-win": "draw", draw: "draw", "blessed-loss": "draw", loss: "loss" };

export class TablebasePanel {
  private tables?: Promise<TableBytes[]>;
  private prober?: Promise<Engine>;
  private shown = 0;

  constructor(private readonly view: TablebaseView, private readonly playMove: (uci: string) => void) {}

  /** The tables, fetched once. */
  load(): Promise<TableBytes[]> {
    this.tables ??= fetchTables();
    return this.tables;
  }

  /** Gives an engine the tables (play and analysis use them from then on). */
  async give(engine: Engine): Promise<void> {
    await engine.loadTablebases(await this.load());
  }

  /** Shows what the tables say about the position `fen` (chess960: a Chess960 game, whose
   *  castling rights keep the tables out). */
  async show(fen: string): Promise<void> {
    const run = ++this.shown;
    const { panel, status, moves } = this.view;
    const [board, , castling] = fen.split(" ");
    const pieces = [...board].filter((c) => /[a-z]/i.test(c)).length;
    if (pieces > 4 || (castling !== undefined && castling !== "-")) {
      panel.dataset.state = "off";
      status.textContent = pieces > 4 ? `Positions with up to 4 pieces (this one has ${pieces}).` : "Not with castling rights.";
      moves.replaceChildren();
      return;
    }
    panel.dataset.state = "loading";
    status.textContent = "Reading the tables…";
    try {
      this.prober ??= this.load().then(async (tables) => {
        const engine = await Engine.create({ build: "classical", hashMb: 1 });
        await engine.loadTablebases(tables);
        return engine;
      });
      const probe = await (await this.prober).probe(fen);
      if (run !== this.shown) return;
      panel.dataset.state = "shown";
      panel.dataset.category = probe.category;
      const side = fen.split(" ")[1] === "w" ? "White" : "Black";
      status.textContent = probe.checkmate ? "Checkmate." : probe.stalemate ? "Stalemate." :
        `${LABEL[probe.category]} for ${side}${probe.dtz !== 0 ? ` (DTZ ${Math.abs(probe.dtz)})` : ""}.`;
      moves.replaceChildren(...probe.moves.map((m) => this.moveItem(m)));
    } catch (err) {
      if (run !== this.shown) return;
      panel.dataset.state = "failed";
      status.textContent = `The tables could not answer: ${err instanceof Error ? err.message : String(err)}`;
      moves.replaceChildren();
    }
  }

  private moveItem(m: TablebaseMove): HTMLLIElement {
    const result = FOR_MOVER[m.category];
    const li = document.createElement("li");
    li.className = `tb-${COLOUR[result]}`;
    li.dataset.category = result;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = m.san;
    button.title = `Play ${m.san}`;
    button.addEventListener("click", () => this.playMove(m.uci));
    const text = document.createElement("span");
    text.textContent = m.checkmate ? "Checkmate" : m.stalemate ? "Stalemate" : m.insufficientMaterial ? "Draw (insufficient material)" :
      `${LABEL[result]}${m.zeroing && result !== "draw" ? ", zeroing" : m.dtz !== 0 ? `, DTZ ${Math.abs(m.dtz)}` : ""}`;
    li.append(button, text);
    return li;
  }
}
