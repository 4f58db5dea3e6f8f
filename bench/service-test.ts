// A test (SPRT or a fixed number of games) played by the workers of a `wasmchess service`
// (docs/service.md) instead of this machine's processes: the engine builds and networks are
// uploaded (held by content hash), the test submitted under --id (or followed, and resumed if
// it was cancelled, when that id exists), its progress printed after every task, and at the
// end the same summary bench/match.ts prints; --pgn saves the games.
//
//   npx tsx bench/service-test.ts --service http://127.0.0.1:8080 [--token T] --id new-vs-base \
//     --engine wasm=build/wasmchess-nnue.wasm,name=new,option.Hash=16 \
//     --engine wasm=data/engines/base/build/wasmchess-nnue.wasm,network=nets/x.nnue,name=base \
//     [--each option.Hash=16] [--tc 10+0.1 | --nodes N | --movetime MS | --depth D] [--games 20000]
//     [--sprt elo0=0,elo1=10[,alpha=0.05,beta=0.05]] [--openings FILE | builtin] [--order random]
//     [--seed 1] [--pairs-per-task 4] [--resign movecount=3,score=1000]
//     [--draw movenumber=40,movecount=8,score=10] [--maxmoves N] [--pgn FILE]
//
// The token is --token or WASMCHESS_TOKEN. An engine is wasm=FILE (a build of the package's
// engine), optionally network=FILE, name=NAME and option.NAME=VALUE (UCI options, repeatable).
// --resign, --draw and --maxmoves adjudicate as bench/match.ts's do.

import { parseArgs } from "node:util";
import { writeFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { parseDraw, parseKeyValues, parseResign, parseSprt, positiveInt } from "../match/args.js";
import { scoreLine, sprtLine, summaryLines } from "../match/report.js";
import { eloFromJson } from "../match/stats.js";
import { requireService, uploadFile } from "../services/client.js";

const { values } = parseArgs({
  options: {
    service: { type: "string" },
    token: { type: "string" },
    id: { type: "string" },
    engine: { type: "string", multiple: true, default: [] },
    each: { type: "string", default: "" },
    tc: { type: "string" },
    nodes: { type: "string" },
    movetime: { type: "string" },
    depth: { type: "string" },
    games: { type: "string", default: "20000" },
    sprt: { type: "string" },
    openings: { type: "string", default: "bench/data/openings-random6.epd" },
    order: { type: "string", default: "random" },
    seed: { type: "string", default: "1" },
    "pairs-per-task": { type: "string" },
    resign: { type: "string" },
    draw: { type: "string" },
    maxmoves: { type: "string" },
    pgn: { type: "string" },
  },
});
const token = values.token ?? process.env.WASMCHESS_TOKEN;
if (!values.service || !token || !values.id) throw new Error("--service URL, --token T (or WASMCHESS_TOKEN) and --id ID are needed");
if (values.engine!.length !== 2) throw new Error("two --engine wasm=FILE[,network=FILE][,name=N][,option.X=V] are needed");
const base = values.service.replace(/\/+$/, "");
const call = (method: string, path: string, body?: unknown) => requireService(base, token, method, path, body);
const upload = (route: string, file: string) => uploadFile(base, token, route, resolve(file));

/** An engine of the request from wasm=FILE,network=FILE,name=N,option.X=V. */
async function engineSpec(text: string): Promise<{ name: string; engine: string; network?: string; options: Record<string, string> }> {
  const spec = { name: "", engine: "", network: undefined as string | undefined, options: {} as Record<string, string> };
  for (const [key, value] of [...parseKeyValues(values.each!, "--each"), ...parseKeyValues(text, "--engine")]) {
    if (key === "wasm") spec.engine = await upload("engines", value);
    else if (key === "network") spec.network = await upload("networks", value);
    else if (key === "name") spec.name = value;
    else if (key.startsWith("option.")) spec.options[key.slice("option.".length)] = value;
    else throw new Error(`--engine: unknown key ${JSON.stringify(key)} (wasm, network, name, option.NAME)`);
  }
  if (!spec.engine) throw new Error(`--engine ${text}: wasm=FILE is needed`);
  if (!spec.name) spec.name = basename(text);
  return spec;
}

function limits(): Record<string, unknown> {
  const given = (["tc", "nodes", "movetime", "depth"] as const).filter((k) => values[k] !== undefined);
  if (given.length !== 1) throw new Error("one of --tc, --nodes, --movetime, --depth is needed");
  const k = given[0];
  return { [k]: k === "tc" ? values.tc : Number(values[k]) };
}

/** The match runner's adjudication from --resign, --draw and --maxmoves; undefined when none. */
function adjudication(): Record<string, unknown> | undefined {
  const a = {
    ...(values.resign ? { resign: parseResign(values.resign) } : {}),
    ...(values.draw ? { draw: parseDraw(values.draw) } : {}),
    ...(values.maxmoves ? { maxMoves: positiveInt(values.maxmoves, "--maxmoves") } : {}),
  };
  return Object.keys(a).length ? a : undefined;
}

const id = values.id;
const path = `/api/runs/${encodeURIComponent(id)}`;
let run = (await requireService(base, token, "GET", "/api/runs")).json.find((r: { id: string }) => r.id === id);
if (!run) {
  const adjudicated = adjudication();
  const request = {
    kind: "match", id, engines: [await engineSpec(values.engine![0]), await engineSpec(values.engine![1])], limits: limits(),
    openings: values.openings === "builtin" ? "builtin" : await upload("openings", values.openings!),
    order: values.order, seed: Number(values.seed), games: Number(values.games),
    ...(values.sprt ? { sprt: parseSprt(values.sprt) } : {}),
    ...(values["pairs-per-task"] ? { pairsPerTask: Number(values["pairs-per-task"]) } : {}),
    ...(adjudicated ? { adjudication: adjudicated } : {}),
  };
  run = (await call("POST", "/api/runs", request)).json;
  console.log(`submitted ${id}: ${request.engines[0].name} vs ${request.engines[1].name}, ${JSON.stringify(request.limits)}, up to ${request.games} games`);
} else {
  if (run.state === "stopped") run = (await call("POST", `${path}/resume`)).json;
  console.log(`following ${id} (${run.state})`);
}

let shown = -1;
for (;;) {
  run = (await call("GET", path)).json;
  const s = run.status;
  if (s?.tri && s.games !== shown) {
    shown = s.games;
    console.log(scoreLine(s.names, s.tri, eloFromJson(s.elo)) + (s.sprt ? `  ${sprtLine(s.sprt.llr, s.sprt.params, s.games)}` : ""));
  }
  if (run.state === "failed") throw new Error(`${id} failed: ${run.error}`);
  if (run.state === "done" || run.state === "stopped") break;
  await new Promise((r) => setTimeout(r, 5000));
}
const s = run.status;
for (const line of summaryLines({
  names: s.names, games: s.games, tri: s.tri, penta: s.penta, elo: eloFromJson(s.elo), pentaElo: s.pentaElo ? eloFromJson(s.pentaElo) : undefined,
  los: s.los, sprt: s.sprt ? { params: s.sprt.params, llr: s.sprt.llr, decision: s.sprt.decision, decidedAtGame: s.sprt.decidedAtGame } : undefined,
  endings: s.endings, faults: s.faults, restarts: [0, 0], elapsedMs: Date.now() - Date.parse(run.created), interrupted: run.state !== "done",
})) console.log(line);
if (values.pgn) {
  writeFileSync(values.pgn, (await call("GET", `${path}/games.pgn`)).text);
  console.log(`games: ${values.pgn}`);
}
