// The service's runs in Redis: each run is a hash (its kind, spec, state and a status the
// API shows), listed in a sorted set by creation time. The spec is fixed when the run is
// made; its state moves between running and stopped (cancel, resume) until it is done or
// failed. Everything a coordinator needs to continue a run after a restart is here or in
// the run's own keys (its results), never only in a process.

import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { KEY_PREFIX } from "./registry.js";

export const RUN_STATES = ["running", "stopped", "done", "failed"] as const;
export type RunState = (typeof RUN_STATES)[number];
export type RunKind = "data" | "match" | "analysis" | "perft";

const RUNS_KEY = `${KEY_PREFIX}:runs`;
/** The keys of a run: its hash, the results its workers returned and are not yet written,
 *  and how often each of its jobs failed. */
export function serviceRunKeys(id: string): { meta: string; results: string; retries: string } {
  const base = `${KEY_PREFIX}:run:${id}`;
  return { meta: base, results: `${base}:results`, retries: `${base}:retries` };
}

export interface RunRecord<Spec = unknown, Status = Record<string, unknown>> {
  id: string;
  kind: RunKind;
  state: RunState;
  created: string;
  spec: Spec;
  status: Status;
  error?: string;
}

/** A new run id: its kind, the time and some random digits. */
export function newRunId(kind: RunKind): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "").replace("T", "-");
  return `${kind}-${stamp}-${randomBytes(3).toString("hex")}`;
}

/** Makes a run; false when the id is taken. */
export async function createRun(redis: Redis, id: string, kind: RunKind, spec: unknown): Promise<boolean> {
  const { meta } = serviceRunKeys(id);
  if (!(await redis.hsetnx(meta, "kind", kind))) return false;
  const created = new Date().toISOString();
  await redis.hset(meta, { spec: JSON.stringify(spec), state: "running", created, status: "{}" });
  await redis.zadd(RUNS_KEY, Date.now(), id);
  return true;
}

export async function readRun<Spec = unknown, Status = Record<string, unknown>>(redis: Redis, id: string): Promise<RunRecord<Spec, Status> | undefined> {
  const h = await redis.hgetall(serviceRunKeys(id).meta);
  if (!h.kind || !h.spec) return undefined;
  return {
    id, kind: h.kind as RunKind, state: (h.state ?? "running") as RunState, created: h.created ?? "",
    spec: JSON.parse(h.spec) as Spec, status: JSON.parse(h.status ?? "{}") as Status, ...(h.error ? { error: h.error } : {}),
  };
}

/** The runs, newest first. */
export async function listRuns(redis: Redis, limit = 200): Promise<RunRecord[]> {
  const ids = await redis.zrevrange(RUNS_KEY, 0, limit - 1);
  const runs = await Promise.all(ids.map((id) => readRun(redis, id)));
  return runs.filter((r): r is RunRecord => r !== undefined);
}

/** The ids of the runs in a state. */
export async function runsIn(redis: Redis, state: RunState): Promise<string[]> {
  const ids = await redis.zrange(RUNS_KEY, "0", "-1");
  const states = await Promise.all(ids.map((id) => redis.hget(serviceRunKeys(id).meta, "state")));
  return ids.filter((_, i) => states[i] === state);
}

export async function setRunState(redis: Redis, id: string, state: RunState, error?: string): Promise<void> {
  await redis.hset(serviceRunKeys(id).meta, { state, ...(error ? { error } : {}) });
}

export async function setRunStatus(redis: Redis, id: string, status: object): Promise<void> {
  await redis.hset(serviceRunKeys(id).meta, "status", JSON.stringify(status));
}
