// The UCI protocol over any line transport, on top of an Engine: parses commands, keeps the
// search lifecycle (exactly one bestmove per go, held back while pondering or infinite), and
// turns every problem into `info string error: ...` while the session goes on.

import { Engine } from "./engine.js";
import type { EngineInfo } from "./core.js";
import { START_FEN, MAX_PERFT_DEPTH } from "./core.js";
import type { SearchLimits, SearchInfo, SearchResult, Score } from "./search-types.js";
import {
  HASH_MIN_MB, HASH_MAX_MB, HASH_DEFAULT_MB, MULTIPV_MAX, MULTIPV_DEFAULT, MOVE_OVERHEAD_MAX_MS, MOVE_OVERHEAD_DEFAULT_MS,
  SEARCH_FEATURES_MAX, THREADS_MAX, NUMERIC_LIMITS, LIMIT_RANGES, ENDING_LIMITS, SEARCH_MODES, clampLimit,
} from "./validate.js";
import type { NumericLimit, SearchMode } from "./validate.js";
import { UciBook } from "./uci-book.js";
import { ELO_MIN, ELO_MAX, SKILL_MIN, SKILL_MAX } from "./strength.js";
import type { UciFileHost } from "./uci-book.js";
import { SYZYGY_DEFAULTS, SYZYGY_PROBE_DEPTH_MAX, SYZYGY_PROBE_LIMIT_MAX } from "./engine-options.js";

/** UCI_Elo's default value (used once UCI_LimitStrength is on). */
const UCI_ELO_DEFAULT = 1500;

export const ENGINE_NAME = "WasmChess 0.1.0";
export const ENGINE_AUTHOR = "the WasmChess developers";

/** Splits a command line into tokens (any run of whitespace separates; CR is dropped). */
export function tokenize(line: string): string[] {
  return line.trim().split(/\s+/).filter((t) => t.length > 0);
}

/** Renders the board the way Stockfish's `d` does, from a FEN. */
export function boardDiagram(fen: string): string[] {
  const rows = fen.split(" ")[0].split("/");
  const sep = " +---+---+---+---+---+---+---+---+";
  const out = [sep];
  rows.forEach((row, i) => {
    const cells = row.replace(/[1-8]/g, (d) => " ".repeat(Number(d))).split("");
    out.push(" | " + cells.join(" | ") + " | " + (8 - i), sep);
  });
  out.push("   a   b   c   d   e   f   g   h");
  return out;
}

function scoreText(s: Score): string {
  return "mate" in s ? `mate ${s.mate}` : `cp ${s.cp}`;
}

/** The UCI info line of a record (with `wdl W D L` after the score when showWdl). */
export function infoLine(i: SearchInfo, showWdl = false): string {
  const bound = i.bound === "lower" ? " lowerbound" : i.bound === "upper" ? " upperbound" : "";
  const wdl = showWdl && i.wdl ? ` wdl ${i.wdl.join(" ")}` : "";
  return (
    `info depth ${i.depth} seldepth ${i.seldepth} multipv ${i.multipv} score ${scoreText(i.score)}${bound}${wdl} ` +
    `nodes ${i.nodes} nps ${i.nps} hashfull ${i.hashfull} tbhits ${i.tbhits} time ${i.timeMs}` + (i.pv.length ? ` pv ${i.pv.join(" ")}` : "")
  );
}

const GO_KEYWORDS = new Set<string>([...NUMERIC_LIMITS, "searchmoves", "ponder", "infinite"]);

interface SpinOption {
  name: string;
  min: number;
  max: number;
  value: number;
  apply: (engine: Engine, v: number) => Promise<unknown>;
}

/** One `go`, from the moment its line is read: a `stop` or `ponderhit` that arrives while
 *  it still waits in the command queue is kept here and applied when the search starts. */
