// The service's HTTP API (hono): the same API for scripts and for the dashboard. Every /api
// route wants the service's token (`Authorization: Bearer T`); every payload is validated
// (zod) and a bad one is refused with 400 and a message that names the field.
//
//   GET  /                            the dashboard (its page asks for the token)
//   GET  /api/health                  version and code signature (no token needed)
//   GET  /api/state                   workers, runs and flags at once (what the dashboard shows)
//   GET  /api/events?token=T          the same every second, as server-sent events
//   GET  /api/workers                 the live workers
//   GET  /api/flags                   workers whose results were refused: counts and the last reasons
//   GET  /api/engines                 the engines held;  POST /api/engines?name=N  (body: a wasm module)
//   GET  /api/networks, /api/openings the same for networks (.nnue) and opening suites (FEN/EPD lines)
//   GET  /api/runs                    the runs, newest first;  POST /api/runs  (body: a run, JSON:
//                                     kind "data", data/run.ts; "match", matches/task.ts;
//                                     "analysis", analysis/task.ts; "perft", perft/run.ts)
//   GET  /api/runs/:id                one run
//   POST /api/runs/:id/cancel         stops a run (it can be resumed)
//   POST /api/runs/:id/resume
//   GET  /api/runs/:id/positions.bin  a data run's records, and /datagen.json its progress file
//   GET  /api/runs/:id/games.pgn      a test's games, or an analysis run's games annotated

import { createReadStream, readFileSync, statSync } from "node:fs";
import { timingSafeEqual } from "node:crypto";
import { Readable } from "node:stream";
import { Hono } from "hono";
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { streamSSE } from "hono/streaming";
import type { Redis } from "ioredis";
import { FILE_KINDS, listFiles, putFile } from "./files.js";
import type { FileKind } from "./files.js";
import { WORKERS_KEY, liveWorkers, readFlags } from "./registry.js";
import { listRuns, readRun } from "./runs.js";
import { describeIssue } from "./schema.js";
import { DataRunRequest } from "./data/run.js";
import { RequestError } from "./run-coordinator.js";
import type { DataRuns } from "./data/run.js";
import { MatchRunRequest } from "./matches/task.js";
import type { MatchRuns } from "./matches/run.js";
import { AnalysisRunRequest } from "./analysis/task.js";
import type { AnalysisRuns } from "./analysis/run.js";
import { PerftRunRequest } from "./perft/run.js";
import type { PerftRuns } from "./perft/run.js";
import type { RunKind } from "./runs.js";

/** The request of each kind of run. */
const REQUESTS = { data: DataRunRequest, match: MatchRunRequest, analysis: AnalysisRunRequest, perft: PerftRunRequest } as const satisfies Record<RunKind, unknown>;

export interface ServiceContext {
  redis: Redis;
  coordinators: { data: DataRuns; match: MatchRuns; analysis: AnalysisRuns; perft: PerftRuns };
  /** More checks of an uploaded file than its kind's (openings read as positions). */
  checkUpload?: (kind: FileKind, bytes: Uint8Array) => Promise<void>;
  token: string;
  version: string;
  code: string;
  /** The dashboard's files by name (index.html, its script and style, uPlot's). */
  dashboard?: Record<string, { path: string; type: string }>;
}

