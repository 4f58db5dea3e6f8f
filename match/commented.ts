// Reading back match PGNs written with `--pgn-comments` (pgn.ts writes them): for every game,
// its players and time control, and for every move who made it, with the score, depth, time,
// nodes and tbhits its comment holds ("+0.35/12 0.377s", "-M3/20 0.102s, n=5120, tbhits=3",
// "book").

import { createReadStream } from "node:fs";
import { readPgn } from "../bindings/index.js";
import type { Game } from "../bindings/index.js";
import { scoreToCp } from "./engine.js";

export interface CommentedMove {
  /** 0: White moved, 1: Black. */
  side: 0 | 1;
  /** The mover's own move count in this game, 1 at its first move after the opening line. */
  moveNumber: number;
  /** Centipawns from the mover's view, mates as scoreToCp gives them; absent without one. */
  cp?: number;
  depth?: number;
  seconds?: number;
  nodes?: number;
  tbhits?: number;
}

export interface CommentedGame {
  /** White's and Black's names. */
  players: [string, string];
  result: string;
  /** Base and increment in seconds, from the TimeControl tag ("10+0.1"); absent otherwise. */
  timeControl?: { base: number; inc: number };
  round: string;
  moves: CommentedMove[];
}

/** The score, depth, seconds, nodes and tbhits of one move comment. */
export function parseMoveComment(comment: string | undefined): Omit<CommentedMove, "side" | "moveNumber"> {
  const out: Omit<CommentedMove, "side" | "moveNumber"> = {};
  const m = /^([+-])(M?)(\d+(?:\.\d+)?)(?:\/(\d+))?/.exec(comment ?? "");
  if (m) {
    const value = (m[1] === "-" ? -1 : 1) * (m[2] ? Number(m[3]) : Math.round(Number(m[3]) * 100));
    out.cp = scoreToCp({ kind: m[2] ? "mate" : "cp", value });
    if (m[4] !== undefined) out.depth = Number(m[4]);
  }
  const t = /(\d+(?:\.\d+)?)s(?:,|\s*$)/.exec(comment ?? "");
  if (t) out.seconds = Number(t[1]);
  const n = /,\s*n=(\d+)/.exec(comment ?? ""); // the PGN's lines may break after the comma
  if (n) out.nodes = Number(n[1]);
  const tb = /,\s*tbhits=(\d+)/.exec(comment ?? "");
  if (tb) out.tbhits = Number(tb[1]);
  return out;
}

/** One game's players, time control and commented moves. */
export function toCommentedGame(game: Game): CommentedGame {
  const tc = /^(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)$/.exec(game.headers.get("TimeControl") ?? "");
  const blackFirst = game.startFen.split(" ")[1] === "b";
  return {
    players: [game.headers.get("White") ?? "?", game.headers.get("Black") ?? "?"],
    result: game.result,
    timeControl: tc ? { base: Number(tc[1]), inc: Number(tc[2]) } : undefined,
    round: game.headers.get("Round") ?? "?",
    moves: game.moves().map((move, ply) => {
      const side = ((ply + (blackFirst ? 1 : 0)) % 2) as 0 | 1;
      return { side, moveNumber: Math.floor(ply / 2) + 1, ...parseMoveComment(move.comment) };
    }),
  };
}

/** The games of the PGN files, in order. */
export async function* readCommentedGames(files: readonly string[]): AsyncGenerator<CommentedGame> {
  for (const file of files) {
    for await (const game of readPgn(createReadStream(file, "utf8"))) yield toCommentedGame(game);
  }
}

/** In a game that player `us` lost: the ply of the opponent's first score of at least
 *  threshold (centipawns) after a score of ours, with our last score before it; undefined
 *  when it never came. */
export function lossGap(game: CommentedGame, us: 0 | 1, threshold: number): { ply: number; ours: number } | undefined {
  let ours: number | undefined;
  for (const [ply, move] of game.moves.entries()) {
    if (move.side === us) ours = move.cp;
    else if (move.cp !== undefined && move.cp >= threshold && ours !== undefined) return { ply, ours };
  }
  return undefined;
}

/** The index (0 White, 1 Black) of the player named `name` when that player lost the game. */
export function loserIndex(game: CommentedGame, name: string): 0 | 1 | undefined {
  const us = game.players.indexOf(name);
  if (us < 0 || game.result !== (us === 0 ? "0-1" : "1-0")) return undefined;
  return us as 0 | 1;
}
