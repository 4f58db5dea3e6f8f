// CPU time of a process (all its threads), from Linux's /proc/<pid>/task/*/schedstat, in
// milliseconds: on a shared machine a busy neighbour stretches wall time, not CPU time.
// undefined where /proc is not available.

import { readdirSync, readFileSync } from "node:fs";

/** CPU time used so far by the process pid ("self" for this one), in ms. */
export function processCpuMs(pid: number | "self"): number | undefined {
  try {
    let ns = 0n;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += BigInt(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
      } catch {
        // The thread ended between the listing and the read.
      }
    }
    return Number(ns) / 1e6;
  } catch {
    return undefined;
  }
}