interface Search {
  done: Promise<void>;
  started: boolean;
  ponder: boolean; // go ponder: bestmove waits for ponderhit or stop
  ponderhit: boolean;
  infinite: boolean; // go infinite (or no limit at all): bestmove waits for stop
  stopRequested: boolean;
  result?: SearchResult;
  printed: boolean;
}

/** While true, the search's bestmove is held back (pondering, or an infinite search). */
function holding(s: Search): boolean {
  return !s.stopRequested && ((s.ponder && !s.ponderhit) || s.infinite);
}

/** The value of a check option: true or false (any case), else an Error naming the option. */
function checkCheckValue(name: string, value: string | undefined): boolean {
  const v = value?.toLowerCase();
  if (v !== "true" && v !== "false") throw new Error(`option ${name} needs true or false, not '${(value ?? "").slice(0, 40)}'`);
  return v === "true";
}

/** The commands a session understands. */
const COMMANDS = new Set([
  "uci", "debug", "isready", "setoption", "register", "ucinewgame", "position", "go", "stop",
  "ponderhit", "quit", "d", "eval", "bench",
]);

/** What a session may do on its host: read files (the CLI in Node), for EvalFile and Book
 *  File, and write them, for a learning book; and whether it is a tuning session, which
 *  offers the search's tunable parameters as spin options (`wasmchess --tune`). */
export type UciHost = UciFileHost & { tune?: boolean };

/** The id name: the engine and its evaluation ("NNUE" or "classical"). */
export function engineTitle(info: EngineInfo): string {
  return `${ENGINE_NAME} ${info.evaluation === "nnue" ? "NNUE" : "classical"}`;
}

/** A UCI session driving one Engine. Lines go in through `handle`; replies come out through
 *  `send`. `handle` returns false for `quit`; then `quit()` ends the session. */
export class UciSession {
  private queue: Promise<void> = Promise.resolve();
  private queued = 0; // commands waiting in the queue
  private search: Search | undefined; // the search the engine is running
  private waiting: Search[] = []; // go commands read but not started yet
  /** Why the last `position` was rejected; undefined while the position is valid. */
  private rejectedPosition: string | undefined;
  private readonly spins: SpinOption[];
  /** A tuning session's search parameters (spin options), read from the engine once. */
  private tuning: SpinOption[] | undefined;
  private quitting = false;

  /** The network file named by EvalFile (the embedded network's name until one is loaded). */
  private evalFile = "";
  /** UCI_ShowWDL: info lines carry `wdl W D L`. */
  private showWdl = false;
  /** UCI_Chess960: positions set from now on are Chess960, castling is king-takes-rook. */
  private chess960 = false;
  /** UCI_LimitStrength: play at UCI_Elo (which then overrides Skill Level). */
  private limitStrength = false;
  /** SyzygyPath: the directories of the Syzygy tables in use. */
  private syzygyPath = "<empty>";
  /** Syzygy50MoveRule: results the 50-move rule decides score as draws. */
  private syzygy50MoveRule = SYZYGY_DEFAULTS.rule50;
  /** Search Mode: alpha-beta or Monte Carlo tree search. */
  private searchMode: SearchMode = "alphabeta";
  /** OwnBook, Book File, Book Learning, and learning after each game. */
  private readonly book: UciBook;

