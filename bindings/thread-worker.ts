// A helper thread of a Lazy SMP search (a worker thread in Node, a module Web Worker in
// browsers), started by SearchThreads (search-threads.ts): its own engine instance over its
// own memory, whose transposition table and header are the shared module's over the memory
// all threads share. It runs the searches and perft parts the main thread hands it, tells the
// main thread through the shared control words when each is done, and re-creates its engine
// after a trap, with the options it had.

import { createInstance, createTableInstance, buildUrl } from "./wasm.js";
import type { EngineExports } from "./wasm.js";
import { serveWorker } from "./worker-host.js";
import type { RequestHandler } from "./worker-host.js";
import { openPort } from "#worker-port";
import { THREAD_CONTROL_RUNNING, THREAD_CONTROL_ROUND, PERFT_NEXT, PERFT_FINISHED, PERFT_NODES_AT, PERFT_WORK_AT } from "./thread-protocol.js";
import type { ThreadInit, ThreadRequest } from "./thread-protocol.js";
import { SyzygyFiles, tableFilesFromBytes } from "./syzygy.js";
import type { TableBytes } from "./syzygy.js";
import type { SyzygyOptions } from "./engine-options.js";

class ThreadHandler implements RequestHandler<ThreadRequest, never> {
  private wasm!: EngineExports;
  private readonly control: Int32Array;
  // Option calls, replayed into a fresh instance after a trap.
  private options = new Map<string, ThreadRequest>();
  // The table files this thread's instance reads (its hostTbRead).
  private readonly tablebases = new SyzygyFiles();

  private constructor(private readonly init: ThreadInit) {
    this.control = new Int32Array(init.control);
  }

  static async create(init: ThreadInit): Promise<ThreadHandler> {
    const handler = new ThreadHandler(init);
    await handler.instantiate();
    return handler;
  }

  private async instantiate(): Promise<void> {
    const table = await createTableInstance(this.init.memory);
    this.wasm = await createInstance({ hostTbRead: this.tablebases.read }, this.init.wasmUrl ? new URL(this.init.wasmUrl) : buildUrl(this.init.build), table);
    this.wasm.setThread(this.init.index, true);
  }

  async handle(req: ThreadRequest): Promise<unknown> {
    try {
      return this.run(req);
    } catch (err) {
      if (!(err instanceof WebAssembly.RuntimeError)) throw err;
      // A trap: a fresh instance with the options this one had; the main thread goes on.
      await this.instantiate();
      for (const option of this.options.values()) this.run(option);
      throw new Error(`search thread ${this.init.index} crashed and was restarted: ${err.message}`);
    } finally {
      if (req.kind === "search" || req.kind === "perft") this.done(req.round);
    }
  }

  /** Tells the main thread that this thread's part of round `round` is over. */
  private done(round: number): void {
    if (Atomics.load(this.control, THREAD_CONTROL_ROUND) !== round) return; // an old round
    Atomics.sub(this.control, THREAD_CONTROL_RUNNING, 1);
    Atomics.notify(this.control, THREAD_CONTROL_RUNNING);
  }

  private run(req: ThreadRequest): unknown {
    const w = this.wasm;
    switch (req.kind) {
      case "option":
        this.option(req);
        return undefined;
      case "newGame":
        w.newGame();
        return undefined;
      case "search":
        if (Atomics.load(this.control, THREAD_CONTROL_ROUND) !== req.round) return undefined;
        this.position(req.position.fen, req.position.moves, req.position.chess960);
        w.resetLimits();
        if (req.depth !== undefined) w.setDepthLimit(req.depth);
        w.goHelper();
        return undefined;
      case "crashForTesting":
        w.trapForTesting();
        return undefined;
      case "perft": {
        if (Atomics.load(this.control, THREAD_CONTROL_ROUND) !== req.round) return undefined;
        const words = new Int32Array(req.work, 0, 2);
        const nodes = new BigInt64Array(req.work, PERFT_NODES_AT, 1);
        const counts = new BigUint64Array(req.work, PERFT_WORK_AT, req.units.length);
        this.position(req.position.fen, req.position.moves, req.position.chess960);
        for (let i = Atomics.add(words, PERFT_NEXT, 1); i < req.units.length; i = Atomics.add(words, PERFT_NEXT, 1)) {
          const unit = req.units[i];
          for (const m of unit) if (!w.playUciMove(m)) throw new Error(`thread ${this.init.index}: illegal move ${m} in ${w.getFen()}`);
          counts[i] = req.hashed ? w.perftHashed(req.depth) : w.perft(req.depth);
          for (let k = 0; k < unit.length; k++) w.undoLastMove();
          Atomics.add(nodes, 0, counts[i]);
          Atomics.add(words, PERFT_FINISHED, 1);
        }
        return undefined;
      }
    }
  }

  private position(fen: string, moves: readonly string[], chess960: boolean): void {
    const w = this.wasm;
    w.setChess960(chess960);
    if (w.setFen(fen) !== 0) throw new Error(`thread ${this.init.index}: invalid FEN ${fen}: ${w.fenError()}`);
    for (const m of moves) if (!w.playUciMove(m)) throw new Error(`thread ${this.init.index}: illegal move ${m} in ${w.getFen()}`);
  }

  private option(req: Extract<ThreadRequest, { kind: "option" }>): void {
    const w = this.wasm;
    if (req.name === "searchFeatures") w.setSearchFeatures(req.value as number);
    else if (req.name === "keySeed") w.setKeySeed(BigInt(req.value as number));
    else if (req.name === "network") {
      const bytes = req.value as Uint8Array;
      const ptr = w.networkBuffer(bytes.length);
      new Uint8Array(w.memory.buffer, ptr, bytes.length).set(bytes);
      if (!w.networkLoad(bytes.length)) throw new Error(`thread ${this.init.index}: not a valid network: ${w.networkError()}`);
    } else if (req.name === "syzygyPath") this.tablebases.load(w, req.value as string);
    else if (req.name === "syzygyBytes") this.tablebases.register(w, tableFilesFromBytes(req.value as TableBytes[]));
    else if (req.name === "syzygyOptions") {
      const o = req.value as Required<SyzygyOptions>;
      w.tbSetProbeDepth(o.probeDepth);
      w.tbSetProbeLimit(o.probeLimit);
      w.tbSetRule50(o.rule50);
    } else w.setSearchParam(Number(req.name.slice("param:".length)), req.value as number);
    this.options.set(req.name, req);
  }
}

serveWorker(openPort(), (init: ThreadInit) => ThreadHandler.create(init));
