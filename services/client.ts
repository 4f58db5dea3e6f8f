// A client of the service's HTTP API: every call with the token, bytes sent as they are and
// anything else as JSON. For scripts (`npm run datagen -- --service`, the benches) and tests.

import { readFileSync } from "node:fs";
import { basename } from "node:path";

export interface ServiceReply {
  status: number;
  ok: boolean;
  text: string;
  /** The body as JSON, or undefined when it is not JSON. */
  json: any;
}

/** A call to the service at base with the token. */
export async function callService(base: string, token: string, method: string, path: string, body?: unknown): Promise<ServiceReply> {
  const bytes = body instanceof Uint8Array;
  const res = await fetch(base.replace(/\/+$/, "") + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": bytes ? "application/octet-stream" : "application/json" }) },
    body: body === undefined ? undefined : bytes ? (body as Uint8Array<ArrayBuffer>) : JSON.stringify(body),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, ok: res.ok, text, json };
}

/** The same, throwing an Error with the status and the service's message unless it succeeded. */
export async function requireService(base: string, token: string, method: string, path: string, body?: unknown): Promise<ServiceReply> {
  const reply = await callService(base, token, method, path, body);
  if (!reply.ok) throw new Error(`${method} ${path}: ${reply.status} ${reply.json?.error ?? reply.text.slice(0, 300)}`);
  return reply;
}

/** Uploads a file the service holds by content (route: "engines", "networks", "openings");
 *  its SHA-256. */
export async function uploadFile(base: string, token: string, route: string, file: string): Promise<string> {
  const reply = await requireService(base, token, "POST", `/api/${route}?name=${encodeURIComponent(basename(file))}`, new Uint8Array(readFileSync(file)));
  return reply.json.sha256 as string;
}