  constructor(
    private readonly engine: Engine,
    private readonly send: (line: string) => void,
    private readonly host: UciHost = {},
  ) {
    this.spins = [
      { name: "Hash", min: HASH_MIN_MB, max: HASH_MAX_MB, value: HASH_DEFAULT_MB, apply: (e, v) => e.setHash(v) },
      { name: "Threads", min: 1, max: THREADS_MAX, value: 1, apply: (e, v) => e.setThreads(v) },
      // go perft's table in MB (0: bulk counting only, as Stockfish); read by each go perft.
      { name: "PerftHash", min: 0, max: HASH_MAX_MB, value: 0, apply: () => Promise.resolve() },
      { name: "MultiPV", min: 1, max: MULTIPV_MAX, value: MULTIPV_DEFAULT, apply: (e, v) => e.setMultiPv(v) },
      { name: "Move Overhead", min: 0, max: MOVE_OVERHEAD_MAX_MS, value: MOVE_OVERHEAD_DEFAULT_MS, apply: (e, v) => e.setMoveOverhead(v) },
      { name: "Debug Search Features", min: 0, max: SEARCH_FEATURES_MAX, value: SEARCH_FEATURES_MAX, apply: (e, v) => e.setSearchFeatures(v) },
      { name: "Skill Level", min: SKILL_MIN, max: SKILL_MAX, value: SKILL_MAX, apply: (e, v) => e.setSkillLevel(v) },
      {
        name: "UCI_Elo", min: ELO_MIN, max: ELO_MAX, value: UCI_ELO_DEFAULT,
        apply: (e, v) => (this.limitStrength ? e.setElo(v) : Promise.resolve()),
      },
      {
        name: "SyzygyProbeDepth", min: 1, max: SYZYGY_PROBE_DEPTH_MAX, value: SYZYGY_DEFAULTS.probeDepth,
        apply: (e, v) => e.setSyzygyOptions({ probeDepth: v }),
      },
      {
        name: "SyzygyProbeLimit", min: 0, max: SYZYGY_PROBE_LIMIT_MAX, value: SYZYGY_DEFAULTS.probeLimit,
        apply: (e, v) => e.setSyzygyOptions({ probeLimit: v }),
      },
    ];
    this.book = new UciBook(engine, send, host);
  }

  /** Handles one input line; returns false when the line was `quit`. */
  handle(line: string): boolean {
    let tokens = tokenize(line);
    if (tokens.length === 0 || this.quitting) return !this.quitting;
    // The UCI specification: unknown tokens before a command are ignored ("joho debug on"
    // switches debug on). A line without any command is reported whole.
    const at = tokens.findIndex((t) => COMMANDS.has(t));
    // Reported through the queue, so that messages keep the order of the lines.
    if (at < 0) {
      this.enqueue(() => this.dispatch(tokens));
      return true;
    }
    if (at > 0) {
      const ignored = tokens[0].slice(0, 40);
      this.enqueue(async () => this.error(new Error(`unknown token '${ignored}' (ignored)`)));
      tokens = tokens.slice(at);
    }
    const cmd = tokens[0];
    // Commands that must act at once, even while a search runs.
    switch (cmd) {
      case "isready":
        // During a search with nothing else pending the engine is ready at once; otherwise
        // readyok waits for the commands before it (a GUI syncs on it after ucinewgame).
        if (this.search && !this.search.printed && this.queued === 0) this.send("readyok");
        else this.enqueue(async () => this.send("readyok"));
        return true;
      case "stop":
        this.stop();
        return true;
      case "ponderhit":
        this.ponderhit();
        return true;
      case "quit":
        this.quitting = true;
        return false;
      case "go":
        if (tokens[1] !== "perft") {
          const search: Search = {
            done: Promise.resolve(), started: false, ponder: tokens.includes("ponder"), ponderhit: false,
            infinite: false, stopRequested: false, printed: false,
          };
          this.waiting.push(search);
          this.enqueue(() => this.runGo(tokens, search));
          return true;
        }
    }
    this.enqueue(() => this.dispatch(tokens));
    return true;
  }

  /** Ends the session: the commands already queued still run (a `go` among them starts and
   *  is stopped at once), a running search is stopped, and its bestmove is printed. Waits at
   *  most maxWaitMs for all of it. */
  async quit(maxWaitMs = 800): Promise<void> {
    this.quitting = true;
    this.stop();
    const drained = (async () => {
      await this.queue;
      await this.search?.done;
    })();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((r) => (timer = setTimeout(r, maxWaitMs)));
    await Promise.race([drained, deadline]);
    clearTimeout(timer);
  }

