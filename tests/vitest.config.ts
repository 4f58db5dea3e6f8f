// vitest configuration: the suites of tests/ by layer (package, uci, browser, learn, match, tools).
import { configDefaults, defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";
import { availableParallelism } from "node:os";

// Files that time the engine's answers (stop within 50 ms, readyok during a search, the
// threads' node counts): they run alone, after the rest, since a second file's processes on a
// two-core machine delay a stop by hundreds of milliseconds (330 ms measured in one CI run).
const TIMED = [
  "tests/uci/search.test.ts",
  "tests/package/engine.test.ts",
  "tests/package/threads.test.ts",
  "tests/browser/example.test.ts",
];

export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "parallel",
          include: ["tests/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...TIMED],
          // Most suites wait on processes (engines, services, a browser), so two files at once
          // pay even on two cores, where vitest's default would run one.
          maxWorkers: Math.max(2, availableParallelism() - 1),
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: "alone", include: TIMED, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
