// What the Syzygy tables say about a position, in the shape of lichess's tablebase API
// (tablebase.lichess.ovh): the position's category and DTZ, and every legal move with the
// category and DTZ of the position it leads to, best first. Read from an engine instance that
// has tables registered (syzygy.ts); Core.probeTablebase calls it.

import type { EngineExports } from "./wasm.js";

/** A result as lichess names it, from the side to move's view: a cursed win is a win the
 *  50-move rule turns into a draw, a blessed loss a loss it saves. */
export type TablebaseCategory = "win" | "cursed-win" | "draw" | "blessed-loss" | "loss";

/** A legal move and the position it leads to, from the view of the side to move there (as
 *  lichess gives moves: "loss" is the best a move can do). */
export interface TablebaseMove {
  uci: string;
  san: string;
  category: TablebaseCategory;
  /** DTZ of the position after the move (plies to a zeroing move, signed from the view of
   *  the side to move there; 0 a draw or a position with no legal move). */
  dtz: number;
  /** A capture or pawn move (the halfmove clock starts again). */
  zeroing: boolean;
  checkmate: boolean;
  stalemate: boolean;
  insufficientMaterial: boolean;
}

/** A position's tablebase answer. */
export interface TablebaseProbe {
  category: TablebaseCategory;
  /** Plies to a zeroing move (a capture, pawn move or mate) with best play, positive when
   *  the side to move wins, negative when it loses, 0 a draw; as Fathom's probe_dtz, a value
   *  may be one ply more than the truth where a table stores moves, not plies. */
  dtz: number;
  checkmate: boolean;
  stalemate: boolean;
  insufficientMaterial: boolean;
  /** Every legal move, the best first. */
  moves: TablebaseMove[];
}

/** The engine's TB_PROBE_FAILED (assembly/syzygy-probe.ts). */
const PROBE_FAILED = -1000000;
const ORDER: Record<TablebaseCategory, number> = { loss: 0, "blessed-loss": 1, draw: 2, "cursed-win": 3, win: 4 };

type ProbeExports = Pick<
  EngineExports,
  | "getFen" | "tbProbeWdl" | "tbProbeDtz" | "tbMaxPieces" | "halfmoveClock" | "sideInCheck" | "legalMovesWithSan" | "playUciMove"
  | "undoLastMove" | "deadDraw"
>;

/** The material of a FEN as a table is named ("KRPvKR"), and its piece count. */
function material(fen: string): { name: string; pieces: number } {
  const board = fen.split(" ")[0];
  const side = (upper: boolean) =>
    [..."kqrbnp"].map((p) => (upper ? p.toUpperCase() : p)).map((p) => p.repeat([...board].filter((c) => c === p).length)).join("").toUpperCase();
  const name = `${side(true)}v${side(false)}`;
  return { name, pieces: name.length - 1 };
}

/** Why the position cannot be probed: castling rights, too many pieces, or no table. */
function probeError(w: ProbeExports, fen: string): Error {
  const castling = fen.split(" ")[2];
  if (castling !== undefined && castling !== "-") return new Error(`${fen}: positions with castling rights are not in the tables`);
  const { name, pieces } = material(fen);
  const max = w.tbMaxPieces();
  if (max === 0) return new Error("no tablebases are loaded");
  if (pieces > max) return new Error(`${fen}: ${pieces} pieces, and the tables loaded have at most ${max}`);
  return new Error(`${fen}: no table for ${name} (or a table it needs) is loaded, or a table could not be read`);
}

/** The category of a WDL value and DTZ with the halfmove clock (the tables' WDL assumes a
 *  clock of 0). */
function category(wdl: number, dtz: number, halfmoves: number): TablebaseCategory {
  if (wdl === 2) return dtz + halfmoves <= 100 ? "win" : "cursed-win";
  if (wdl === 1) return "cursed-win";
  if (wdl === -1) return "blessed-loss";
  if (wdl === -2) return -dtz + halfmoves <= 100 ? "loss" : "blessed-loss";
  return "draw";
}

/** The current position of w: its category, DTZ and every move's; throws an Error that says
 *  why when the tables cannot answer (castling rights, too many pieces, a table missing). */
export function probePosition(w: ProbeExports): TablebaseProbe {
  const fen = w.getFen();
  const castling = fen.split(" ")[2];
  if ((castling !== undefined && castling !== "-") || material(fen).pieces > w.tbMaxPieces()) throw probeError(w, fen);
  const here = probeHere(w);
  if (here === undefined) throw probeError(w, fen);
  const moves: TablebaseMove[] = [];
  const text = w.legalMovesWithSan();
  const words = text ? text.split(" ") : [];
  for (let i = 0; i < words.length; i += 2) {
    const uci = words[i];
    w.playUciMove(uci);
    try {
      const child = probeHere(w);
      if (child === undefined) throw probeError(w, w.getFen());
      moves.push({ uci, san: words[i + 1], ...child, zeroing: w.halfmoveClock() === 0 });
    } finally {
      w.undoLastMove();
    }
  }
  moves.sort(compareMoves);
  return { ...here, moves };
}

/** The current position's own values, without its moves; undefined when a probe fails. */
function probeHere(w: ProbeExports): Omit<TablebaseProbe, "moves"> | undefined {
  const hasMoves = w.legalMovesWithSan() !== "";
  const checkmate = !hasMoves && w.sideInCheck();
  const stalemate = !hasMoves && !checkmate;
  const insufficientMaterial = w.deadDraw();
  if (checkmate) return { category: "loss", dtz: 0, checkmate, stalemate, insufficientMaterial };
  if (stalemate) return { category: "draw", dtz: 0, checkmate, stalemate, insufficientMaterial };
  const wdl = w.tbProbeWdl();
  if (wdl === PROBE_FAILED) return undefined;
  const dtz = wdl === 0 ? 0 : w.tbProbeDtz();
  if (dtz === PROBE_FAILED) return undefined;
  return { category: category(wdl, dtz, w.halfmoveClock()), dtz, checkmate, stalemate, insufficientMaterial };
}

/** Best move first for the side to move: a mate, then the worst position for the opponent,
 *  then (the opponent losing) the quickest zeroing or (the opponent winning) the slowest. */
function compareMoves(a: TablebaseMove, b: TablebaseMove): number {
  if (a.checkmate !== b.checkmate) return a.checkmate ? -1 : 1;
  const c = ORDER[a.category] - ORDER[b.category];
  if (c !== 0) return c;
  if (a.category === "loss" || a.category === "blessed-loss") {
    if (a.zeroing !== b.zeroing) return a.zeroing ? -1 : 1;
    return Math.abs(a.dtz) - Math.abs(b.dtz);
  }
  if (a.category === "win" || a.category === "cursed-win") return Math.abs(b.dtz) - Math.abs(a.dtz);
  return 0;
}