  private enqueue(task: () => Promise<void>): void {
    this.queued++;
    this.queue = this.queue
      .then(task)
      .catch((err) => this.error(err))
      .finally(() => this.queued--);
  }

  private error(err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    // One line, printable, of bounded length, whatever the input echoed in it.
    this.send(`info string error: ${message.replace(/[\x00-\x1f\x7f]+/g, " ").slice(0, 500)}`);
  }

  private async dispatch(tokens: string[]): Promise<void> {
    switch (tokens[0]) {
      case "uci":
        return this.uci();
      case "ucinewgame":
        await this.finishSearch();
        try {
          await this.book.learnLastGame();
        } finally {
          await this.engine.newGame();
        }
        return;
      case "setoption":
        return this.setOption(tokens);
      case "position":
        await this.finishSearch();
        return this.setPosition(tokens);
      case "go": // only `go perft`: searches are queued by handle() through runGo
        return this.perft(tokens);
      case "d":
        return this.display();
      case "eval":
        return this.evaluate();
      case "bench":
        return this.bench(tokens);
      case "debug":
        if (tokens[1] === "crash") {
          // A test hook: the wasm traps, the worker recovers.
          await this.finishSearch();
          return this.engine.crashForTesting();
        }
        return;
      case "register":
        return;
      default:
        throw new Error(`unknown command '${tokens[0].slice(0, 40)}'`);
    }
  }

  private async uci(): Promise<void> {
    const info = await this.engine.info();
    if (!this.evalFile) this.evalFile = info.network?.name ?? "<none>";
    this.send(`id name ${engineTitle(info)}`);
    this.send(`id author ${ENGINE_AUTHOR}`);
    for (const o of [...this.spins, ...(await this.tuningSpins())]) {
      this.send(`option name ${o.name} type spin default ${o.value} min ${o.min} max ${o.max}`);
    }
    this.send("option name Ponder type check default false");
    this.send(`option name UCI_ShowWDL type check default ${this.showWdl}`);
    this.send(`option name UCI_LimitStrength type check default ${this.limitStrength}`);
    this.send(`option name UCI_Chess960 type check default ${this.chess960}`);
    for (const line of this.book.optionLines()) this.send(line);
    this.send(`option name SyzygyPath type string default ${this.syzygyPath}`);
    this.send(`option name Syzygy50MoveRule type check default ${this.syzygy50MoveRule}`);
    this.send(`option name Search Mode type combo default ${this.searchMode} ${SEARCH_MODES.map((m) => `var ${m}`).join(" ")}`);
    this.send("option name Clear Hash type button");
    if (info.build === "nnue") this.send(`option name EvalFile type string default ${this.evalFile}`);
    this.send("uciok");
  }

  /** The search parameters as spin options in a tuning session (none otherwise). */
  private async tuningSpins(): Promise<SpinOption[]> {
    if (!this.host.tune) return [];
    this.tuning ??= (await this.engine.searchParams()).map((p) => ({
      name: p.name, min: p.min, max: p.max, value: p.value, apply: (e: Engine, v: number) => e.setSearchParam(p.name, v),
    }));
    return this.tuning;
  }

  /** setoption name EvalFile value <path>: loads a network file; a bad file is reported and
   *  the network in use stays. */
  private async setEvalFile(value: string | undefined): Promise<void> {
    if (!value) throw new Error("option EvalFile needs a file name");
    if (!this.host.readFile) throw new Error("EvalFile: this host cannot read files; use Engine.loadNetwork");
    let bytes: Uint8Array;
    try {
      bytes = this.host.readFile(value);
    } catch (err) {
      throw new Error(`EvalFile: cannot read ${value.slice(0, 200)}: ${err instanceof Error ? err.message : String(err)}`);
    }
    await this.finishSearch();
    try {
      await this.engine.loadNetwork(bytes);
    } catch (err) {
      throw new Error(`EvalFile ${value.slice(0, 200)}: ${err instanceof Error ? err.message : String(err)}; the network in use stays`);
    }
    this.evalFile = value;
    const info = await this.engine.info();
    this.send(`info string EvalFile ${value.slice(0, 200)} loaded: ${info.network?.name} (${info.network?.inputs}x${info.network?.hidden})`);
  }

