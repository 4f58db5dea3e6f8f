// The --help text of a bench CLI: the `//` comment block at the top of its own source file.

import { readFileSync } from "node:fs";

/** The leading comment lines of the module at `url` (pass `import.meta.url`), unprefixed. */
export function usage(url: string | URL): string {
  const text = readFileSync(new URL(url), "utf8").split("\n");
  const end = text.findIndex((l) => !l.startsWith("//"));
  return text.slice(0, end).map((l) => l.replace(/^\/\/ ?/, "")).join("\n");
}
