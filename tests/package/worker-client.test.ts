// The worker client that knows nothing of chess (bindings/worker-client.ts) with a worker that
// knows nothing of chess either (tests/fixtures/echo-worker.mjs, served by bindings/worker-host.ts):
// the outbox before the worker is up, answers and events matched by id, setup calls replayed
// into a fresh worker after a death, restart, cancel, a worker that cannot start, dispose.
import { describe, it, expect, afterEach } from "vitest";
import { WorkerClient } from "../../bindings/worker-client.js";
import type { WorkerCaller } from "../../bindings/worker-client.js";

type Init = { setting?: string; fail?: string };
type Request =
  | { op: "echo"; value: unknown } | { op: "count"; n: number } | { op: "set"; value: string } | { op: "get" }
  | { op: "id" } | { op: "wait"; ms: number } | { op: "throw"; message: string } | { op: "die" };

const url = new URL("../fixtures/echo-worker.mjs", import.meta.url);
const clients: WorkerClient<Init, Request, number>[] = [];
afterEach(() => clients.splice(0).forEach((c) => c.dispose(new Error("test over"))));

function client(init: Init = {}, setup: () => Request[] = () => []): WorkerClient<Init, Request, number> {
  const c = new WorkerClient<Init, Request, number>({ url, init, setup, name: "echo worker" });
  clients.push(c);
  return c;
}

/** Sends a request; the promise of its answer, and the events it streamed. */
function ask(c: WorkerClient<Init, Request, number>, request: Request): { answer: Promise<unknown>; events: number[]; id: number } {
  const events: number[] = [];
  let caller!: WorkerCaller<number>;
  const answer = new Promise<unknown>((resolve, reject) => (caller = { resolve, reject, onEvent: (e) => events.push(e) }));
  return { answer, events, id: c.send(request, caller) };
}

describe("WorkerClient", () => {
  it("queues requests until the worker is up, then answers each by its id, events first", async () => {
    const c = client({ setting: "from init" });
    const started = c.startLater(10_000);
    const echo = ask(c, { op: "echo", value: { a: [1, 2] } }); // spawns the worker now
    const count = ask(c, { op: "count", n: 3 });
    const id = ask(c, { op: "id" });
    await started;
    expect(await echo.answer).toEqual({ a: [1, 2] });
    expect(await count.answer).toBe(3);
    expect(count.events).toEqual([1, 2, 3]);
    expect(await id.answer).toBe(id.id);
    expect(await ask(c, { op: "get" }).answer).toBe("from init");
  });

  it("a request that throws rejects alone; the worker goes on", async () => {
    const c = client();
    await c.start();
    await expect(ask(c, { op: "throw", message: "no such thing" }).answer).rejects.toThrow(/^no such thing$/);
    expect(await ask(c, { op: "echo", value: 7 }).answer).toBe(7);
  });

  it("after the worker dies its calls reject, and a fresh worker runs the setup calls first", async () => {
    let setting = "first";
    const c = client({}, () => [{ op: "set", value: setting }]);
    await c.start();
    expect(await ask(c, { op: "get" }).answer).toBe("first");
    setting = "second";
    const dying = ask(c, { op: "die" });
    const queued = ask(c, { op: "echo", value: "never answered" });
    await expect(dying.answer).rejects.toThrow(/^echo worker failed: .*exited with code 3/);
    await expect(queued.answer).rejects.toThrow(/echo worker failed/);
    expect(await ask(c, { op: "get" }).answer).toBe("second");
  });

  it("restart() sends the pending calls to a fresh worker; a cancelled call hears nothing", async () => {
    const c = client();
    await c.start();
    const slow = ask(c, { op: "wait", ms: 60_000 });
    const next = ask(c, { op: "echo", value: "after" });
    c.cancel(slow.id);
    c.restart();
    expect(await next.answer).toBe("after");
    expect(await Promise.race([slow.answer, new Promise((r) => setTimeout(() => r("silent"), 50))])).toBe("silent");
  });

  it("a worker that cannot start rejects start() and every call, and is not restarted", async () => {
    const c = client({ fail: "no engine here" });
    await expect(c.start()).rejects.toThrow(/^cannot start: no engine here$/);
    await expect(ask(c, { op: "echo", value: 1 }).answer).rejects.toThrow(/^echo worker failed: cannot start: no engine here$/);
  });

  it("dispose() rejects the pending calls and every later one", async () => {
    const c = client();
    await c.start();
    const waiting = ask(c, { op: "wait", ms: 60_000 });
    c.dispose(new Error("gone"));
    await expect(waiting.answer).rejects.toThrow(/^gone$/);
    await expect(ask(c, { op: "echo", value: 1 }).answer).rejects.toThrow(/echo worker is disposed/);
  });
});