  /** setoption name SyzygyPath value <directories>: the tables found are reported as
   *  Stockfish reports them, each file refused with its reason; "<empty>" unloads them. */
  private async setSyzygyPath(value: string): Promise<void> {
    await this.finishSearch();
    const path = value.trim() === "" ? "<empty>" : value;
    const load = await this.engine.setSyzygyPath(path);
    this.syzygyPath = path;
    const shown = 10;
    for (const e of load.errors.slice(0, shown)) this.error(new Error(`SyzygyPath: ${e}`));
    if (load.errors.length > shown) this.error(new Error(`SyzygyPath: ${load.errors.length - shown} more files refused`));
    if (path !== "<empty>") this.send(`info string Found ${load.files} tablebase files (up to ${load.maxPieces}-man)`);
  }

  private async setOption(tokens: string[]): Promise<void> {
    const lower = tokens.map((t) => t.toLowerCase());
    const nameAt = lower.indexOf("name");
    if (nameAt !== 1) throw new Error("expected 'setoption name <name> [value <value>]'");
    const valueAt = lower.indexOf("value");
    const name = tokens.slice(2, valueAt < 0 ? undefined : valueAt).join(" ");
    const value = valueAt < 0 ? undefined : tokens.slice(valueAt + 1).join(" ");
    const key = name.toLowerCase();
    if (key === "clear hash") {
      await this.finishSearch();
      return this.engine.clearHash();
    }
    if (key === "evalfile") return this.setEvalFile(value);
    if (key === "syzygypath") return this.setSyzygyPath(value ?? "");
    if (key === "syzygy50moverule") {
      this.syzygy50MoveRule = checkCheckValue("Syzygy50MoveRule", value);
      await this.finishSearch();
      return this.engine.setSyzygyOptions({ rule50: this.syzygy50MoveRule });
    }
    if (key === "uci_showwdl") {
      if (value === undefined || !["true", "false"].includes(value.toLowerCase())) throw new Error(`option UCI_ShowWDL needs true or false, not '${(value ?? "").slice(0, 40)}'`);
      this.showWdl = value.toLowerCase() === "true";
      return;
    }
    if (key === "ponder") {
      if (value !== undefined) checkCheckValue("Ponder", value);
      return;
    }
    if (key === "uci_limitstrength") {
      this.limitStrength = checkCheckValue("UCI_LimitStrength", value);
      await this.finishSearch();
      const elo = this.spins.find((o) => o.name === "UCI_Elo")!.value;
      return this.engine.setElo(this.limitStrength ? elo : null);
    }
    if (key === "search mode") {
      const mode = SEARCH_MODES.find((m) => m === value?.trim().toLowerCase());
      if (!mode) throw new Error(`option Search Mode needs ${SEARCH_MODES.join(" or ")}, not '${(value ?? "").slice(0, 40)}'`);
      await this.finishSearch();
      await this.engine.setSearchMode(mode);
      this.searchMode = mode;
      return;
    }
    if (key === "uci_chess960") {
      this.chess960 = checkCheckValue("UCI_Chess960", value);
      return this.engine.setChess960(this.chess960);
    }
    if (await this.book.setOption(key, value, checkCheckValue)) return;
    const spin = [...this.spins, ...(await this.tuningSpins())].find((o) => o.name.toLowerCase() === key);
    if (!spin) throw new Error(`unknown option '${name.slice(0, 60)}'`);
    const n = Number(value);
    if (value === undefined || value.trim() === "" || !Number.isFinite(n)) throw new Error(`option ${spin.name} needs a number, not '${(value ?? "").slice(0, 40)}'`);
    const clamped = Math.min(Math.max(Math.round(n), spin.min), spin.max);
    if (clamped !== n) {
      const how = clamped === Math.round(n) ? "rounded" : "clamped";
      this.send(`info string ${spin.name} ${how} to ${clamped} (range ${spin.min}..${spin.max})`);
    }
    await this.finishSearch();
    await spin.apply(this.engine, clamped);
    spin.value = clamped;
  }

