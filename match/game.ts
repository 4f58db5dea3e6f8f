// Plays one game between two MatchEngines from an opening: clocks, legality of every move
// (our own move generator), the rules' endings, score-based adjudication, and losses by
// illegal move, time, crash or no reply, each with its reason.

import { Core, START_FEN } from "../bindings/core.js";
import { GameClocks, Limits, Side } from "./clock.js";
import { MatchEngine, Score, engineLimits, scoreToCp } from "./engine.js";
import { Opening } from "./openings.js";

export type Result = "1-0" | "0-1" | "1/2-1/2" | "*";

/** Why a game ended. */
export type EndKind =
  | "checkmate" | "stalemate" | "threefold" | "fifty-moves" | "insufficient-material"
  | "resign-adjudication" | "draw-adjudication" | "max-moves" | "tablebase-adjudication"
  | "illegal-move" | "time-forfeit" | "no-reply" | "crash" | "start-failure"
  | "aborted";

export interface GameEnd {
  result: Result;
  kind: EndKind;
  /** The PGN Termination tag value ("normal", "adjudication", "time forfeit", ...). */
  termination: string;
  /** A sentence for the PGN comment and logs ("Black mates", "White loses on time ..."). */
  reason: string;
  /** The side that lost, for decisive endings. */
  loser?: Side;
}

export interface MoveRecord {
  uci: string;
  san: string;
  /** True for the opening's moves, which no engine chose. */
  book: boolean;
  score?: Score;
  depth?: number;
  timeMs?: number;
  /** The engine's last nodes and tbhits of the search that chose the move. */
  nodes?: number;
  tbhits?: number;
}

export interface GameRecord {
  white: string;
  black: string;
  opening: Opening;
  moves: MoveRecord[];
  end: GameEnd;
  startedAt: Date;
}

/** Score-based adjudication; every part optional. Scores are each engine's own reports. */
export interface Adjudication {
  /** A side loses when it reported <= −scoreCp and its opponent >= +scoreCp for moveCount
   *  consecutive moves each. */
  resign?: { moveCount: number; scoreCp: number };
  /** Drawn when both reported |score| <= scoreCp for moveCount consecutive moves each, once
   *  the position's full-move number is at least moveNumber. */
  draw?: { moveNumber: number; moveCount: number; scoreCp: number };
  /** Drawn once the game (opening included) has this many full moves. */
  maxMoves?: number;
  /** Decided by Syzygy tables once at most `pieces` pieces are left and no castling right
   *  (cutechess's -tb and -tbpieces): a win or loss with the halfmove clock counted ends the
   *  game, anything else draws it. The tables are read from `path` (the runner loads them
   *  into its rules instance). */
  tablebase?: { path: string; pieces: number };
}

export interface GameSettings {
  /** Both engines' limits, but for an engine that has its own (EngineConfig.limits). */
  limits: Limits;
  /** Tolerance beyond the clock (or movetime) before a time loss. */
  marginMs: number;
  /** How long a nodes- or depth-limited search may take before it counts as no reply. */
  replyTimeoutMs: number;
  /** After the allowed time, how long to wait for bestmove after `stop` before killing. */
  stopGraceMs: number;
  adjudication: Adjudication;
}

const COLOR = ["White", "Black"] as const;

function decisive(loser: Side, kind: EndKind, termination: string, reason: string): GameEnd {
  return { result: loser === 0 ? "0-1" : "1-0", kind, termination, reason, loser };
}

function draw(kind: EndKind, termination: string, reason: string): GameEnd {
  return { result: "1/2-1/2", kind, termination, reason };
}

/** The ending the rules give the position after `mover` moved, or undefined. */
function rulesEnd(core: Core, mover: Side): GameEnd | undefined {
  switch (core.status()) {
    case "ongoing":
      return undefined;
    case "checkmate":
      return decisive((1 - mover) as Side, "checkmate", "normal", `${COLOR[mover]} mates`);
    case "stalemate":
      return draw("stalemate", "normal", "Draw by stalemate");
    case "threefold":
      return draw("threefold", "normal", "Draw by 3-fold repetition");
    case "fifty-moves":
      return draw("fifty-moves", "normal", "Draw by fifty moves rule");
    case "insufficient-material":
      return draw("insufficient-material", "normal", "Draw by insufficient mating material");
  }
}

