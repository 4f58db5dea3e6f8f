// The web app in a real browser, for its test and its measurements: builds app/ with Vite into
// a folder, serves a folder on localhost (plain, or cross-origin isolated with COOP/COEP, with a
// log of the files asked for), and starts Debian's Chromium through playwright-core.

import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer, Server } from "node:http";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { chromium, Browser } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
export const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CHROMIUM_FLAGS = [
  "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
  "--no-first-run", "--disable-sync", "--disable-quic",
];
const MIME: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
};

export const hasChromium = existsSync(CHROMIUM);

/** Bundles the app into outDir (the package's build/ must be there); returns Vite's output. */
export async function buildApp(outDir: string): Promise<string> {
  const vite = join(ROOT, "node_modules/vite/bin/vite.js");
  const config = join(ROOT, "app/vite.config.ts");
  const out = await promisify(execFile)(process.execPath, [vite, "build", "--config", config, "--outDir", outDir, "--emptyOutDir"], { cwd: ROOT });
  return out.stdout + out.stderr;
}

export interface StaticServer {
  server: Server;
  url: string;
  /** Paths asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** Serves dir on a free localhost port; with isolate, every response carries COOP/COEP. */
export async function serveStatic(dir: string, isolate: boolean): Promise<StaticServer> {
  const requests: string[] = [];
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    requests.push(path);
    const file = normalize(join(dir, path === "/" ? "index.html" : path));
    const headers: Record<string, string> = isolate
      ? { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" }
      : {};
    try {
      if (!file.startsWith(dir)) throw new Error("outside the served folder");
      const body = await readFile(file);
      res.writeHead(200, { ...headers, "Content-Type": MIME[extname(file)] ?? "application/octet-stream", "Cache-Control": "no-cache" });
      res.end(body);
    } catch {
      res.writeHead(404, headers);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return {
    server,
    url: `http://127.0.0.1:${address.port}/`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Headless Chromium. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS, timeout: 30_000 });
}