  /** position startpos|fen <FEN> [moves ...]. A rejected position (malformed, a bad FEN, an
   *  illegal move) leaves the board as it was (bad FEN) or after the last legal move, for `d`
   *  and `eval`; but until a valid `position` arrives, every `go` answers `bestmove 0000`
   *  rather than a move of a position the GUI did not ask about. */
  private async setPosition(tokens: string[]): Promise<void> {
    this.rejectedPosition = "a 'position' command is being read";
    try {
      await this.readPosition(tokens);
      this.rejectedPosition = undefined;
    } catch (err) {
      this.rejectedPosition = err instanceof Error ? err.message : String(err);
      throw err;
    }
  }

  private async readPosition(tokens: string[]): Promise<void> {
    const movesAt = tokens.indexOf("moves");
    const head = movesAt < 0 ? tokens.slice(1) : tokens.slice(1, movesAt);
    const moves = movesAt < 0 ? [] : tokens.slice(movesAt + 1);
    let fen: string;
    if (head[0] === "startpos" && head.length === 1) fen = START_FEN;
    else if (head[0] === "fen" && head.length > 1) fen = head.slice(1).join(" ");
    else throw new Error("expected 'position startpos' or 'position fen <FEN>', optionally followed by 'moves ...'");
    await this.engine.setPosition(fen);
    const played = await this.engine.playMoves(moves);
    if (played < moves.length) {
      throw new Error(`illegal move '${moves[played].slice(0, 20)}' in ${await this.engine.fen()}; the position stays there`);
    }
    this.book.recordPosition(fen, moves, this.chess960);
  }

  /** Throws while the last `position` was rejected: no search may run on a position the GUI
   *  did not send. */
  private checkPositionAccepted(command: string): void {
    const reason = this.rejectedPosition;
    if (reason === undefined) return;
    throw new Error(`${command}: no valid position (the last 'position' was rejected: ${reason.slice(0, 200)}); send a valid 'position' first`);
  }

  /** The limits of a go. Unknown tokens are reported and skipped; a limit without a number
   *  refuses the go (it is answered without a search); out-of-range numbers are brought into
   *  range and reported, as option values are. No limit at all means until stop. */
  private parseGo(tokens: string[]): SearchLimits {
    const limits: SearchLimits = {};
    const unknown: string[] = [];
    for (let i = 1; i < tokens.length; i++) {
      const t = tokens[i];
      if ((NUMERIC_LIMITS as readonly string[]).includes(t)) {
        const text = tokens[++i];
        const v = Number(text);
        if (text === undefined || !Number.isFinite(v)) {
          throw new Error(`go: '${t}' needs a number, not '${(text ?? "").slice(0, 20)}' (range ${LIMIT_RANGES[t as NumericLimit].min}..${LIMIT_RANGES[t as NumericLimit].max})`);
        }
        const { value, note } = clampLimit(t as NumericLimit, v);
        if (note) this.send(`info string ${note}`);
        limits[t as NumericLimit] = value;
      } else if (t === "infinite") limits.infinite = true;
      else if (t === "ponder") limits.ponder = true;
      else if (t === "searchmoves") {
        const moves: string[] = [];
        while (i + 1 < tokens.length && !GO_KEYWORDS.has(tokens[i + 1])) moves.push(tokens[++i]);
        limits.searchmoves = moves;
      } else unknown.push(`unknown token '${t.slice(0, 20)}'`);
    }
    if (unknown.length) this.error(new Error(`go: ${unknown.slice(0, 5).join("; ")} (ignored)`));
    const limited = ENDING_LIMITS.some((k) => k in limits);
    if (!limited) limits.infinite = true;
    return limits;
  }

