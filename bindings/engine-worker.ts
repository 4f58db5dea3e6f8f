// The engine's worker (a worker thread in Node, a Web Worker in browsers): owns one Core,
// runs requests in order, streams search info, and re-creates the wasm after a trap.

import { Core, EngineCrashError, POLL_CONTINUE, POLL_STOP, POLL_PONDERHIT } from "./core.js";
import { CONTROL_STOP, CONTROL_PONDERHIT, CONTROL_RUN, remember } from "./protocol.js";
import type { Request, Call } from "./protocol.js";
import { openPort } from "#worker-port";

const port = openPort();
let core: Core | undefined;
let control: Int32Array | undefined;
let hashMb: number | undefined;
// State-setting calls since the last setPosition, replayed into a fresh Core after a trap.
let replay: Call[] = [];
let queue: Promise<void> = Promise.resolve();

function poll(): number {
  if (!control) return POLL_CONTINUE;
  const v = Atomics.load(control, 0);
  if (v === CONTROL_STOP) return POLL_STOP;
  if (v === CONTROL_PONDERHIT) {
    Atomics.compareExchange(control, 0, CONTROL_PONDERHIT, CONTROL_RUN);
    return POLL_PONDERHIT;
  }
  return POLL_CONTINUE;
}

async function recover(): Promise<void> {
  core = await Core.create({ hashMb });
  for (const { method, args } of replay) {
    try {
      (core[method] as (...a: unknown[]) => unknown)(...args);
    } catch {
      // A call that failed before fails again; the state it would set is simply absent.
    }
  }
}

async function handle(req: Request): Promise<void> {
  if (req.kind === "init") {
    control = req.control ? new Int32Array(req.control) : undefined;
    hashMb = req.hashMb;
    core = await Core.create({ hashMb });
    port.post({ kind: "ready" });
    return;
  }
  const c = core!;
  try {
    if (req.kind === "call") {
      const value = (c[req.method] as (...a: unknown[]) => unknown).apply(c, req.args);
      replay = remember(replay, req.method, req.args);
      port.post({ kind: "result", id: req.id, value });
    } else {
      const moves = c.legalMoves();
      port.post({ kind: "started", id: req.id, fallback: moves[0] ?? "0000", white: c.sideToMove() === "w" });
      const value = c.search(req.limits, {
        poll,
        onInfo: (info) => port.post({ kind: "info", id: req.id, info }),
        onCurrMove: (current) => port.post({ kind: "currmove", id: req.id, current }),
      });
      port.post({ kind: "result", id: req.id, value });
    }
  } catch (err) {
    const crashed = err instanceof EngineCrashError;
    if (crashed) await recover();
    port.post({ kind: "error", id: req.id, message: err instanceof Error ? err.message : String(err), crashed });
  }
}

port.listen((req) => {
  queue = queue.then(() => handle(req));
});
