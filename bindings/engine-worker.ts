// The engine's worker (a worker thread in Node, a Web Worker in browsers): owns one Core,
// runs requests in order (each brings the position it needs), streams search info, and
// re-creates the wasm after a trap.

import { Core, EngineCrashError, POLL_CONTINUE, POLL_STOP, POLL_PONDERHIT } from "./core.js";
import { CONTROL_STOP_BELOW, CONTROL_PONDERHIT, remember, samePosition, lessWaited, epochNow } from "./protocol.js";
import type { Request, Call, PositionRecord } from "./protocol.js";
import { openPort } from "#worker-port";
import type { EngineBuild } from "./wasm.js";

const port = openPort();
let core: Core | undefined;
let control: Int32Array | undefined;
let hashMb: number | undefined;
let build: EngineBuild | undefined;
// Option calls, replayed into a fresh Core after a trap.
let replay: Call[] = [];
// The position the Core holds, when it is one a request brought.
let current: PositionRecord | undefined;
// The id of the running search (0: none).
let searching = 0;
let queue: Promise<void> = Promise.resolve();

function poll(): number {
  if (!control) return POLL_CONTINUE;
  if (searching < Atomics.load(control, CONTROL_STOP_BELOW)) return POLL_STOP;
  if (Atomics.load(control, CONTROL_PONDERHIT) === searching) {
    Atomics.compareExchange(control, CONTROL_PONDERHIT, searching, 0);
    return POLL_PONDERHIT;
  }
  return POLL_CONTINUE;
}

async function recover(): Promise<void> {
  core = await Core.create({ hashMb, build });
  current = undefined;
  for (const { method, args } of replay) {
    try {
      (core[method] as (...a: unknown[]) => unknown)(...args);
    } catch {
      // A call that failed before fails again; the state it would set is simply absent.
    }
  }
}

function setPosition(c: Core, position: PositionRecord | undefined): void {
  if (!position || samePosition(current, position)) return;
  current = undefined;
  c.setPosition(position.fen, position.moves, position.chess960);
  current = position;
}

function search(c: Core, req: Extract<Request, { kind: "search" }>): unknown {
  const lines = c.multiPv();
  if (req.multiPv !== undefined) c.setMultiPv(req.multiPv);
  searching = req.id;
  try {
    return c.search(lessWaited(req.limits, epochNow() - req.sentAt), {
      poll,
      onInfo: (info) => port.post({ kind: "info", id: req.id, info }),
      onCurrMove: (current) => port.post({ kind: "currmove", id: req.id, current }),
    });
  } finally {
    searching = 0;
    if (!c.crashed) c.setMultiPv(lines);
  }
}

async function handle(req: Request): Promise<void> {
  if (req.kind === "init") {
    control = req.control ? new Int32Array(req.control) : undefined;
    hashMb = req.hashMb;
    build = req.build;
    try {
      core = await Core.create({ hashMb, build });
    } catch (err) {
      // Said, not thrown: a Web Worker's unhandled rejection reaches no one, and the Engine
      // would wait for "ready" for ever.
      port.post({ kind: "failed", message: err instanceof Error ? err.message : String(err) });
      return;
    }
    port.post({ kind: "ready" });
    return;
  }
  const c = core!;
  try {
    setPosition(c, req.position);
    let value: unknown;
    if (req.kind === "call") {
      value = (c[req.method] as (...a: unknown[]) => unknown).apply(c, req.args);
      replay = remember(replay, req.method, req.args);
      if (req.method === "bench") current = undefined; // the bench leaves its last position
    } else {
      value = search(c, req);
    }
    port.post({ kind: "result", id: req.id, value });
  } catch (err) {
    const crashed = err instanceof EngineCrashError;
    if (crashed) await recover();
    port.post({ kind: "error", id: req.id, message: err instanceof Error ? err.message : String(err), crashed });
  }
}

port.listen((req) => {
  queue = queue.then(() => handle(req));
});
