// `npm run datagen -- --service URL ...`: the same data run, played by the workers of a
// `wasmchess service` (docs/service.md) instead of this machine's threads. The run's id is
// the name of --out; the engine is the one datagen would play (uploaded, held by its hash);
// the command follows the run with a progress line, and when it is done writes
// positions.bin, datagen.json and engine.wasm into --out, as a local run does (the records
// are the same for the same seed, engine and settings). Stopped, the run goes on in the
// service; the same command again follows it again (and resumes it if it was cancelled).

import { createWriteStream, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { SelfPlaySettings } from "./selfplay.js";
import { callService, requireService, uploadFile } from "../services/client.js";

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
  const call = (method: string, path: string, body?: unknown) => requireService(base, o.token, method, path, body);
  const id = basename(o.out);
  const run = `/api/runs/${encodeURIComponent(id)}`;
  const engine = { sha256: await uploadFile(base, o.token, "engines", o.enginePath) };
  const existing = await callService(base, o.token, "GET", run);
  if (existing.status === 404) {
    const { hashMb, nodes, seed, randomPlies, book, minPly, skipInCheck, skipNoisy } = o.settings;
    await call("POST", "/api/runs", {
      kind: "data", id, engine: engine.sha256, positions: o.positions,
      settings: { hashMb, nodes, seed, randomPlies, book, minPly, skipInCheck, skipNoisy },
    });
    o.log(`data run ${id} submitted to ${base}`);
  } else {
    if (!existing.ok) throw new Error(`GET ${run}: ${existing.status} ${existing.text.slice(0, 300)}`);
    const r = existing.json as RunReply;
    if (r.spec.engine !== engine.sha256 || r.spec.positions !== o.positions || JSON.stringify(r.spec.settings) !== JSON.stringify(o.settings)) {
      throw new Error(`the service's run ${id} is another run (engine, positions or settings differ); use the same options or another --out`);
    }
    if (r.state === "stopped") await call("POST", `${run}/resume`);
    o.log(`following data run ${id} on ${base} (${r.state})`);
  }
  let last = 0;
  for (;;) {
    const r = (await call("GET", run)).json as RunReply;
    if (r.state === "failed") throw new Error(`the service's run ${id} failed: ${r.error}`);
    const s = r.status;
    if (r.state === "done" || Date.now() - last >= o.progressEverySeconds * 1000) {
      last = Date.now();
      const w = s.results;
      o.log(`positions ${s.positions ?? 0} / ${o.positions}  ${s.positionsPerSecond ?? 0}/s  games ${s.games ?? 0}` + (w ? ` (white ${w.white} draw ${w.draw} black ${w.black})` : "") + `  [${r.state}]`);
    }
    if (r.state === "done") break;
    if (r.state === "stopped") throw new Error(`the service's run ${id} was cancelled; run the same command to resume it`);
    await new Promise((wake) => setTimeout(wake, 1000));
  }
  // The records may be large: streamed to the file, not read into memory.
  const records = await fetch(`${base}${run}/positions.bin`, { headers: { authorization: `Bearer ${o.token}` } });
  if (!records.ok || !records.body) throw new Error(`GET ${run}/positions.bin: ${records.status}`);
  await pipeline(Readable.fromWeb(records.body as import("node:stream/web").ReadableStream), createWriteStream(join(o.out, "positions.bin")));
  const progress = (await call("GET", `${run}/datagen.json`)).text;
  writeFileSync(join(o.out, "datagen.json"), progress);
  o.log(`${JSON.parse(progress).positions} positions in ${join(o.out, "positions.bin")}`);
}
