// `wasmchess perft`: perft of a position from the command line, hashed (--hash MB) and on
// several threads (--threads N), with a progress bar on a terminal (the positions two plies
// down counted, the leaves per second, the time left) and, last, one line of JSON on stdout
// for scripts: {"fen":...,"depth":...,"nodes":...,"seconds":...} (with --divide, each root
// move's count before it, as `go perft` prints them). Counts are exact past 2^53: "nodes" is
// written as the integer's digits. --verify counts the tree a second time with other Zobrist
// keys (and perft lane keys) and compares the two runs root move by root move ("seconds" is
// then both runs' time, and "verified" is true).

import { SingleBar } from "cli-progress";
import { Core, START_FEN } from "./core.js";
import type { DivideEntry } from "./core.js";

export interface PerftCommand {
  depth: number;
  fen: string;
  hash?: number;
  threads: number;
  divide: boolean;
  chess960: boolean;
  verify: boolean;
  /** Draw the progress bar (a terminal on stderr). */
  progress: boolean;
}

/** "1.2 G" style counts for a progress bar. */
export function short(n: number): string {
  const units = ["", " k", " M", " G", " T", " P"];
  let i = 0;
  while (n >= 1000 && i < units.length - 1) {
    n /= 1000;
    i++;
  }
  return `${n < 10 && i > 0 ? n.toFixed(2) : n < 100 && i > 0 ? n.toFixed(1) : Math.round(n)}${units[i]}`;
}

/** The seed of --verify's second run's keys (any seed but 0, the built-in keys). */
export const VERIFY_SEED = 0x9e3779b9;

/** Runs the perft and prints its result; throws (with a one-line message) on bad input or,
 *  with verify, when the two runs differ. */
export async function runPerft(cmd: PerftCommand, out: (line: string) => void = (l) => process.stdout.write(l + "\n")): Promise<void> {
  const core = await Core.create();
  try {
    core.setChess960(cmd.chess960);
    core.setPosition(cmd.fen === "startpos" ? START_FEN : cmd.fen);
    if (cmd.threads > 1) await core.setThreads(cmd.threads);
    const start = performance.now();
    const first = count(core, cmd, cmd.verify ? "run 1/2 " : "");
    let verified: boolean | undefined;
    if (cmd.verify) {
      core.setKeySeed(VERIFY_SEED);
      const second = count(core, cmd, "run 2/2 ");
      const differing = first.find((e, i) => e.move !== second[i]?.move || e.nodes !== second[i]?.nodes);
      if (differing) {
        const other = second.find((e) => e.move === differing.move);
        throw new Error(`perft --verify: the two runs differ below ${differing.move}: ${differing.nodes} with the built-in keys, ${other?.nodes ?? "no count"} with seed ${VERIFY_SEED}`);
      }
      verified = true;
    }
    const seconds = (performance.now() - start) / 1000;
    if (cmd.divide) for (const e of first) out(`${e.move}: ${e.nodes}`);
    const nodes = first.reduce((a, e) => a + e.nodes, 0n);
    // JSON.stringify cannot write a bigint: the count goes in as its digits, still JSON.
    const json = JSON.stringify({
      fen: core.fen(), depth: cmd.depth, nodes: "NODES", seconds: Number(seconds.toFixed(3)), threads: cmd.threads, hashMb: cmd.hash ?? 0, verified,
    });
    out(json.replace('"NODES"', nodes.toString()));
  } finally {
    core.dispose();
  }
}

/** One run of the perft, divided by root moves, with its progress bar when asked for. */
function count(core: Core, cmd: PerftCommand, label: string): DivideEntry[] {
  const bar = cmd.progress
    ? new SingleBar({
        format: `${label}{bar} {percentage}% | {value}/{total} positions | {nodes} leaves, {nps} leaves/s | {duration_formatted} elapsed, ETA {eta_formatted}`,
        hideCursor: true,
        clearOnComplete: true,
        etaBuffer: 50,
        stream: process.stderr,
      })
    : undefined;
  const start = performance.now();
  let started = false;
  const onProgress = (finished: number, units: number, nodes: bigint) => {
    if (!bar) return;
    const seconds = (performance.now() - start) / 1000;
    const payload = { nodes: short(Number(nodes)), nps: short(seconds > 0 ? Number(nodes) / seconds : 0) };
    if (!started) {
      bar.start(units, finished, payload);
      started = true;
    } else bar.update(finished, payload);
  };
  try {
    // Divide is perft by root move: the same work, and --verify compares move by move.
    return core.divide(cmd.depth, { hashMb: cmd.hash, onProgress });
  } finally {
    bar?.stop();
  }
}
