// The helper threads of a Lazy SMP search, as the main thread's Core sees them: the memory
// they share (the shared module's transposition table and header), the helpers themselves
// (WorkerClients running thread-worker.ts), the options they must share, and each round of
// work (a search, or a perft split into units that the threads take in turn) with the wait
// for its end. The main thread waits with Atomics.wait on the shared control words, since its
// own event loop is busy with the search; the helpers' messages only carry requests.

import { WorkerClient } from "./worker-client.js";
import { createSharedMemory, createTableInstance } from "./wasm.js";
import type { EngineBuild } from "./wasm.js";
import { THREAD_CONTROL_RUNNING, THREAD_CONTROL_ROUND, THREAD_CONTROL_BYTES, PERFT_NEXT, PERFT_FINISHED, PERFT_NODES_AT, PERFT_WORK_AT } from "./thread-protocol.js";
import type { ThreadInit, ThreadRequest, ThreadPosition } from "./thread-protocol.js";

/** How long the main thread waits for a helper to end its part before it restarts the
 *  helpers (they stop within a few thousand nodes of the stop request; this only guards
 *  against a helper that died). */
const HELPER_WAIT_MS = 5000;

/** The shared module's exports the Core calls (assembly/index-table.ts). */
interface TableExports {
  resizeTable(mb: number): number;
  clearTable(): void;
  tableSizeMb(): number;
  clearStop(): void;
  requestStop(): void;
  setThreadCount(n: number): void;
}

type Helper = WorkerClient<ThreadInit, ThreadRequest, never>;

/** count - 1 helper threads and the table all count threads share. */
export class SearchThreads {
  private readonly control = new SharedArrayBuffer(THREAD_CONTROL_BYTES);
  private readonly words = new Int32Array(this.control);
  private readonly helpers: Helper[] = [];
  private readonly options = new Map<string, ThreadRequest>();
  private round = 0;

  private constructor(
    readonly count: number,
    readonly memory: WebAssembly.Memory,
    /** The main thread's instance of the shared module: its raw exports, the `table` imports
     *  of the main thread's engine instance. */
    readonly table: WebAssembly.Exports,
  ) {}

  /** Starts the helpers of a count-thread search and their shared table of hashMb MB. */
  static async create(count: number, hashMb: number, build: EngineBuild, wasmUrl?: URL): Promise<SearchThreads> {
    const memory = createSharedMemory();
    const threads = new SearchThreads(count, memory, await createTableInstance(memory));
    threads.api.setThreadCount(count);
    if (!threads.api.resizeTable(hashMb)) throw new Error(`cannot allocate a ${hashMb} MB hash table for ${count} threads`);
    try {
      for (let index = 1; index < count; index++) {
        const helper: Helper = new WorkerClient<ThreadInit, ThreadRequest, never>({
          entry: "thread",
          init: { index, memory, control: threads.control, build, wasmUrl: wasmUrl?.href },
          setup: () => [...threads.options.values()],
          name: `search thread ${index}`,
        });
        threads.helpers.push(helper);
      }
      await Promise.all(threads.helpers.map((h) => h.start()));
    } catch (err) {
      threads.dispose();
      throw err;
    }
    return threads;
  }

  private get api(): TableExports {
    return this.table as unknown as TableExports;
  }

  /** Sends a request to every helper; an answer's error (a helper that crashed and restarted
   *  itself) is dropped, the round it belonged to is over either way. */
  private broadcast(request: ThreadRequest): void {
    for (const h of this.helpers) h.send(request, { resolve: () => undefined, reject: () => undefined });
  }

  /** An option every thread shares (see ThreadRequest); remembered for restarted helpers. */
  setOption(name: string, value: Extract<ThreadRequest, { kind: "option" }>["value"]): void {
    const request: ThreadRequest = { kind: "option", name, value };
    this.options.set(name, request);
    this.broadcast(request);
  }

  /** Forgets the game: the shared table, and every helper's histories. */
  newGame(): void {
    this.api.clearTable();
    this.broadcast({ kind: "newGame" });
  }

  clearHash(): void {
    this.api.clearTable();
  }

  /** Resizes the shared table; false when memory cannot grow that far (the old one stays). */
  setHash(mb: number): boolean {
    return this.api.resizeTable(mb) !== 0;
  }

  hashMb(): number {
    return this.api.tableSizeMb();
  }

