#!/usr/bin/env node
// The UCI engine on stdin/stdout (the package's bin and `npm start`). The protocol runs on
// this thread; the search runs in a worker thread, so input is always read.

import { createInterface } from "node:readline";
import { Engine } from "./engine.js";
import { UciSession } from "./uci.js";

const engine = await Engine.create();
const session = new UciSession(engine, (line) => process.stdout.write(line + "\n"));
const input = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });

async function quit(): Promise<void> {
  input.close();
  await session.quit();
  process.exit(0);
}

input.on("line", (line) => {
  if (!session.handle(line)) void quit();
});
input.on("close", () => void quit());