function tokenMatches(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function errorResponse(c: Context, err: unknown) {
  if (err instanceof RequestError) return c.json({ error: err.message }, err.status);
  return c.json({ error: err instanceof Error ? err.message : String(err) }, 500);
}

export function createApp(ctx: ServiceContext): Hono {
  const app = new Hono();

  app.get("/api/health", (c) => c.json({ ok: true, version: ctx.version, code: ctx.code }));

  // The dashboard: its page and scripts (no token: the page asks for it), from files.
  app.get("/", (c) => c.redirect("/dashboard/"));
  app.get("/dashboard/*", (c) => {
    const name = c.req.path.slice("/dashboard/".length) || "index.html";
    const file = ctx.dashboard && Object.hasOwn(ctx.dashboard, name) ? ctx.dashboard[name] : undefined;
    if (!file) return c.json({ error: `no file ${JSON.stringify(name)}` }, 404);
    return c.body(readFileSync(file.path), 200, { "content-type": file.type, "cache-control": "no-cache" });
  });

  app.use("/api/*", async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    // EventSource sends no headers: the events stream may take the token in its address.
    const given = header.startsWith("Bearer ") ? header.slice(7) : c.req.path === "/api/events" ? (c.req.query("token") ?? "") : "";
    if (!tokenMatches(given, ctx.token)) return c.json({ error: "a valid token is required (Authorization: Bearer <token>)" }, 401);
    await next();
  });

  app.get("/api/workers", async (c) => c.json(liveWorkers(await ctx.redis.hgetall(WORKERS_KEY))));

  app.get("/api/flags", async (c) => c.json(await readFlags(ctx.redis)));

  /** The service's state as the dashboard shows it. */
  const snapshot = async () => ({
    version: ctx.version, code: ctx.code, time: Date.now(),
    workers: liveWorkers(await ctx.redis.hgetall(WORKERS_KEY)), runs: await listRuns(ctx.redis, 50), flags: await readFlags(ctx.redis),
  });
  app.get("/api/state", async (c) => c.json(await snapshot()));
  // Live updates: the state every second, as server-sent events ("state").
  app.get("/api/events", (c) =>
    streamSSE(c, async (stream) => {
      let open = true;
      stream.onAbort(() => {
        open = false;
      });
      while (open) {
        await stream.writeSSE({ event: "state", data: JSON.stringify(await snapshot()) });
        await stream.sleep(1000);
      }
    }),
  );

  // Files by content: engines, networks, opening suites.
  for (const [route, kind] of [["engines", "engine"], ["networks", "network"], ["openings", "openings"]] as [string, FileKind][]) {
    app.get(`/api/${route}`, async (c) => c.json(await listFiles(ctx.redis, kind)));
    const { maxBytes } = FILE_KINDS[kind];
    app.post(
      `/api/${route}`,
      bodyLimit({ maxSize: maxBytes, onError: (c) => c.json({ error: `body: a file of ${route} is at most ${maxBytes} bytes` }, 413) }),
      async (c) => {
        const bytes = new Uint8Array(await c.req.arrayBuffer());
        try {
          if (ctx.checkUpload) await ctx.checkUpload(kind, bytes);
          return c.json(await putFile(ctx.redis, kind, bytes, c.req.query("name") ?? kind), 201);
        } catch (err) {
          return c.json({ error: `body: ${err instanceof Error ? err.message : err}` }, 400);
        }
      },
    );
  }

  app.get("/api/runs", async (c) => c.json(await listRuns(ctx.redis)));

  app.post("/api/runs", bodyLimit({ maxSize: 24 * 1024 * 1024 }), async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return c.json({ error: "body: not JSON" }, 400);
    }
    const kind = (body as { kind?: unknown } | null)?.kind;
    if (typeof kind !== "string" || !Object.hasOwn(REQUESTS, kind)) {
      return c.json({ error: `kind: must be one of ${Object.keys(REQUESTS).map((k) => JSON.stringify(k)).join(", ")}, got ${JSON.stringify(kind ?? null)}` }, 400);
    }
    const request = REQUESTS[kind as RunKind].safeParse(body);
    if (!request.success) return c.json({ error: describeIssue(request.error) }, 400);
    try {
      const id = await ctx.coordinators[kind as RunKind].submit(request.data);
      return c.json(await readRun(ctx.redis, id), 201);
    } catch (err) {
      return errorResponse(c, err);
    }
  });

  app.get("/api/runs/:id", async (c) => {
    const run = await readRun(ctx.redis, c.req.param("id"));
    return run ? c.json(run) : c.json({ error: `no run ${JSON.stringify(c.req.param("id"))}` }, 404);
  });

  /** The coordinator of a run's kind (a 404 RequestError for no run). */
  const coordinatorOf = async (id: string) => {
    const kind = (await readRun(ctx.redis, id))?.kind;
    if (kind === undefined || !Object.hasOwn(ctx.coordinators, kind)) throw new RequestError(`no run ${JSON.stringify(id)}`, 404);
    return ctx.coordinators[kind];
  };

  for (const [action, method] of [["cancel", "stop"], ["resume", "resume"]] as const) {
    app.post(`/api/runs/:id/${action}`, async (c) => {
      try {
        await (await coordinatorOf(c.req.param("id")))[method](c.req.param("id"));
        return c.json(await readRun(ctx.redis, c.req.param("id")));
      } catch (err) {
        return errorResponse(c, err);
      }
    });
  }

  app.get("/api/runs/:id/games.pgn", async (c) => {
    try {
      const id = c.req.param("id");
      const coordinator = await coordinatorOf(id);
      if (!("pgn" in coordinator)) throw new RequestError(`run ${id} has no games: its records are at /api/runs/${id}/positions.bin`, 404);
      return c.body(await coordinator.pgn(id), 200, { "content-type": "application/x-chess-pgn; charset=utf-8" });
    } catch (err) {
      return errorResponse(c, err);
    }
  });

  app.get("/api/runs/:id/datagen.json", async (c) => {
    try {
      return c.body(readFileSync(await ctx.coordinators.data.runFile(c.req.param("id"), "datagen.json")), 200, { "content-type": "application/json" });
    } catch (err) {
      return errorResponse(c, err);
    }
  });

  app.get("/api/runs/:id/positions.bin", async (c) => {
    try {
      const path = await ctx.coordinators.data.runFile(c.req.param("id"), "positions.bin");
      const { size } = statSync(path);
      return new Response(Readable.toWeb(createReadStream(path, { start: 0, end: Math.max(0, size - 1) })) as unknown as ReadableStream, {
        headers: { "content-type": "application/octet-stream", "content-length": String(size) },
      });
    } catch (err) {
      return errorResponse(c, err);
    }
  });

  app.notFound((c) => c.json({ error: `no route ${c.req.method} ${c.req.path}` }, 404));
  app.onError((err, c) => errorResponse(c, err));
  return app;
}
