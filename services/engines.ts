// Engine builds held by the service, named by content: a wasm module is stored in Redis under
// the SHA-256 of its bytes, and a job names the engine it runs by that hash. A worker fetches
// the module once into a cache directory of its own and checks the hash again before it runs
// it, so a worker runs exactly the code that was submitted, never a command line or a file a
// job names.

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Redis } from "ioredis";
import { KEY_PREFIX } from "./registry.js";

/** A held engine's name: 64 lowercase hex digits. */
export const ENGINE_HASH = /^[0-9a-f]{64}$/;
/** The largest module the service holds (the network build is about 300 kB). */
export const MAX_ENGINE_BYTES = 16 * 1024 * 1024;
const ENGINES_KEY = `${KEY_PREFIX}:engines`;
const engineKey = (sha: string) => `${KEY_PREFIX}:engine:${sha}`;

export interface EngineRecord {
  sha256: string;
  bytes: number;
  /** What the submitter called it (a file name, a build), for people. */
  name: string;
  added: string;
}

export function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Stores a wasm module (once: the same bytes again are the same engine); throws an Error
 *  that says what is wrong with bytes that are not a WebAssembly module. */
export async function putEngine(redis: Redis, bytes: Uint8Array, name: string): Promise<EngineRecord> {
  if (bytes.length === 0) throw new Error("the engine is empty");
  if (bytes.length > MAX_ENGINE_BYTES) throw new Error(`the engine is ${bytes.length} bytes, more than ${MAX_ENGINE_BYTES}`);
  if (!WebAssembly.validate(new Uint8Array(bytes))) throw new Error("the engine is not a valid WebAssembly module");
  const sha = sha256(bytes);
  const record: EngineRecord = { sha256: sha, bytes: bytes.length, name: name.slice(0, 200), added: new Date().toISOString() };
  await redis.set(engineKey(sha), Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), "NX");
  await redis.hsetnx(ENGINES_KEY, sha, JSON.stringify(record));
  return JSON.parse((await redis.hget(ENGINES_KEY, sha)) ?? JSON.stringify(record)) as EngineRecord;
}

/** The engines the service holds. */
export async function listEngines(redis: Redis): Promise<EngineRecord[]> {
  return Object.values(await redis.hgetall(ENGINES_KEY)).map((json) => JSON.parse(json) as EngineRecord);
}

export async function hasEngine(redis: Redis, sha: string): Promise<boolean> {
  return ENGINE_HASH.test(sha) && (await redis.exists(engineKey(sha))) === 1;
}

/** The cache directory of fetched engines: WASMCHESS_CACHE, or one under the system's
 *  temporary directory. */
export function engineCacheDir(): string {
  return process.env.WASMCHESS_CACHE ?? join(tmpdir(), "wasmchess-engines");
}

const checked = new Set<string>();

/** The path of the engine with this hash in the local cache, fetched from Redis when it is not
 *  there; its bytes are checked against the hash (a cached file once per process). */
export async function engineFile(redis: Redis, sha: string): Promise<string> {
  if (!ENGINE_HASH.test(sha)) throw new Error(`not an engine hash: ${JSON.stringify(sha)}`);
  const dir = engineCacheDir();
  const path = join(dir, `${sha}.wasm`);
  if (checked.has(sha)) return path;
  if (existsSync(path) && sha256(readFileSync(path)) === sha) {
    checked.add(sha);
    return path;
  }
  const bytes = await redis.getBuffer(engineKey(sha));
  if (!bytes) throw new Error(`engine ${sha} is not held by the service`);
  if (sha256(bytes) !== sha) throw new Error(`engine ${sha} in Redis does not match its hash`);
  mkdirSync(dir, { recursive: true });
  const part = `${path}.${process.pid}.part`;
  writeFileSync(part, bytes);
  renameSync(part, path);
  checked.add(sha);
  return path;
}
