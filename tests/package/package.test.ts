// The package as its users get it: `npm pack`, the tarball installed offline into a fresh app
// directory (no build runs there), the README's JavaScript examples run in that app with the
// lines their `// →` comments promise, the bin, and the API reference covering every export.
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, writeFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, delimiter, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

let dir: string;
let app: string;
let packed: { filename: string; files: { path: string }[] };

/** The PATH without node_modules/.bin directories: a dev dependency brings an old npm 6
 *  there (as-pect, through npm-install-peers), and users run their own npm. */
const PATH = (process.env.PATH ?? "")
  .split(delimiter)
  .filter((p) => !p.includes(`node_modules${sep}.bin`))
  .join(delimiter);

/** npm preferring its cache: the package itself comes from the packed file, its dependencies
 *  (commander and cli-progress, for the command line, and theirs) from the user's npm cache,
 *  where installing this checkout has put most of them, or else from the npm registry (as
 *  for a user installing the package). */
function runNpm(args: string[], cwd: string): string {
  const run = spawnSync(npm, args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env, PATH, npm_config_prefer_offline: "true",
      npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false",
    },
  });
  if (run.status !== 0) throw new Error(`npm ${args.join(" ")} failed (${run.status}):\n${run.stderr}`);
  return run.stdout;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "wasmchess-pack-"));
  // npm test has just built everything; packing again must not need the toolchain.
  const out = runNpm(["pack", "--ignore-scripts", "--json", "--pack-destination", dir], ROOT);
  packed = JSON.parse(out.slice(out.indexOf("[")))[0];
  app = join(dir, "app");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "readme-app", private: true, type: "module" }));
  runNpm(["install", join(dir, packed.filename)], app);
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the npm package", () => {
  it("holds what runs and nothing else: the bindings, the services, the magic build's wasm, the docs", () => {
    const bindings = readdirSync(join(ROOT, "bindings"))
      .filter((f) => f.endsWith(".ts"))
      .map((f) => f.slice(0, -3));
    // The services are bundled (tools/build-services.ts): the files the command line and
    // BullMQ load by URL, the chunks they share, and the dashboard's page, script and style.
    const entries = [
      ...["perft/coordinator", "perft/processor", "data/processor", "matches/processor", "analysis/processor", "worker", "service"].map((f) => `build/services/${f}.js`),
      ...["index.html", "dashboard.js", "dashboard.css"].map((f) => `build/services/dashboard/${f}`),
    ];
    const services = packed.files.map((f) => f.path).filter((p) => p.startsWith("build/services/"));
    expect(services).toEqual(expect.arrayContaining(entries));
    expect(services.filter((p) => !entries.includes(p) && !/^build\/services\/chunks\/[\w-]+\.js$/.test(p))).toEqual([]);
    const expected = [
      ...bindings.flatMap((b) => [`build/${b}.js`, `build/${b}.d.ts`]),
      ...services,
      "build/wasmchess.js", "build/wasmchess.d.ts", "build/wasmchess.wasm", "build/wasmchess-nnue.wasm", "build/wasmchess-table.wasm",
      "docs/api.md", "README.md", "LICENSE", "package.json",
    ].sort();
    expect(packed.files.map((f) => f.path).sort()).toEqual(expected);
  });

  it("is ready for the registry and builds nothing when installed", () => {
    const manifest = JSON.parse(readFileSync(join(app, "node_modules/wasmchess/package.json"), "utf8"));
    expect(manifest.private).toBeUndefined();
    expect(manifest.license).toBe("MIT");
    expect(manifest.keywords).toContain("chess");
    // The command line's two (commander, cli-progress) and the services' (bullmq, ioredis, the
    // HTTP framework hono, zod), imported by those modules only: the library, and so a browser
    // bundle, has none.
    expect(Object.keys(manifest.dependencies ?? {}).sort()).toEqual(["@hono/node-server", "bullmq", "cli-progress", "commander", "hono", "ioredis", "uplot", "zod"]);
    const built = join(app, "node_modules/wasmchess/build");
    const files = (readdirSync(built, { recursive: true }) as string[]).filter((f) => f.endsWith(".js"));
    const importing = (names: string) => files.filter((f) => new RegExp(`from "(${names})`).test(readFileSync(join(built, f), "utf8"))).sort();
    expect(importing("commander|cli-progress").filter((f) => !f.startsWith("services/"))).toEqual(["cli-perft.js", "cli.js"]);
    const services = importing("bullmq|ioredis|hono|@hono/node-server|zod");
    expect(services.length).toBeGreaterThan(0);
    expect(services.filter((f) => !f.startsWith("services/"))).toEqual([]);
    for (const hook of ["preinstall", "install", "postinstall"]) expect(manifest.scripts?.[hook]).toBeUndefined();
    // The clone's prepare (the build) does nothing in an installed copy, even if it is run.
    expect(existsSync(join(app, "node_modules/assemblyscript"))).toBe(false);
    const wasm = readFileSync(join(app, "node_modules/wasmchess/build/wasmchess.wasm"));
    runNpm(["run", "prepare"], join(app, "node_modules/wasmchess"));
    expect(readFileSync(join(app, "node_modules/wasmchess/build/wasmchess.wasm")).equals(wasm)).toBe(true);
  });

  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const examples = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);

  it("the README has JavaScript examples with promised output", () => {
    expect(examples.length).toBeGreaterThanOrEqual(6);
    for (const code of examples) expect(code).toMatch(/from "wasmchess"/);
  });

  it.each(examples.map((code, i) => [i + 1, code] as [number, string]))("README example %i prints what it says", (i, code) => {
    const file = join(app, `example-${i}.mjs`);
    writeFileSync(file, code);
    const run = spawnSync(process.execPath, [file], { cwd: app, encoding: "utf8", timeout: 60_000 });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const printed = run.stdout.split("\n");
    // Each `// → text` comment is a line the example prints, in this order.
    const promised = [...code.matchAll(/\/\/ →(?: (.*))?$/gm)].map((m) => m[1] ?? "");
    let at = 0;
    for (const line of promised) {
      const found = printed.indexOf(line, at);
      expect(found, `example ${i} should print ${JSON.stringify(line)}; it printed:\n${run.stdout}`).toBeGreaterThanOrEqual(0);
      at = found + 1;
    }
  });

  it("the bin speaks UCI", () => {
    const run = spawnSync(join(app, "node_modules/.bin/wasmchess"), [], { input: "uci\nisready\nquit\n", encoding: "utf8", timeout: 30_000 });
    expect(run.status).toBe(0);
    expect(run.stdout.split("\n")).toEqual(expect.arrayContaining(["uciok", "readyok"]));
  });

  it("docs/api.md names every export and every public method", async () => {
    const api = readFileSync(join(ROOT, "docs/api.md"), "utf8");
    const pkg = await import(join(app, "node_modules/wasmchess/build/index.js"));
    for (const name of Object.keys(pkg)) expect(api, name).toContain(`\`${name}`);
    const typeExports = readFileSync(join(ROOT, "build/index.d.ts"), "utf8").matchAll(/export type \{([^}]*)\}/g);
    for (const [, names] of typeExports) for (const name of names.split(",").map((n) => n.trim()).filter(Boolean)) expect(api, name).toContain(name);
    for (const cls of ["engine", "game", "core"]) {
      const dts = readFileSync(join(ROOT, `build/${cls}.d.ts`), "utf8");
      for (const [, name] of dts.matchAll(/^ {4}(?:static |get )?([a-zA-Z]\w*)[(<:]/gm)) {
        if (name === "constructor") continue; // documented as `new X(...)`
        expect(api, `${cls}.${name}`).toMatch(new RegExp(`\\b${name}\\b`));
      }
    }
  });
});
