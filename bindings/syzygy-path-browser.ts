// SyzygyPath in a browser (#syzygy-path): a page has no directories to read; it fetches the
// table files and gives their bytes (Engine.loadTablebases).

import type { TableFile } from "./table-file.js";

export function readSyzygyPath(syzygyPath: string): { files: TableFile[]; errors: string[] } {
  if (syzygyPath === "" || syzygyPath === "<empty>") return { files: [], errors: [] };
  throw new Error("SyzygyPath needs a file system (Node); in a browser, fetch the table files and give their bytes to loadTablebases");
}
