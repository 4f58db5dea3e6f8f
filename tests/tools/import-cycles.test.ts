// No import circles: the project's TypeScript imports one way (tools/import-cycles.ts walks
// every import, type import and package.json "imports" name), and the checker finds a planted
// circle, also one made of type imports only.
import { describe, it, expect, afterAll } from "vitest";
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { importCycles, importGraph, SOURCE_FOLDERS } from "../../tools/import-cycles.js";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A project in a temporary folder with these files (and a package.json). */
function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "wasmchess-cycles-"));
  dirs.push(root);
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "p", imports: { "#host": { browser: "./build/host-b.js", default: "./build/host-n.js" } } }));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, ".."), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

describe("import circles", () => {
  it("there are none in the project's sources", () => {
    expect(importCycles()).toEqual([]);
  });

  it("nothing outside tests/ imports a file of tests/", () => {
    const root = fileURLToPath(new URL("../..", import.meta.url));
    const inTests = (file: string) => relative(root, file).startsWith("tests" + sep);
    const wrong: string[] = [];
    for (const [file, imports] of importGraph(SOURCE_FOLDERS)) {
      if (inTests(file)) continue;
      for (const target of imports) if (inTests(target)) wrong.push(`${relative(root, file)} -> ${relative(root, target)}`);
    }
    expect(wrong).toEqual([]);
  });

  it("a circle through a type import counts (a commented import does not), reported with its group", () => {
    const root = project({
      "bindings/a.ts": 'import { b } from "./b.js";\nexport const a = b;\n',
      "bindings/b.ts": 'import type { C } from "./c.js";\nexport const b = 1 as unknown as C;\n',
      "bindings/c.ts": 'import type { A } from "./a.js";\nexport type C = A;\nexport type A2 = typeof import("./d.js");\n',
      "bindings/d.ts": '// import { a } from "./a.js"; (a comment: no import)\nexport const d = 1;\n',
    });
    expect(importCycles(["bindings"], root)).toEqual([
      { files: ["bindings/a.ts", "bindings/b.ts", "bindings/c.ts"], circle: ["bindings/a.ts", "bindings/b.ts", "bindings/c.ts"] },
    ]);
  });

  it("follows package.json imports (#name) from build/ back to the bindings/ source", () => {
    const root = project({
      "bindings/client.ts": 'import { spawn } from "#host";\nexport const client = spawn;\n',
      "bindings/host-n.ts": 'import type { client } from "./client.js";\nexport const spawn = 1 as unknown as typeof client;\n',
      "bindings/host-b.ts": "export const spawn = 1;\n",
    });
    expect(importCycles(["bindings"], root).map((c) => c.circle)).toEqual([["bindings/client.ts", "bindings/host-n.ts"]]);
  });
});
