// Finds import circles among the project's TypeScript files: every import, export-from, type
// import and dynamic import of a relative path, of a package.json "imports" name (#load-wasm)
// or of the package itself ("wasmchess"), the last two followed from build/ back to the
// bindings/ source. Prints each circle and exits 1 when there is one (tests/tools/import-cycles.test.ts
// runs it in npm test).
//
//   npx tsx tools/import-cycles.ts [folder ...]    (default: the project's source folders)

import { readFileSync, readdirSync, existsSync, statSync } from "node:fs";
import { join, dirname, resolve, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The folders the project's own TypeScript lives in. */
export const SOURCE_FOLDERS = ["assembly", "bindings", "app", "learn", "tools", "match", "bench", "tests", "examples"];

const SKIP = new Set(["node_modules", "build", "dist"]);

/** The .ts files below dir (node_modules and build outputs left out). */
function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP.has(entry.name)) out.push(...sourceFiles(path));
    } else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** The bindings/ source of a build/ output named by package.json ("./build/x.js"). */
function sourceOfOutput(root: string, target: string): string | undefined {
  const m = /^\.\/build\/(.+)\.js$/.exec(target);
  const file = m && join(root, "bindings", `${m[1]}.ts`);
  return file && existsSync(file) ? file : undefined;
}

/** Every string a package.json "imports" or "exports" entry can lead to. */
function targets(entry: unknown): string[] {
  if (typeof entry === "string") return [entry];
  if (entry && typeof entry === "object") return Object.values(entry).flatMap(targets);
  return [];
}

/** Resolves import specifiers the way the project's builds do, to source files. */
function resolver(root: string): (from: string, specifier: string) => string[] {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    name: string;
    imports?: Record<string, unknown>;
    exports?: Record<string, unknown>;
  };
  const mapped = (entry: unknown) => targets(entry).flatMap((t) => sourceOfOutput(root, t) ?? []);
  return (from, specifier) => {
    if (specifier.startsWith("#")) return mapped(manifest.imports?.[specifier]);
    if (specifier === manifest.name || specifier.startsWith(`${manifest.name}/`)) {
      return mapped(manifest.exports?.[`.${specifier.slice(manifest.name.length)}`]);
    }
    if (!specifier.startsWith(".")) return [];
    const base = resolve(dirname(from), specifier);
    const candidates = [base.replace(/\.js$/, ".ts"), base, `${base}.ts`, join(base, "index.ts")];
    const found = candidates.find((c) => c.endsWith(".ts") && existsSync(c) && statSync(c).isFile());
    return found ? [found] : [];
  };
}

/** The import graph of the .ts files below the folders (relative to root): file to files. */
export function importGraph(folders: readonly string[], root = ROOT): Map<string, string[]> {
  const resolveImport = resolver(root);
  const graph = new Map<string, string[]>();
  for (const file of folders.flatMap((f) => sourceFiles(join(root, f)))) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    graph.set(file, [...new Set(importedFiles.flatMap((i) => resolveImport(file, i.fileName)))]);
  }
  return graph;
}

/** The groups of files that reach one another through imports (Tarjan's strongly connected
 *  components; a single file only when it imports itself). */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(group.reverse());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** A shortest circle through the group's first file, within the group (breadth first). */
function circleThrough(graph: ReadonlyMap<string, readonly string[]>, group: readonly string[]): string[] {
  const start = group[0];
  const members = new Set(group);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const next of graph.get(queue[i]) ?? []) {
      if (next === start) {
        const path = [queue[i]];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0])!);
        return path;
      }
      if (members.has(next) && !cameFrom.has(next)) {
        cameFrom.set(next, queue[i]);
        queue.push(next);
      }
    }
  }
  return [start];
}

/** The import circles among the .ts files below the folders, paths relative to root: for
 *  each group of files that reach one another, the group and one circle through it. */
export function importCycles(folders: readonly string[] = SOURCE_FOLDERS, root = ROOT): { files: string[]; circle: string[] }[] {
  const graph = importGraph(folders, root);
  const rel = (files: readonly string[]) => files.map((f) => relative(root, f));
  return cycles(graph).map((group) => ({ files: rel(group), circle: rel(circleThrough(graph, group)) }));
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const folders = process.argv.length > 2 ? process.argv.slice(2) : SOURCE_FOLDERS;
  const found = importCycles(folders);
  for (const { files, circle } of found) {
    console.log(`circle: ${[...circle, circle[0]].join(" -> ")}${files.length > circle.length ? ` (files that reach one another: ${files.join(", ")})` : ""}`);
  }
  console.log(found.length ? `import circles: ${found.length}` : `no import circle in ${folders.join(", ")}`);
  process.exitCode = found.length ? 1 : 0;
}
