// The messages between a WorkerClient (worker-client.ts) and the worker it runs (served by
// worker-host.ts), and the handle on each end of the channel, whatever the requests are: the
// caller's start-up data, requests and streamed events are type parameters. Nothing here
// knows what the worker does.

/** Caller to worker: the start-up data once, first; then requests, each with its call id
 *  (0: a setup call, whose answer nobody waits for). */
export type ToWorker<Init, Request> =
  | { kind: "init"; init: Init }
  | { kind: "request"; id: number; request: Request };

/** Worker to caller: whether it started, then per call its events and one answer. */
export type FromWorker<Event> =
  | { kind: "ready" }
  /** The worker could not start (its start-up threw): it answers nothing more. */
  | { kind: "failed"; message: string }
  | { kind: "result"; id: number; value: unknown }
  | { kind: "error"; id: number; message: string }
  | { kind: "event"; id: number; event: Event };

/** The package's workers: the engine's (engine-worker.ts) and a search's helper thread's
 *  (thread-worker.ts). */
export type WorkerEntry = "engine" | "thread";

/** The caller's handle on a worker (see spawn-worker-node.ts and spawn-worker-browser.ts). */
export interface WorkerHandle<Out> {
  post(message: Out): void;
  terminate(): void;
  /** Node: whether the worker keeps the process alive (only while calls are pending). */
  keepAlive(on: boolean): void;
}

/** The worker's side of the channel (see worker-port-node.ts and worker-port-browser.ts). */
export interface WorkerPort<Out, In> {
  post(message: Out): void;
  listen(handler: (message: In) => void): void;
}
