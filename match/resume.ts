// Resuming a match: the games an earlier run of the same match wrote to its PGN, read back
// so that the run goes on where it stopped (the same game numbers, openings and colours,
// the score and the SPRT counted from the first game) instead of starting again.

import { existsSync, readFileSync } from "node:fs";
import { Game, parsePgn } from "../bindings/index.js";
import { Side } from "./clock.js";
import { EndKind, Result } from "./game.js";

/** A finished game of an earlier run, as its PGN records it. */
export interface PlayedGame {
  /** 0-based game number (the PGN Round minus one). */
  index: number;
  white: string;
  black: string;
  /** The position the game started from (the opening's FEN, before its moves). */
  startFen: string;
  /** The moves in UCI, the opening's first. */
  moves: string[];
  result: Exclude<Result, "*">;
  kind: EndKind;
  loser?: Side;
}

/** Why a game ended, from its Termination tag and the reason the runner wrote as the last
 *  comment (match/game.ts writes both). */
export function endKindOf(termination: string, reason: string, result: PlayedGame["result"]): EndKind {
  switch (termination) {
    case "rules infraction": return "illegal-move";
    case "time forfeit": return "time-forfeit";
    case "stalled connection": return "no-reply";
    case "abandoned": return / could not be started: /.test(reason) ? "start-failure" : "crash";
    case "adjudication":
      if (/ moves played$/.test(reason)) return "max-moves";
      if (/ by the tablebases$/.test(reason)) return "tablebase-adjudication";
      return result === "1/2-1/2" ? "draw-adjudication" : "resign-adjudication";
    case "normal":
      if (/ mates$/.test(reason)) return "checkmate";
      if (/stalemate$/.test(reason)) return "stalemate";
      if (/3-fold repetition$/.test(reason)) return "threefold";
      if (/fifty moves rule$/.test(reason)) return "fifty-moves";
      if (/insufficient mating material$/.test(reason)) return "insufficient-material";
  }
  throw new Error(`a game ended in a way the match runner does not write (Termination "${termination}", "${reason}")`);
}

function playedGame(game: Game, n: number): PlayedGame {
  const where = `game ${n}`;
  if (game.error) throw new Error(`${where} cannot be read: ${game.error.message}`);
  const tag = (name: string) => {
    const value = game.headers.get(name);
    if (value === undefined) throw new Error(`${where} has no ${name} tag`);
    return value;
  };
  const round = Number(tag("Round"));
  if (!Number.isInteger(round) || round < 1) throw new Error(`${where} has Round "${tag("Round")}", not a game number`);
  const result = tag("Result");
  if (result !== "1-0" && result !== "0-1" && result !== "1/2-1/2") throw new Error(`${where} has no result (Result "${result}")`);
  const moves = game.moves();
  const reason = (moves.length ? moves[moves.length - 1].comment : game.comment) ?? "";
  const kind = endKindOf(tag("Termination"), reason, result);
  return {
    index: round - 1, white: tag("White"), black: tag("Black"), startFen: game.startFen, moves: moves.map((m) => m.uci), result, kind,
    loser: result === "1/2-1/2" ? undefined : result === "1-0" ? 1 : 0,
  };
}

/** The finished games in a match's PGN file; none when the file does not exist. Throws, naming
 *  the game, when a game cannot be read or was not written by the match runner. */
export async function readPlayedGames(path: string): Promise<PlayedGame[]> {
  if (!existsSync(path)) return [];
  const games = await parsePgn(readFileSync(path, "utf8"));
  return games.map((g, i) => {
    try {
      return playedGame(g, i + 1);
    } catch (err) {
      throw new Error(`${path}: ${(err as Error).message}`);
    }
  });
}