/** The result the tables give the position, once it is small enough; undefined before, and
 *  where no table answers (a table missing: the game goes on). */
function tablebaseEnd(core: Core, pieces: number): GameEnd | undefined {
  const [board, side, castling] = core.fen().split(" ");
  if (castling !== "-" || board.replace(/[^a-z]/gi, "").length > pieces) return undefined;
  let category: string;
  try {
    category = core.probeTablebase().category;
  } catch {
    return undefined;
  }
  const toMove: Side = side === "w" ? 0 : 1;
  const reason = (what: string) => `${what} by the tablebases`;
  if (category === "win") return decisive((1 - toMove) as Side, "tablebase-adjudication", "adjudication", reason(`${COLOR[toMove]} wins`));
  if (category === "loss") return decisive(toMove, "tablebase-adjudication", "adjudication", reason(`${COLOR[1 - toMove]} wins`));
  return draw("tablebase-adjudication", "adjudication", reason(category === "draw" ? "Draw" : `Draw (a ${category} under the 50-move rule)`));
}

/** Consecutive-move counters behind score adjudication. */
class Adjudicator {
  private readonly low: [number, number] = [0, 0];
  private readonly high: [number, number] = [0, 0];
  private readonly quiet: [number, number] = [0, 0];

  constructor(private readonly rules: Adjudication) {}

  /** Records the score the mover reported and returns an ending if one is due. */
  update(mover: Side, score: Score | undefined, fullmove: number, plies: number): GameEnd | undefined {
    const cp = score ? scoreToCp(score) : undefined;
    const { resign, draw: drawRule, maxMoves } = this.rules;
    if (resign) {
      this.low[mover] = cp !== undefined && cp <= -resign.scoreCp ? this.low[mover] + 1 : 0;
      this.high[mover] = cp !== undefined && cp >= resign.scoreCp ? this.high[mover] + 1 : 0;
      for (const side of [0, 1] as const) {
        if (this.low[side] >= resign.moveCount && this.high[1 - side] >= resign.moveCount) {
          return decisive(side, "resign-adjudication", "adjudication",
            `${COLOR[side]} loses by adjudication: both engines agreed on a score beyond ${resign.scoreCp} cp for ${resign.moveCount} moves`);
        }
      }
    }
    if (drawRule) {
      this.quiet[mover] = cp !== undefined && Math.abs(cp) <= drawRule.scoreCp ? this.quiet[mover] + 1 : 0;
      if (fullmove >= drawRule.moveNumber && this.quiet[0] >= drawRule.moveCount && this.quiet[1] >= drawRule.moveCount) {
        return draw("draw-adjudication", "adjudication",
          `Draw by adjudication: both scores within ${drawRule.scoreCp} cp for ${drawRule.moveCount} moves`);
      }
    }
    if (maxMoves !== undefined && plies >= 2 * maxMoves) {
      return draw("max-moves", "adjudication", `Draw by adjudication: ${maxMoves} moves played`);
    }
    return undefined;
  }
}

/** The `position` command for the opening plus the moves so far. */
export function positionCommand(fen: string, moves: readonly string[]): string {
  const base = fen === START_FEN ? "position startpos" : `position fen ${fen}`;
  return moves.length ? `${base} moves ${moves.join(" ")}` : base;
}

/** Plays one game; `engines` is [white, black]. The core's position is overwritten.
 *  `aborted` is polled so a stopping match can abandon the game (result "*"). */
