// Speed of this checkout's wasm builds against another commit's, side by side in one process:
// perft (start position to depth 6, Kiwipete to depth 5) and the bench search (assembly/bench.ts)
// of each build, in rounds that alternate which build goes first. Prints the median of each
// and the ratio, this checkout over the other. Times are the process's CPU time (Linux), which
// a busy neighbour on a shared machine disturbs far less than wall-clock time; still, run it
// on a quiet machine for a figure to quote. Node counts must agree (perft exactly; the bench
// where the search is meant to be unchanged, or --allow-new-tree).
//
// The other commit is built in a git worktree under the system's temporary folder (kept for
// the next run), with this checkout's node_modules.
//   npm run bench:compare -- --base REV [--rounds N] [--depth N] [--build classical|nnue]
//       [--allow-new-tree]

import { parseArgs } from "node:util";
import { execFileSync } from "node:child_process";
import { existsSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createInstance, buildUrl } from "../bindings/wasm.js";
import type { EngineBuild, EngineExports } from "../bindings/wasm.js";

const { values } = parseArgs({
  options: {
    base: { type: "string" },
    rounds: { type: "string", default: "7" },
    depth: { type: "string", default: "11" },
    build: { type: "string" },
    "allow-new-tree": { type: "boolean", default: false },
  },
});
if (!values.base) throw new Error("--base REV is required (a commit, branch or tag to compare with)");
const rounds = Number(values.rounds);
const depth = Number(values.depth);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error("--rounds must be a whole number from 1");
if (!Number.isInteger(depth) || depth < 1 || depth > 20) throw new Error("--depth must be a whole number from 1 to 20");
if (values.build !== undefined && values.build !== "classical" && values.build !== "nnue") throw new Error("--build must be classical or nnue");
const builds: EngineBuild[] = values.build ? [values.build as EngineBuild] : ["classical", "nnue"];

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const git = (args: string[], cwd = ROOT): string => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

/** Builds the wasm of commit rev in a worktree of its own; returns the worktree's path. */
function buildBase(rev: string): string {
  const commit = git(["rev-parse", "--verify", `${rev}^{commit}`]);
  const dir = join(tmpdir(), `wasmchess-base-${commit.slice(0, 12)}`);
  if (!existsSync(dir)) git(["worktree", "add", "--detach", dir, commit]);
  if (!existsSync(join(dir, "node_modules"))) symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  if (!existsSync(join(dir, "build", "wasmchess-nnue.wasm"))) {
    console.log(`building ${rev} (${commit.slice(0, 12)}) in ${dir}`);
    execFileSync("npm", ["run", "--silent", "build:wasm"], { cwd: dir, stdio: "inherit" });
    execFileSync("npm", ["run", "--silent", "build:nnue"], { cwd: dir, stdio: "inherit" });
  }
  return dir;
}

const KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

interface Task {
  name: string;
  run(w: EngineExports): bigint;
}
const tasks: Task[] = [
  {
    name: "perft",
    run(w) {
      w.setFen(START);
      const a = w.perft(6);
      w.setFen(KIWIPETE);
      return a + w.perft(5);
    },
  },
  { name: `bench ${depth}`, run: (w) => w.bench(depth) },
];

/** CPU milliseconds of fn, and what it returned. */
function cpu<T>(fn: () => T): [number, T] {
  const start = process.cpuUsage();
  const out = fn();
  const used = process.cpuUsage(start);
  return [(used.user + used.system) / 1000, out];
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const baseDir = buildBase(values.base);
console.log(`this checkout (${git(["rev-parse", "--short", "HEAD"])}${git(["status", "--porcelain", "--untracked-files=no"]) ? ", with changes" : ""}) against ${values.base}, ${rounds} rounds, CPU time\n`);
for (const build of builds) {
  const file = build === "nnue" ? "wasmchess-nnue.wasm" : "wasmchess.wasm";
  const engines = [await createInstance({}, buildUrl(build)), await createInstance({}, pathToFileURL(join(baseDir, "build", file)))];
  for (const task of tasks) {
    const times: number[][] = [[], []];
    const nodes: bigint[] = [0n, 0n];
    for (let r = 0; r < rounds; r++) {
      for (const k of r % 2 === 0 ? [0, 1] : [1, 0]) {
        const [ms, n] = cpu(() => task.run(engines[k]));
        times[k].push(ms);
        nodes[k] = n;
      }
    }
    if (nodes[0] !== nodes[1]) {
      const message = `${build} ${task.name}: ${nodes[0]} nodes here, ${nodes[1]} at ${values.base}`;
      if (task.name === "perft" || !values["allow-new-tree"]) throw new Error(message);
      console.log(`(${message})`);
    }
    const [here, there] = times.map(median);
    console.log(
      `${build.padEnd(9)} ${task.name.padEnd(9)} ${String(nodes[0]).padStart(11)} nodes  ` +
        `here ${here.toFixed(0).padStart(6)} ms  ${values.base} ${there.toFixed(0).padStart(6)} ms  ` +
        `speed here / there ${(there / here).toFixed(3)}`,
    );
  }
}
