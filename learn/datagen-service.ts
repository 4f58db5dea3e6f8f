// `npm run datagen -- --service URL ...`: the same data run, played by the workers of a
// `wasmchess service` (docs/service.md) instead of this machine's threads. The run's id is
// the name of --out; the engine is the one datagen would play (uploaded, held by its hash);
// the command follows the run with a progress line, and when it is done writes
// positions.bin, datagen.json and engine.wasm into --out, as a local run does (the records
// are the same for the same seed, engine and settings). Stopped, the run goes on in the
// service; the same command again follows it again (and resumes it if it was cancelled).

import { createWriteStream, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { SelfPlaySettings } from "./selfplay.js";

export interface ServiceDatagen {
  service: string;
  token: string;
  out: string;
  positions: number;
  settings: SelfPlaySettings;
  /** The engine file in --out (datagen's engine.wasm). */
  enginePath: string;
  progressEverySeconds: number;
  log: (line: string) => void;
}

interface RunReply {
  state: string;
  error?: string;
  spec: { engine: string; positions: number; settings: SelfPlaySettings };
  status: { positions?: number; games?: number; positionsPerSecond?: number; results?: { white: number; draw: number; black: number } };
}

export async function generateOnService(o: ServiceDatagen): Promise<void> {
  const base = o.service.replace(/\/+$/, "");
  const call = async (method: string, path: string, body?: BodyInit, type = "application/json") => {
    const res = await fetch(base + path, { method, body, headers: { authorization: `Bearer ${o.token}`, ...(body === undefined ? {} : { "content-type": type }) } });
    if (!res.ok && res.status !== 404) throw new Error(`${method} ${path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    return res;
  };
  const id = basename(o.out);
  const engine = (await (await call("POST", `/api/engines?name=${encodeURIComponent(basename(o.enginePath))}`, readFileSync(o.enginePath), "application/wasm")).json()) as { sha256: string };
  const existing = await call("GET", `/api/runs/${encodeURIComponent(id)}`);
  if (existing.status === 404) {
    const { hashMb, nodes, seed, randomPlies, book, minPly, skipInCheck, skipNoisy } = o.settings;
    await call("POST", "/api/runs", JSON.stringify({
      kind: "data", id, engine: engine.sha256, positions: o.positions,
      settings: { hashMb, nodes, seed, randomPlies, book, minPly, skipInCheck, skipNoisy },
    }));
    o.log(`data run ${id} submitted to ${base}`);
  } else {
    const run = (await existing.json()) as RunReply;
    if (run.spec.engine !== engine.sha256 || run.spec.positions !== o.positions || JSON.stringify(run.spec.settings) !== JSON.stringify(o.settings)) {
      throw new Error(`the service's run ${id} is another run (engine, positions or settings differ); use the same options or another --out`);
    }
    if (run.state === "stopped") await call("POST", `/api/runs/${encodeURIComponent(id)}/resume`);
    o.log(`following data run ${id} on ${base} (${run.state})`);
  }
  let last = 0;
  for (;;) {
    const run = (await (await call("GET", `/api/runs/${encodeURIComponent(id)}`)).json()) as RunReply;
    if (run.state === "failed") throw new Error(`the service's run ${id} failed: ${run.error}`);
    const s = run.status;
    if (run.state === "done" || Date.now() - last >= o.progressEverySeconds * 1000) {
      last = Date.now();
      const r = s.results;
      o.log(`positions ${s.positions ?? 0} / ${o.positions}  ${s.positionsPerSecond ?? 0}/s  games ${s.games ?? 0}` + (r ? ` (white ${r.white} draw ${r.draw} black ${r.black})` : "") + `  [${run.state}]`);
    }
    if (run.state === "done") break;
    if (run.state === "stopped") throw new Error(`the service's run ${id} was cancelled; run the same command to resume it`);
    await new Promise((r) => setTimeout(r, 1000));
  }
  const records = await call("GET", `/api/runs/${encodeURIComponent(id)}/positions.bin`);
  await pipeline(Readable.fromWeb(records.body! as import("node:stream/web").ReadableStream), createWriteStream(join(o.out, "positions.bin")));
  const progress = await (await call("GET", `/api/runs/${encodeURIComponent(id)}/datagen.json`)).text();
  writeFileSync(join(o.out, "datagen.json"), progress);
  o.log(`${JSON.parse(progress).positions} positions in ${join(o.out, "positions.bin")}`);
}
