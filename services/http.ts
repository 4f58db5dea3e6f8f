// The service's HTTP API (hono): the same API for scripts and for the dashboard. Every /api
// route wants the service's token (`Authorization: Bearer T`); every payload is validated
// (zod) and a bad one is refused with 400 and a message that names the field.
//
//   GET  /api/health                  version and code signature (no token needed)
//   GET  /api/workers                 the live workers
//   GET  /api/flags                   workers whose results were refused: counts and the last reasons
//   GET  /api/engines                 the engines held;  POST /api/engines?name=N  (body: a wasm module)
//   GET  /api/runs                    the runs, newest first;  POST /api/runs  (body: a run, JSON)
//   GET  /api/runs/:id                one run
//   POST /api/runs/:id/cancel         stops a run (it can be resumed)
//   POST /api/runs/:id/resume
//   GET  /api/runs/:id/positions.bin  a data run's records

import { createReadStream, statSync } from "node:fs";
import { timingSafeEqual } from "node:crypto";
import { Readable } from "node:stream";
import { Hono } from "hono";
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Redis } from "ioredis";
import { MAX_ENGINE_BYTES, listEngines, putEngine } from "./engines.js";
import { WORKERS_KEY, liveWorkers, readFlags } from "./registry.js";
import { listRuns, readRun } from "./runs.js";
import { describeIssue } from "./data/chunk.js";
import { DataRunRequest, RequestError } from "./data/run.js";
import type { DataRuns } from "./data/run.js";

export interface ServiceContext {
  redis: Redis;
  data: DataRuns;
  token: string;
  version: string;
  code: string;
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

  app.use("/api/*", async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const given = header.startsWith("Bearer ") ? header.slice(7) : "";
    if (!tokenMatches(given, ctx.token)) return c.json({ error: "a valid token is required (Authorization: Bearer <token>)" }, 401);
    await next();
  });

  app.get("/api/workers", async (c) => c.json(liveWorkers(await ctx.redis.hgetall(WORKERS_KEY))));

  app.get("/api/flags", async (c) => c.json(await readFlags(ctx.redis)));

  app.get("/api/engines", async (c) => c.json(await listEngines(ctx.redis)));

  app.post(
    "/api/engines",
    bodyLimit({ maxSize: MAX_ENGINE_BYTES, onError: (c) => c.json({ error: `body: an engine is at most ${MAX_ENGINE_BYTES} bytes` }, 413) }),
    async (c) => {
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      try {
        return c.json(await putEngine(ctx.redis, bytes, c.req.query("name") ?? "engine.wasm"), 201);
      } catch (err) {
        return c.json({ error: `body: ${err instanceof Error ? err.message : err}` }, 400);
      }
    },
  );

  app.get("/api/runs", async (c) => c.json(await listRuns(ctx.redis)));

  app.post("/api/runs", bodyLimit({ maxSize: 16 * 1024 * 1024 }), async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return c.json({ error: "body: not JSON" }, 400);
    }
    const kind = (body as { kind?: unknown } | null)?.kind;
    if (kind !== "data") return c.json({ error: `kind: must be "data", got ${JSON.stringify(kind ?? null)}` }, 400);
    const request = DataRunRequest.safeParse(body);
    if (!request.success) return c.json({ error: describeIssue(request.error) }, 400);
    try {
      const id = await ctx.data.submit(request.data);
      return c.json(await readRun(ctx.redis, id), 201);
    } catch (err) {
      return errorResponse(c, err);
    }
  });

  app.get("/api/runs/:id", async (c) => {
    const run = await readRun(ctx.redis, c.req.param("id"));
    return run ? c.json(run) : c.json({ error: `no run ${JSON.stringify(c.req.param("id"))}` }, 404);
  });

  for (const [action, method] of [["cancel", "stop"], ["resume", "resume"]] as const) {
    app.post(`/api/runs/:id/${action}`, async (c) => {
      try {
        await ctx.data[method](c.req.param("id"));
        return c.json(await readRun(ctx.redis, c.req.param("id")));
      } catch (err) {
        return errorResponse(c, err);
      }
    });
  }

  app.get("/api/runs/:id/positions.bin", async (c) => {
    try {
      const path = await ctx.data.positionsFile(c.req.param("id"));
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