  /** Runs one go from the queue; a go that could not start a search still gets a bestmove. */
  private async runGo(tokens: string[], search: Search): Promise<void> {
    try {
      await this.go(tokens, search);
    } catch (err) {
      this.error(err);
    } finally {
      this.waiting = this.waiting.filter((w) => w !== search);
    }
    if (!search.started) await this.answerWithoutSearch(search);
  }

  private async go(tokens: string[], search: Search): Promise<void> {
    // A go during a search first ends that search (which prints its own bestmove).
    await this.finishSearch();
    this.checkPositionAccepted("go");
    const limits = this.parseGo(tokens);
    search.infinite = !!limits.infinite;
    if (limits.searchmoves) {
      const legal = new Set(await this.engine.legalMoves());
      const bad = limits.searchmoves.filter((m) => !legal.has(m));
      if (bad.length) this.error(new Error(`searchmoves: not legal here: ${bad.join(" ").slice(0, 100)} (ignored)`));
      limits.searchmoves = limits.searchmoves.filter((m) => legal.has(m));
      if (limits.searchmoves.length === 0) delete limits.searchmoves;
    }
    // A ponderhit that came while this go waited: search as if it had not been a ponder go.
    if (search.ponderhit) delete limits.ponder;
    const white = (await this.engine.fen()).split(" ")[1] === "w";
    this.search = search;
    search.started = true;
    search.done = this.engine
      .search(limits, {
        onInfo: (i) => this.send(infoLine(i, this.showWdl)),
        onCurrMove: (c) => this.send(`info depth ${c.depth} currmove ${c.move} currmovenumber ${c.number}`),
      })
      .then(
        (result) => {
          search.result = result;
          this.book.recordSearch(white, result);
          if (result.book) this.send(`info string book move ${result.bestmove}`);
          if (!holding(search)) this.printBestMove(search);
        },
        async (err) => {
          this.error(err);
          await this.answerWithoutSearch(search);
        },
      );
    // A stop that came while this go waited (or a quit) ends the search as soon as it starts.
    if (search.stopRequested) this.engine.stop();
  }

  /** The bestmove of a go whose search failed or never started: the first legal move, or
   *  0000 after a rejected position. */
  private async answerWithoutSearch(search: Search): Promise<void> {
    const moves = this.rejectedPosition === undefined ? await this.engine.legalMoves().catch(() => [] as string[]) : [];
    search.result = { bestmove: moves[0] ?? "0000", score: { cp: 0 }, pv: [], depth: 0, seldepth: 0, nodes: 0, nps: 0, timeMs: 0 };
    this.printBestMove(search);
  }

  private printBestMove(search: Search): void {
    if (search.printed || !search.result) return;
    search.printed = true;
    const r = search.result;
    if (r.tablebaseError) this.error(new Error(`Syzygy: ${r.tablebaseError}; the search goes on without that table`));
    // A final info line before every bestmove.
    const wdl = this.showWdl && r.wdl ? ` wdl ${r.wdl.join(" ")}` : "";
    this.send(`info depth ${r.depth} seldepth ${r.seldepth} score ${scoreText(r.score)}${wdl} nodes ${r.nodes} nps ${r.nps} time ${r.timeMs}` + (r.pv.length ? ` pv ${r.pv.join(" ")}` : ""));
    this.send(`bestmove ${r.bestmove}` + (r.ponder ? ` ponder ${r.ponder}` : ""));
    if (this.search === search) this.search = undefined;
  }

  /** stop: ends the running search and every go still waiting in the queue. */
  private stop(): void {
    for (const w of this.waiting) w.stopRequested = true;
    const s = this.search;
    if (!s) return;
    s.stopRequested = true;
    if (s.result) this.printBestMove(s);
    else this.engine.stop();
  }

