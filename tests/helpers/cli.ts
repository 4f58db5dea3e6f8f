// Helpers for driving the real CLI process in tests.
import { fileURLToPath } from "node:url";
import { UciProcess } from "../../match/uci-process.js";

export const CLI = fileURLToPath(new URL("../../build/cli.js", import.meta.url));

/** Starts the CLI and records every line it prints. */
export function startCli(): { engine: UciProcess; out: string[] } {
  const engine = new UciProcess(process.execPath, [CLI]);
  const out: string[] = [];
  engine.listeners.push((l) => out.push(l));
  return { engine, out };
}

/** Resolves with the exit code when the process exits. */
export function exitCode(engine: UciProcess): Promise<number | null> {
  return new Promise((resolve) => engine["child"].on("exit", (code: number | null) => resolve(code)));
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