export async function playGame(
  core: Core,
  engines: readonly [MatchEngine, MatchEngine],
  opening: Opening,
  settings: GameSettings,
  aborted: () => boolean = () => false,
): Promise<GameRecord> {
  const record: GameRecord = {
    white: engines[0].name,
    black: engines[1].name,
    opening,
    moves: [],
    end: { result: "*", kind: "aborted", termination: "unterminated", reason: "Game abandoned: the match was stopped" },
    startedAt: new Date(),
  };
  for (const side of [0, 1] as const) {
    try {
      await engines[side].newGame();
    } catch (err) {
      if (!aborted()) {
        const why = err instanceof Error ? err.message : String(err);
        record.end = decisive(side, "start-failure", "abandoned", `${COLOR[side]}'s engine could not be started: ${why}`);
      }
      return record;
    }
  }
  core.setPosition(opening.fen);
  for (const uci of opening.moves) {
    record.moves.push({ uci, san: core.toSan(uci), book: true });
    core.playMove(uci);
  }
  const end = rulesEnd(core, core.fen().split(" ")[1] === "w" ? 1 : 0) ?? (await playMoves(core, engines, opening, settings, record, aborted));
  if (end) record.end = end;
  return record;
}

/** The move loop; returns the ending, or undefined when the match was stopped. */
async function playMoves(
  core: Core,
  engines: readonly [MatchEngine, MatchEngine],
  opening: Opening,
  settings: GameSettings,
  record: GameRecord,
  aborted: () => boolean,
): Promise<GameEnd | undefined> {
  const clocks = new GameClocks(
    [engineLimits(engines[0].config, settings.limits), engineLimits(engines[1].config, settings.limits)],
    settings.marginMs,
    settings.replyTimeoutMs,
  );
  const adjudicator = new Adjudicator(settings.adjudication);
  const uciMoves = record.moves.map((m) => m.uci);
  for (;;) {
    const fields = core.fen().split(" ");
    const side: Side = fields[1] === "w" ? 0 : 1;
    const who = COLOR[side];
    const go = clocks.goCommand(side);
    const allowed = clocks.allowedMs(side);
    const left = clocks.remainingMs[side];
    const reply = await engines[side].search(positionCommand(opening.fen, uciMoves), go, allowed, settings.stopGraceMs);
    if (aborted()) return undefined;
    switch (reply.kind) {
      case "crash":
        return decisive(side, "crash", "abandoned", `${who}'s engine crashed: ${reply.detail}`);
      case "no-reply":
        return decisive(side, "no-reply", "stalled connection",
          `${who} did not reply to "${go}" within ${Math.round(allowed)} ms, nor ${settings.stopGraceMs} ms after stop`);
      case "timeout":
        if (!clocks.timed) {
          return decisive(side, "no-reply", "stalled connection",
            `${who} did not reply to "${go}" within ${Math.round(allowed)} ms (answered only after stop)`);
        }
        return decisive(side, "time-forfeit", "time forfeit", `${who} loses on time (no bestmove within ${Math.round(allowed)} ms` +
          (reply.move ? `; it came after ${Math.round(reply.elapsedMs)} ms)` : ")"));
    }
    if (!clocks.charge(side, reply.elapsedMs)) {
      const limits = clocks.limits[side];
      const had = limits.kind === "tc" ? `${Math.round(left)} ms left` : `movetime ${limits.kind === "movetime" ? limits.ms : 0} ms`;
      return decisive(side, "time-forfeit", "time forfeit",
        `${who} loses on time (used ${Math.round(reply.elapsedMs)} ms with ${had} + ${settings.marginMs} ms margin)`);
    }
    let san: string;
    try {
      san = core.toSan(reply.move);
    } catch {
      return decisive(side, "illegal-move", "rules infraction", `${who} makes an illegal move: ${reply.move || "(empty)"}`);
    }
    if (!core.playMove(reply.move)) {
      return decisive(side, "illegal-move", "rules infraction", `${who} makes an illegal move: ${reply.move}`);
    }
    uciMoves.push(reply.move);
    record.moves.push({
      uci: reply.move, san, book: false, score: reply.score, depth: reply.depth, timeMs: reply.elapsedMs, nodes: reply.nodes, tbhits: reply.tbhits,
    });
    const tb = settings.adjudication.tablebase;
    const end =
      rulesEnd(core, side) ??
      (tb ? tablebaseEnd(core, tb.pieces) : undefined) ??
      adjudicator.update(side, reply.score, Number(core.fen().split(" ")[5]), record.moves.length);
    if (end) return end;
  }
}
