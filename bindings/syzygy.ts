// Syzygy tables for an engine instance: the files it may read (TableFile: a name, a size and a
// way to read bytes at an offset), registered with the instance, and the instance's
// hostTbRead import, which serves the blocks the engine asks for, never whole files. In Node
// the files of a SyzygyPath (directories separated by ':', or ';' on Windows, as Stockfish
// reads it) are opened on first read (#syzygy-path); anywhere, files can be given as bytes in
// memory (a page fetches the 3-4-piece set, 4.3 MB, and hands it over).

import { readSyzygyPath } from "#syzygy-path";
import type { EngineExports } from "./wasm.js";
import type { TableFile } from "./table-file.js";

export { tableFilesFromBytes } from "./table-file.js";
export type { TableFile, TableBytes } from "./table-file.js";

/** The engine's tablebase exports, as SyzygyFiles uses them. */
type TablebaseExports = Pick<EngineExports, "memory" | "tbAddFile" | "tbError" | "tbClear" | "tbMaxPieces">;

/** What registering table files found. */
export interface SyzygyLoad {
  /** Files registered. */
  files: number;
  /** Most pieces of a registered WDL table (0: none). */
  maxPieces: number;
  /** Files refused or directories not read, each with the reason. */
  errors: string[];
}

/** The table files of one engine instance: give `read` as its hostTbRead import, then
 *  `load(instance, syzygyPath)` or `register(instance, files)`. */
export class SyzygyFiles {
  private files: TableFile[] = [];
  private wasm: TablebaseExports | undefined;

  /** The hostTbRead import: reads length bytes at offset of file `file` into the engine's
   *  memory at dest; the bytes read, or -1. */
  readonly read = (file: number, offset: number, dest: number, length: number): number => {
    const f = this.files[file];
    if (f === undefined || this.wasm === undefined || length < 0) return -1;
    try {
      return f.read(offset, new Uint8Array(this.wasm.memory.buffer, dest, length));
    } catch {
      return -1;
    }
  };

  /** Registers the files with the instance (whose hostTbRead is `read`), after forgetting any
   *  registered before. */
  register(wasm: TablebaseExports, files: readonly TableFile[], errors: string[] = []): SyzygyLoad {
    this.close();
    this.files = [];
    this.wasm = wasm;
    wasm.tbClear();
    let count = 0;
    for (const f of files) {
      const id = wasm.tbAddFile(f.name, f.size);
      if (id < 0) {
        errors.push(wasm.tbError());
        continue;
      }
      this.files[id] = f;
      count++;
    }
    return { files: count, maxPieces: wasm.tbMaxPieces(), errors };
  }

  /** Registers every *.rtbw and *.rtbz file of the directories of syzygyPath (Node; "" or
   *  "<empty>" registers none). */
  load(wasm: TablebaseExports, syzygyPath: string): SyzygyLoad {
    const { files, errors } = readSyzygyPath(syzygyPath);
    return this.register(wasm, files, errors);
  }

  /** Closes the files opened so far (they are opened again when read). */
  close(): void {
    for (const f of this.files) f?.close?.();
  }
}
