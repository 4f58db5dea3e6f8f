// The files the service holds for its jobs, named by content: engine builds (wasm modules),
// networks (.nnue) and opening suites (FEN or EPD lines). Each is stored in Redis under the
// SHA-256 of its bytes, and a job names what it uses by that hash. A worker fetches a file
// once into a cache directory of its own and checks the hash again before it uses it, so a
// worker runs exactly the code and network that were submitted, never a command line or a
// path a job names.

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Redis } from "ioredis";
import { KEY_PREFIX } from "./registry.js";

/** A held file's name: 64 lowercase hex digits. */
export const FILE_HASH = /^[0-9a-f]{64}$/;

export const FILE_KINDS = {
  /** A build of the engine (the network build is about 300 kB). */
  engine: { maxBytes: 16 * 1024 * 1024, extension: "wasm" },
  /** An NNUE network file (docs/nnue.md). */
  network: { maxBytes: 64 * 1024 * 1024, extension: "nnue" },
  /** Opening positions, one FEN or EPD line each. */
  openings: { maxBytes: 16 * 1024 * 1024, extension: "epd" },
} as const;
export type FileKind = keyof typeof FILE_KINDS;

const indexKey = (kind: FileKind) => `${KEY_PREFIX}:files:${kind}`;
const bytesKey = (sha: string) => `${KEY_PREFIX}:file:${sha}`;

export interface FileRecord {
  sha256: string;
  kind: FileKind;
  bytes: number;
  /** What the submitter called it (a file name, a build), for people. */
  name: string;
  added: string;
}

export function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Checks that bytes can be a file of the kind; throws an Error that says what is wrong. */
export function checkFile(kind: FileKind, bytes: Uint8Array): void {
  const { maxBytes } = FILE_KINDS[kind];
  if (bytes.length === 0) throw new Error(`the ${kind} is empty`);
  if (bytes.length > maxBytes) throw new Error(`the ${kind} is ${bytes.length} bytes, more than ${maxBytes}`);
  if (kind === "engine" && !WebAssembly.validate(new Uint8Array(bytes))) throw new Error("the engine is not a valid WebAssembly module");
  if (kind === "openings") {
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw new Error("the openings are not UTF-8 text");
    }
  }
}

/** Stores a file (once: the same bytes again are the same file). */
export async function putFile(redis: Redis, kind: FileKind, bytes: Uint8Array, name: string): Promise<FileRecord> {
  checkFile(kind, bytes);
  const sha = sha256(bytes);
  const record: FileRecord = { sha256: sha, kind, bytes: bytes.length, name: name.slice(0, 200), added: new Date().toISOString() };
  await redis.set(bytesKey(sha), Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), "NX");
  await redis.hsetnx(indexKey(kind), sha, JSON.stringify(record));
  return JSON.parse((await redis.hget(indexKey(kind), sha)) ?? JSON.stringify(record)) as FileRecord;
}

/** The files of a kind the service holds. */
export async function listFiles(redis: Redis, kind: FileKind): Promise<FileRecord[]> {
  return Object.values(await redis.hgetall(indexKey(kind))).map((json) => JSON.parse(json) as FileRecord);
}

/** Whether the service holds a file of this kind with this hash. */
export async function hasFile(redis: Redis, kind: FileKind, sha: string): Promise<boolean> {
  return FILE_HASH.test(sha) && (await redis.hexists(indexKey(kind), sha)) === 1 && (await redis.exists(bytesKey(sha))) === 1;
}

/** The cache directory of fetched files: WASMCHESS_CACHE, or one under the system's temporary
 *  directory. */
export function fileCacheDir(): string {
  return process.env.WASMCHESS_CACHE ?? join(tmpdir(), "wasmchess-files");
}

const checked = new Set<string>();

/** The path of the held file with this hash in the local cache, fetched from Redis when it is
 *  not there; its bytes are checked against the hash (a cached file once per process). */
export async function cachedFile(redis: Redis, kind: FileKind, sha: string): Promise<string> {
  if (!FILE_HASH.test(sha)) throw new Error(`not a file hash: ${JSON.stringify(sha)}`);
  const dir = fileCacheDir();
  const path = join(dir, `${sha}.${FILE_KINDS[kind].extension}`);
  if (checked.has(path)) return path;
  if (existsSync(path) && sha256(readFileSync(path)) === sha) {
    checked.add(path);
    return path;
  }
  const bytes = await redis.getBuffer(bytesKey(sha));
  if (!bytes) throw new Error(`${kind} ${sha} is not held by the service`);
  if (sha256(bytes) !== sha) throw new Error(`${kind} ${sha} in Redis does not match its hash`);
  mkdirSync(dir, { recursive: true });
  const part = `${path}.${process.pid}.part`;
  writeFileSync(part, bytes);
  renameSync(part, path);
  checked.add(path);
  return path;
}