  private beginRound(): number {
    this.round++;
    Atomics.store(this.words, THREAD_CONTROL_ROUND, this.round);
    Atomics.store(this.words, THREAD_CONTROL_RUNNING, this.helpers.length);
    return this.round;
  }

  /** Starts the helpers on the position (the main thread searches it itself, then calls
   *  endSearch). */
  startSearch(position: ThreadPosition, depth: number | undefined): void {
    this.api.clearStop();
    this.api.setThreadCount(this.count);
    const round = this.beginRound();
    this.broadcast({ kind: "search", round, position, depth });
  }

  /** Before a search the main thread runs alone (the Monte Carlo search): the stop request of
   *  the last search is cleared and only the main thread's nodes count; the helpers stay idle. */
  startAlone(): void {
    this.api.clearStop();
    this.api.setThreadCount(1);
  }

  /** After the main thread's search: asks the helpers to stop (the main thread's end asked
   *  them already) and waits until they have. */
  endSearch(): void {
    this.api.requestStop();
    this.waitForHelpers();
  }

  /** A perft split into units (move sequences from the position), perft(depth) below each,
   *  on every thread (hashed: through the shared table): each thread, the main one with
   *  countUnit(moves), takes the next unit until none is left, so a long unit does not hold
   *  the others up. onProgress(finished, units, nodes) follows the units and the leaves
   *  counted, between the main thread's own units. Returns each unit's count, in the order
   *  given. */
  perft(position: ThreadPosition, units: string[][], depth: number, hashed: boolean, countUnit: (moves: readonly string[]) => bigint,
    onProgress?: (finished: number, units: number, nodes: bigint) => void): bigint[] {
    const work = new SharedArrayBuffer(PERFT_WORK_AT + 8 * units.length);
    const words = new Int32Array(work, 0, 2);
    const nodes = new BigInt64Array(work, PERFT_NODES_AT, 1);
    const counts = new BigUint64Array(work, PERFT_WORK_AT, units.length);
    const round = this.beginRound();
    this.broadcast({ kind: "perft", round, position, units, depth, hashed, work });
    for (let i = Atomics.add(words, PERFT_NEXT, 1); i < units.length; i = Atomics.add(words, PERFT_NEXT, 1)) {
      counts[i] = countUnit(units[i]);
      const sum = Atomics.add(nodes, 0, counts[i]) + counts[i];
      const finished = Atomics.add(words, PERFT_FINISHED, 1) + 1; // (not in the call: onProgress?.() skips its arguments)
      onProgress?.(finished, units.length, sum);
    }
    // A helper's last unit can be long (deep perfts): no time limit on the wait; a helper
    // that traps still ends its part (thread-worker.ts), and the count below tells.
    this.waitForHelpers(Infinity);
    if (Atomics.load(words, PERFT_FINISHED) !== units.length) throw new Error("a search thread failed during the perft; its part was not counted");
    onProgress?.(units.length, units.length, Atomics.load(nodes, 0));
    return Array.from(counts);
  }

  /** Waits until every helper has ended its part of the round; after waitMs the helpers are
   *  restarted and false is returned. */
  private waitForHelpers(waitMs = HELPER_WAIT_MS): boolean {
    const deadline = performance.now() + waitMs;
    for (;;) {
      const running = Atomics.load(this.words, THREAD_CONTROL_RUNNING);
      if (running <= 0) return true;
      const left = deadline - performance.now();
      if (left <= 0) break;
      Atomics.wait(this.words, THREAD_CONTROL_RUNNING, running, left);
    }
    Atomics.store(this.words, THREAD_CONTROL_ROUND, ++this.round); // the late ones' round is gone
    for (const h of this.helpers) h.restart();
    return false;
  }

  /** Test hook: makes helper `index` (1 and up) trap; resolves with its error once it has
   *  re-created its engine. */
  crashForTesting(index: number): Promise<unknown> {
    const helper = this.helpers[index - 1];
    if (!helper) return Promise.reject(new RangeError(`no search thread ${index}`));
    return new Promise((resolve) => helper.send({ kind: "crashForTesting" }, { resolve, reject: resolve }));
  }

  /** Ends every helper. */
  dispose(): void {
    for (const h of this.helpers) h.dispose(new Error("the search threads were disposed"));
    this.helpers.length = 0;
  }
}
