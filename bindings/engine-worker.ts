// The engine's worker (a worker thread in Node, a Web Worker in browsers): an EngineHandler
// owns one Core, runs the requests serveWorker hands it (each brings the position it needs),
// streams search info, and re-creates the wasm after a trap.

import { Core, EngineCrashError, POLL_CONTINUE, POLL_STOP, POLL_PONDERHIT } from "./core.js";
import { CONTROL_STOP_BELOW, CONTROL_PONDERHIT, remember, samePosition, lessWaited, epochNow } from "./protocol.js";
import type { Request, SearchEvent, EngineInit, Call, CoreMethod, PositionRecord } from "./protocol.js";
import { serveWorker } from "./worker-host.js";
import type { RequestHandler } from "./worker-host.js";
import { openPort } from "#worker-port";

/** The Core the init message asks for: its build, or another module's URL. */
function coreOptions(init: EngineInit): Parameters<typeof Core.create>[0] {
  return { hashMb: init.hashMb, ...(init.wasmUrl ? { wasmUrl: new URL(init.wasmUrl) } : { build: init.build }) };
}

/** The requests of one engine, run on its Core. */
class EngineHandler implements RequestHandler<Request, SearchEvent> {
  private readonly control: Int32Array | undefined;
  // Option calls, replayed into a fresh Core after a trap.
  private replay: Call[] = [];
  // The position the Core holds, when it is one a request brought.
  private current: PositionRecord | undefined;
  // The id of the running search (0: none).
  private searching = 0;

  /** The Core methods a call may name, each run on the current Core. */
  private readonly methods: { readonly [M in CoreMethod]: Core[M] } = {
    perft: (depth, options) => this.core.perft(depth, options),
    divide: (depth, options) => this.core.divide(depth, options),
    bench: (depth) => this.core.bench(depth),
    newGame: () => this.core.newGame(),
    setHash: (mb) => this.core.setHash(mb),
    hashMb: () => this.core.hashMb(),
    clearHash: () => this.core.clearHash(),
    setMultiPv: (n) => this.core.setMultiPv(n),
    setMoveOverhead: (ms) => this.core.setMoveOverhead(ms),
    setSearchFeatures: (mask) => this.core.setSearchFeatures(mask),
    searchParams: () => this.core.searchParams(),
    setSearchParam: (name, value) => this.core.setSearchParam(name, value),
    setSearchMode: (mode) => this.core.setSearchMode(mode),
    setSkillLevel: (level) => this.core.setSkillLevel(level),
    setElo: (elo) => this.core.setElo(elo),
    strength: () => this.core.strength(),
    info: () => this.core.info(),
    loadNetwork: (bytes) => this.core.loadNetwork(bytes),
    evaluate: () => this.core.evaluate(),
    setThreads: (n) => this.core.setThreads(n),
    threadCount: () => this.core.threadCount(),
    setSyzygyPath: (path) => this.core.setSyzygyPath(path),
    loadTablebases: (files) => this.core.loadTablebases(files),
    setSyzygyOptions: (options) => this.core.setSyzygyOptions(options),
    probeTablebase: () => this.core.probeTablebase(),
    crashForTesting: () => this.core.crashForTesting(),
  };

  private constructor(
    private core: Core,
    private readonly init: EngineInit,
  ) {
    this.control = init.control ? new Int32Array(init.control) : undefined;
  }

  /** Starts the engine the init message describes. */
  static async create(init: EngineInit): Promise<EngineHandler> {
    try {
      return new EngineHandler(await Core.create(coreOptions(init)), init);
    } catch (err) {
      throw new Error(`its engine did not start: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  async handle(req: Request, id: number, emit: (event: SearchEvent) => void): Promise<unknown> {
    try {
      this.setPosition(req.position);
      if (req.kind === "search") return this.search(req, id, emit);
      const value = await this.call(req.method, req.args);
      this.replay = remember(this.replay, req.method, req.args);
      if (req.method === "bench") this.current = undefined; // the bench leaves its last position
      return value;
    } catch (err) {
      if (err instanceof EngineCrashError) await this.recover();
      throw err;
    }
  }

  private call(method: CoreMethod, args: unknown[]): unknown {
    if (!Object.hasOwn(this.methods, method)) throw new Error(`no engine method ${JSON.stringify(method)}`);
    return (this.methods[method] as (...a: unknown[]) => unknown)(...args);
  }

  private poll(): number {
    const control = this.control;
    if (!control) return POLL_CONTINUE;
    if (this.searching < Atomics.load(control, CONTROL_STOP_BELOW)) return POLL_STOP;
    if (Atomics.load(control, CONTROL_PONDERHIT) === this.searching) {
      Atomics.compareExchange(control, CONTROL_PONDERHIT, this.searching, 0);
      return POLL_PONDERHIT;
    }
    return POLL_CONTINUE;
  }

  private async recover(): Promise<void> {
    this.core.dispose();
    this.core = await Core.create(coreOptions(this.init));
    this.current = undefined;
    for (const { method, args } of this.replay) {
      try {
        await this.call(method, args);
      } catch {
        // A call that failed before fails again; the state it would set is simply absent.
      }
    }
  }

  private setPosition(position: PositionRecord | undefined): void {
    if (!position || samePosition(this.current, position)) return;
    this.current = undefined;
    this.core.setPosition(position.fen, position.moves, position.chess960);
    this.current = position;
  }

  private search(req: Extract<Request, { kind: "search" }>, id: number, emit: (event: SearchEvent) => void): unknown {
    const c = this.core;
    const lines = c.multiPv();
    if (req.multiPv !== undefined) c.setMultiPv(req.multiPv);
    this.searching = id;
    try {
      return c.search(lessWaited(req.limits, epochNow() - req.sentAt), {
        poll: () => this.poll(),
        onInfo: (info) => emit({ kind: "info", info }),
        onCurrMove: (current) => emit({ kind: "currmove", current }),
      });
    } finally {
      this.searching = 0;
      if (!c.crashed) c.setMultiPv(lines);
    }
  }
}

serveWorker(openPort(), (init: EngineInit) => EngineHandler.create(init));
