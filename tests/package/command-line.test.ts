// The package's command line (build/cli.js, the `wasmchess` bin) as a real process: --help
// and --version, the perft command (plain, hashed, on threads, with divide; a line of JSON
// last; the progress bar on a terminal) and its one-line refusals of bad input. The UCI
// command, the default, has tests/uci.
import { describe, it, expect } from "vitest";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { readFileSync } from "node:fs";

const CLI = fileURLToPath(new URL("../../build/cli.js", import.meta.url));
const KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

function run(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", timeout: 60_000, input: "" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("the wasmchess command line", () => {
  it("answers --help with its commands and --version with the package's version", () => {
    const help = run("--help");
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: wasmchess /);
    expect(help.stdout).toMatch(/^\s+uci \[options\]\s+the UCI engine on stdin\/stdout \(the default command\)/m);
    expect(help.stdout).toMatch(/^\s+perft \[options\]\s+count the leaves/m);
    expect(help.stdout).toMatch(/^\s+worker \[options\]\s+a worker of the services' jobs on Redis, until interrupted$/m);
    expect(help.stdout).toMatch(/^\s+service \[options\]\s+the services' coordinator, HTTP API and dashboard$/m);
    expect(run("worker", "--help").stdout).toMatch(/--kinds <list>/);
    expect(run("perft", "--help").stdout).toMatch(/--redis <url>/);
    expect(run("perft", "--help").stdout).toMatch(/--hash <mb>/);
    const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(run("--version")).toMatchObject({ status: 0, stdout: `${version}\n` });
  });

  it("counts perft and prints a line of JSON last", () => {
    const r = run("perft", "--depth", "4", "--fen", KIWIPETE);
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout.trim().split("\n").at(-1)!);
    expect(json).toMatchObject({ fen: KIWIPETE, depth: 4, nodes: 4085603, threads: 1, hashMb: 0 });
    expect(json.seconds).toBeGreaterThan(0);
    expect(r.stderr).toBe(""); // no terminal: no progress bar
  });

  it("hashed, on two threads, with divide: each root move's count, then the same total", () => {
    const r = run("perft", "-d", "4", "-f", KIWIPETE, "--hash", "8", "--threads", "2", "--divide");
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split("\n");
    const moves = lines.slice(0, -1).map((l) => /^([a-h][1-8][a-h][1-8][nbrq]?): (\d+)$/.exec(l)!);
    expect(moves.length).toBe(48);
    expect(moves.reduce((s, m) => s + BigInt(m[2]), 0n)).toBe(4085603n);
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ nodes: 4085603, threads: 2, hashMb: 8 });
  });

  it("--verify counts twice, the second time with other keys, and says so", () => {
    const r = run("perft", "-d", "4", "-f", KIWIPETE, "--hash", "4", "--verify");
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout.trim())).toMatchObject({ nodes: 4085603, verified: true });
  });

  it("refuses bad input with one line and a non-zero status", () => {
    const cases: [string[], number, RegExp][] = [
      [["perft", "--depth", "0"], 2, /^wasmchess: option '-d, --depth <n>' argument '0' is invalid\. --depth is an integer from 1 to 20\.$/],
      [["perft"], 2, /^wasmchess: required option '-d, --depth <n>' not specified$/],
      [["perft", "-d", "3", "--hash", "99999"], 2, /--hash is an integer from 1 to 2048/],
      [["perft", "-d", "3", "--threads", "two"], 2, /--threads is an integer from 1 to 256/],
      [["perft", "-d", "3", "--fen", "8/8/8 w - - 0 1"], 1, /^wasmchess: invalid FEN/],
      [["perft", "-d", "3", "--bogus"], 2, /^wasmchess: unknown option '--bogus'/],
      [["--tuning"], 2, /^wasmchess: unknown option '--tuning' \(Did you mean --tune\?\)$/],
      [["prft", "-d", "3"], 2, /^wasmchess: /],
    ];
    for (const [args, status, message] of cases) {
      const r = run(...args);
      expect(r.status, args.join(" ")).toBe(status);
      expect(r.stderr.trim().split("\n"), args.join(" ")).toHaveLength(1);
      expect(r.stderr.trim(), args.join(" ")).toMatch(message);
      expect(r.stdout, args.join(" ")).toBe("");
    }
  });

  it("draws a progress bar on a terminal (stderr), and still ends with the JSON line", () => {
    // script(1) (util-linux, in Debian's essential bsdutils) gives the command a pseudo-terminal.
    const r = spawnSync("script", ["-qec", `${process.execPath} ${CLI} perft -d 5 -f '${KIWIPETE}'`, "/dev/null"], { encoding: "utf8", timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\d+\/2039 positions \| [\d.]+( [kMGTP])? leaves, [\d.]+( [kMGTP])? leaves\/s \| .* elapsed, ETA /);
    expect(r.stdout).toMatch(/"nodes":193690690/);
  });
});
