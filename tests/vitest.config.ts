// vitest configuration: the suites of tests/ by layer (package, uci, browser, learn, match, tools).
import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";
import { availableParallelism } from "node:os";

export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    include: ["tests/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Most suites wait on processes (engines, services, a browser), so two files at once pay
    // even on two cores, where vitest's default would run one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