  /** ponderhit: the running ponder search (or a ponder go still waiting) becomes a normal one. */
  private ponderhit(): void {
    for (const w of this.waiting) if (w.ponder) w.ponderhit = true;
    const s = this.search;
    if (!s || !s.ponder || s.ponderhit) return;
    s.ponderhit = true;
    if (!s.result) this.engine.ponderhit();
    else if (!holding(s)) this.printBestMove(s);
  }

  /** Stops a running search and waits until its bestmove is out. */
  private async finishSearch(): Promise<void> {
    const s = this.search;
    if (!s) return;
    this.stop();
    await s.done;
  }

  /** go perft N: one `move: count` line per root move, then the total, as Stockfish prints;
   *  hashed when the PerftHash option is set (the search's table is cleared afterwards). */
  private async perft(tokens: string[]): Promise<void> {
    const depth = Number(tokens[2]);
    if (!Number.isInteger(depth) || depth < 1 || depth > MAX_PERFT_DEPTH) throw new Error(`go perft needs a depth from 1 to ${MAX_PERFT_DEPTH}`);
    await this.finishSearch();
    this.checkPositionAccepted("go perft");
    const hashMb = this.spins.find((o) => o.name === "PerftHash")!.value;
    let total = 0n;
    for (const { move, nodes } of await this.engine.divide(depth, hashMb > 0 ? { hashMb } : undefined)) {
      this.send(`${move}: ${nodes}`);
      total += nodes;
    }
    this.send("");
    this.send(`Nodes searched: ${total}`);
    this.send("");
  }

  private async display(): Promise<void> {
    await this.finishSearch();
    const fen = await this.engine.fen();
    for (const l of boardDiagram(fen)) this.send(l);
    this.send("");
    this.send(`Fen: ${fen}`);
    this.send(`Key: ${(await this.engine.key()).toString(16).toUpperCase().padStart(16, "0")}`);
    this.send(`Checkers: ${(await this.engine.checkers()).join(" ")}`);
  }

  private async evaluate(): Promise<void> {
    await this.finishSearch();
    const e = await this.engine.evaluate();
    if (e.network) {
      this.send(`NNUE evaluation (${e.network}): ${e.score} cp (side to move)`);
      return;
    }
    const cell = (v: [number, number]) => `${String(v[0]).padStart(6)} ${String(v[1]).padStart(6)}`;
    this.send("     Term    |    White    |    Black    |    Total");
    this.send("             |   MG     EG |   MG     EG |   MG     EG");
    this.send(" ------------+-------------+-------------+------------");
    for (const t of e.terms) {
      const total: [number, number] = [t.white[0] + t.black[0], t.white[1] + t.black[1]];
      this.send(` ${t.name.padStart(11)} |${cell(t.white)} |${cell(t.black)} |${cell(total)}`);
    }
    this.send("");
    this.send(`Phase ${e.phase}/24, endgame scale ${e.scale}/64 (terms in white's view)`);
    this.send(`Final evaluation: ${e.score} cp (side to move)`);
  }

  private async bench(tokens: string[]): Promise<void> {
    await this.finishSearch();
    const depth = tokens[1] === undefined ? 0 : Number(tokens[1]);
    if (!Number.isInteger(depth) || depth < 0 || depth > 64) throw new Error("bench takes an optional depth from 1 to 64");
    const start = performance.now();
    const { nodes, positions } = await this.engine.bench(depth);
    const ms = Math.max(1, Math.round(performance.now() - start));
    this.send(`info string bench: ${positions} positions, depth ${depth || "default"}`);
    this.send(`Total time (ms) : ${ms}`);
    this.send(`Nodes searched  : ${nodes}`);
    this.send(`Nodes/second    : ${Math.round((nodes * 1000) / ms)}`);
  }
}
