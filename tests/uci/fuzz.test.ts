// UCI fuzzing, the short run: a few thousand hostile lines (valid commands with wrong
// arguments, huge numbers, truncations, mutations, binary junk), a go/stop storm and a
// position with 10,000 moves, sent to the real CLI in bursts. After each burst the process
// must be alive, answer isready, and have printed exactly one bestmove per go. The long run
// is `npm run fuzz -- --lines 100000`. FUZZ_SEED picks other input. A second, shorter run
// searches on two threads.
import { describe, it, expect } from "vitest";
import { fileURLToPath } from "node:url";
import { fuzz } from "../fuzz/harness.js";

const CLI = fileURLToPath(new URL("../../build/cli.js", import.meta.url));
const SEED = Number(process.env.FUZZ_SEED ?? 13);

describe("UCI fuzzing", () => {
  for (const threads of [1, 2]) {
    it(`survives hostile input on ${threads} thread${threads > 1 ? "s" : ""} (seed ${SEED}): no crash, no hang, one bestmove per go`, async () => {
      const report = await fuzz({
        lines: threads === 1 ? 3000 : 2000,
        seed: SEED + threads - 1,
        command: process.execPath,
        args: [CLI],
        firstBursts: ["storm", "long", "mixed"],
        stormRate: 0,
        longRate: 0,
        stormLines: [1500, 1500],
        burstLines: [20, 300],
        maxHashMb: 64,
        // Any valid Threads the input sets becomes this run's count: a mutation to Threads 200
        // would spend the short run starting helper threads.
        threads,
        checkpointCpuMs: 10_000,
        perLineCpuMs: 5,
        stallMs: 30_000,
        stopAtFirstFinding: true,
      });
      expect(report.findings).toEqual([]);
      expect(report.storms).toBe(1);
      expect(report.longPositions).toBe(1);
      expect(report.lines).toBe(threads === 1 ? 3000 : 2000);
      expect(report.bestmoves).toBe(report.gos);
      expect(report.gos).toBeGreaterThan(threads === 1 ? 500 : 200);
    });
  }
});
