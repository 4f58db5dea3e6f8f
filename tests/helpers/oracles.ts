// The external oracles and servers some suites need (native Stockfish, Debian's Chromium,
// Debian's polyglot, Debian's redis-server). A suite whose oracle is missing fails with the command that installs it; a
// developer may skip it on a local run by naming it in WASMCHESS_SKIP_ORACLES (e.g.
// "stockfish", "chromium", or "stockfish,chromium,polyglot"). .ci/run clears that variable, so
// CI always runs them.
import { describe, it } from "vitest";

export const SKIP_ORACLES_ENV = "WASMCHESS_SKIP_ORACLES";
export type Oracle = "stockfish" | "chromium" | "polyglot" | "redis-server";

const INSTALL: Record<Oracle, string> = {
  stockfish: "apt-get install stockfish",
  chromium: "apt-get install chromium",
  polyglot: "apt-get install polyglot",
  "redis-server": "apt-get install redis-server",
};

/** True when WASMCHESS_SKIP_ORACLES names the oracle. */
export function skipAllowed(oracle: Oracle): boolean {
  const names = (process.env[SKIP_ORACLES_ENV] ?? "").split(",").map((s) => s.trim().toLowerCase());
  return names.includes(oracle);
}

/** describe() for a suite that needs an oracle: it runs when the oracle is present; without
 *  it the suite fails, unless WASMCHESS_SKIP_ORACLES names the oracle (then it is skipped). */
export function describeWithOracle(oracle: Oracle, present: boolean, title: string, body: () => void): void {
  if (present) {
    describe(title, body);
  } else if (skipAllowed(oracle)) {
    console.warn(`${title}: skipped, ${oracle} is absent and ${SKIP_ORACLES_ENV} names it`);
    describe.skip(`${title} (skipped: no ${oracle}, ${SKIP_ORACLES_ENV})`, body);
  } else {
    describe(title, () => {
      it(`needs ${oracle}`, () => {
        throw new Error(
          `${oracle} is not installed (${INSTALL[oracle]}). This suite is an oracle and fails without it; ` +
            `to skip it on a local run, set ${SKIP_ORACLES_ENV}=${oracle}.`,
        );
      });
    });
  }
}
