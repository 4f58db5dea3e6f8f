// The worker's side of a WorkerClient, knowing nothing of what the worker does: it builds a
// handler from the start-up data, says whether that worked, then runs the requests one at a
// time in the order they came and answers each by its call id.

import type { ToWorker, FromWorker, WorkerPort } from "./worker-channel.js";

/** What runs a worker's requests. */
export interface RequestHandler<Request, Event> {
  /** Runs one request (call `id`); `emit` streams events to its caller before the answer. The
   *  value returned (or awaited) is the answer; an Error thrown is the caller's rejection. */
  handle(request: Request, id: number, emit: (event: Event) => void): unknown;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Answers the client at the other end of port with the handler that `start` builds from the
 *  client's start-up data. */
export function serveWorker<Init, Request, Event>(
  port: WorkerPort<FromWorker<Event>, ToWorker<Init, Request>>,
  start: (init: Init) => Promise<RequestHandler<Request, Event>>,
): void {
  let handler: RequestHandler<Request, Event> | undefined;
  const run = async (m: ToWorker<Init, Request>): Promise<void> => {
    if (m.kind === "init") {
      try {
        handler = await start(m.init);
      } catch (err) {
        // Said, not thrown: a Web Worker's unhandled rejection reaches no one, and the client
        // would wait for "ready" for ever.
        port.post({ kind: "failed", message: messageOf(err) });
        return;
      }
      port.post({ kind: "ready" });
      return;
    }
    const { id, request } = m;
    try {
      const value = await handler!.handle(request, id, (event) => port.post({ kind: "event", id, event }));
      port.post({ kind: "result", id, value });
    } catch (err) {
      port.post({ kind: "error", id, message: messageOf(err) });
    }
  };
  let queue: Promise<void> = Promise.resolve();
  port.listen((m) => {
    queue = queue.then(() => run(m));
  });
}
