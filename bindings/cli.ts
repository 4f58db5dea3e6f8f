#!/usr/bin/env node
// The UCI engine on stdin/stdout (the package's bin and `npm start`).

import { createInterface } from "node:readline";
import { Core } from "./core.js";
import { UciSession } from "./uci.js";

const core = await Core.create();
const session = new UciSession(core, (line) => process.stdout.write(line + "\n"));
const input = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
input.on("line", (line) => {
  if (!session.handle(line)) process.exit(0);
});
input.on("close", () => process.exit(0));
