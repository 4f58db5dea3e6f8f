// Syzygy tables in Node: finds the .rtbw and .rtbz files of a SyzygyPath (directories
// separated by ':', or ';' on Windows, as Stockfish reads it), registers them with an engine
// instance and serves the instance's hostTbRead: each file is opened when the engine first
// reads it and read in the blocks the engine asks for, never whole.

import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { EngineExports } from "./wasm.js";

/** The engine's tablebase exports, as SyzygyFiles uses them. */
type TablebaseExports = Pick<EngineExports, "memory" | "tbAddFile" | "tbError" | "tbClear">;

/** What registering a SyzygyPath found. */
export interface SyzygyLoad {
  /** Files registered. */
  files: number;
  /** Files refused, each with the engine's reason. */
  errors: string[];
}

/** The table files of one engine instance: give `read` as its hostTbRead import, then
 *  `load(instance, path)`. */
export class SyzygyFiles {
  private paths: string[] = [];
  private fds: (number | undefined)[] = [];
  private wasm: TablebaseExports | undefined;

  /** The hostTbRead import: reads length bytes at offset of file `file` into the engine's
   *  memory at dest; the bytes read, or -1. */
  readonly read = (file: number, offset: number, dest: number, length: number): number => {
    const path = this.paths[file];
    if (path === undefined || this.wasm === undefined || length < 0) return -1;
    try {
      let fd = this.fds[file];
      if (fd === undefined) fd = this.fds[file] = openSync(path, "r");
      const target = new Uint8Array(this.wasm.memory.buffer, dest, length);
      let done = 0;
      while (done < length) {
        const n = readSync(fd, target, done, length - done, offset + done);
        if (n <= 0) break;
        done += n;
      }
      return done;
    } catch {
      return -1;
    }
  };

  /** Registers every *.rtbw and *.rtbz file of the directories of syzygyPath with the
   *  instance (whose hostTbRead is `read`), after forgetting any registered before. */
  load(wasm: TablebaseExports, syzygyPath: string): SyzygyLoad {
    this.close();
    this.paths = [];
    this.wasm = wasm;
    wasm.tbClear();
    const errors: string[] = [];
    let files = 0;
    for (const dir of syzygyPath.split(delimiter).filter((d) => d !== "" && d !== "<empty>")) {
      let names: string[];
      try {
        names = readdirSync(dir).sort();
      } catch (err) {
        errors.push(`${dir}: ${(err as Error).message}`);
        continue;
      }
      for (const name of names) {
        if (!name.endsWith(".rtbw") && !name.endsWith(".rtbz")) continue;
        const path = join(dir, name);
        const id = wasm.tbAddFile(name, statSync(path).size);
        if (id < 0) {
          errors.push(wasm.tbError());
          continue;
        }
        this.paths[id] = path;
        files++;
      }
    }
    return { files, errors };
  }

  /** Closes the files opened so far (they are opened again when read). */
  close(): void {
    for (const fd of this.fds) if (fd !== undefined) closeSync(fd);
    this.fds = [];
  }
}
