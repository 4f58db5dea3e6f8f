// A client of one worker that knows nothing of what the worker does: it spawns the worker
// (#spawn-worker: a worker thread in Node, a module Web Worker in browsers), queues requests
// in an outbox until the worker is up, matches answers and streamed events to the pending
// calls by id, and after the worker dies starts a fresh one that is sent the setup calls again
// (the owner says which). The Engine runs its worker through one; a pool would hold several.

import { spawnWorker } from "#spawn-worker";
import type { ToWorker, FromWorker, WorkerHandle, WorkerEntry } from "./worker-channel.js";

/** What a pending call is told: its events as they come, then its answer. */
export interface WorkerCaller<Event> {
  resolve(value: unknown): void;
  reject(error: Error): void;
  onEvent?(event: Event): void;
}

export interface WorkerClientOptions<Init, Request> {
  /** The worker's module (default: the package's worker `entry`). */
  url?: URL;
  /** Which of the package's workers to start when no url is given (default: the engine's). */
  entry?: WorkerEntry;
  /** The worker's start-up data, sent first to every worker this client starts. */
  init: Init;
  /** The calls a fresh worker runs before any other (the options set so far); asked at each
   *  start, their answers ignored. */
  setup(): readonly Request[];
  /** The worker's name in errors: "<name> failed: <why>". */
  name: string;
}

interface Pending<Request, Event> {
  request: Request;
  caller: WorkerCaller<Event>;
}

/** One worker and the calls pending in it. */
export class WorkerClient<Init, Request, Event> {
  private worker: WorkerHandle<ToWorker<Init, Request>> | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending<Request, Event>>();
  /** Requests made while the worker starts; sent, in order, once it is up. */
  private outbox: ToWorker<Init, Request>[] | undefined;
  /** startLater()'s deferred start: spawns the worker now. */
  private deferred: (() => void) | undefined;
  private startTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  /** Set when the worker failed before it was ever up (it would fail again): no other worker
   *  is started, and every later call rejects with it. */
  private failed: Error | undefined;

  constructor(private readonly options: WorkerClientOptions<Init, Request>) {}

  /** Spawns the worker; settles when it is up, rejects when it fails to start. */
  start(): Promise<void> {
    return this.spawn();
  }

  /** Queues the requests and spawns the worker at the first of them, at startNow(), or after
   *  delayMs, whichever comes first; settles as start() does. */
  startLater(delayMs: number): Promise<void> {
    this.outbox = [];
    return new Promise<void>((resolve) => {
      this.deferred = () => {
        clearTimeout(this.startTimer);
        this.deferred = undefined;
        resolve(this.spawn(this.outbox));
      };
      this.startTimer = setTimeout(this.deferred, delayMs);
    });
  }

  /** Spawns the worker now if startLater() deferred it; otherwise does nothing. */
  startNow(): void {
    this.deferred?.();
  }

  /** Sends a request after every request sent before it; returns the call's id. The caller
   *  hears its events and its answer, or an error when the worker fails. */
  send(request: Request, caller: WorkerCaller<Event>): number {
    const id = this.nextId++;
    if (this.disposed || this.failed) {
      caller.reject(this.failed ?? new Error(`${this.options.name} is disposed`));
      return id;
    }
    this.pending.set(id, { request, caller });
    this.worker?.keepAlive(true); // (not spawned yet: spawn() sets it)
    const message: ToWorker<Init, Request> = { kind: "request", id, request };
    if (this.outbox) {
      this.outbox.push(message);
      this.deferred?.();
    } else this.worker!.post(message); // no outbox: spawn() has made the worker
    return id;
  }

  /** Forgets a pending call: its caller hears nothing more (the owner settles it). */
  cancel(id: number): void {
    this.settle(id);
  }

  /** Ends the worker and starts a fresh one, which is sent the setup calls and then the calls
   *  still pending, in order. */
  restart(): void {
    this.worker?.terminate();
    const resend = [...this.pending].map(([id, p]): ToWorker<Init, Request> => ({ kind: "request", id, request: p.request }));
    this.spawn(resend).catch(() => undefined);
  }

  /** Ends the worker; the pending calls reject with `reason`. */
  dispose(reason: Error): void {
    if (this.disposed) return;
    this.disposed = true;
    clearTimeout(this.startTimer);
    this.deferred = undefined;
    this.worker?.terminate();
    for (const [id, p] of this.pending) {
      this.settle(id);
      p.caller.reject(reason);
    }
  }

  private async spawn(resend: ToWorker<Init, Request>[] = []): Promise<void> {
    this.outbox = resend;
    let markReady!: () => void;
    let fail!: (e: Error) => void;
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      fail = reject;
    });
    let up = false;
    const onFailure = (e: Error) => {
      fail(e);
      if (worker === this.worker) this.onWorkerFailure(e, up);
    };
    const worker = spawnWorker<ToWorker<Init, Request>, FromWorker<Event>>(this.options.url, (m) => {
      if (m.kind === "ready") {
        up = true;
        markReady();
      } else if (m.kind === "failed") {
        worker.terminate();
        onFailure(new Error(m.message));
      } else this.onReply(m);
    }, onFailure, this.options.entry);
    this.worker = worker;
    worker.post({ kind: "init", init: this.options.init });
    await ready;
    if (worker !== this.worker) return; // replaced while starting
    for (const request of this.options.setup()) worker.post({ kind: "request", id: 0, request });
    const queued = this.outbox;
    this.outbox = undefined;
    for (const message of queued) worker.post(message);
    worker.keepAlive(this.pending.size > 0);
  }

  private onReply(m: FromWorker<Event>): void {
    if (m.kind === "ready" || m.kind === "failed") return;
    const p = this.pending.get(m.id);
    if (!p) return;
    switch (m.kind) {
      case "event":
        p.caller.onEvent?.(m.event);
        return;
      case "result":
        this.settle(m.id);
        p.caller.resolve(m.value);
        return;
      case "error":
        this.settle(m.id);
        p.caller.reject(new Error(m.message));
        return;
    }
  }

  private settle(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker?.keepAlive(false);
  }

  /** Rejects the pending calls and starts a fresh worker, unless this one failed before it
   *  was ever up (it would fail again): then every later call rejects with its error. */
  private onWorkerFailure(e: Error, wasUp: boolean): void {
    const failure = new Error(`${this.options.name} failed: ${e.message}`);
    for (const [id, p] of this.pending) {
      this.settle(id);
      p.caller.reject(failure);
    }
    this.outbox = undefined;
    if (!wasUp) this.failed = failure;
    else if (!this.disposed) this.spawn().catch(() => undefined);
  }
}
