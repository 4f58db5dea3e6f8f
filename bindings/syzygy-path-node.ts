// The table files of a SyzygyPath in Node (#syzygy-path): every *.rtbw and *.rtbz file of its
// directories (':'-separated, ';' on Windows), each opened when the engine first reads it.

import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { TableFile } from "./table-file.js";

/** A table file on disk, opened on first read. */
function diskFile(path: string, name: string, size: number): TableFile {
  let fd: number | undefined;
  return {
    name,
    size,
    read(offset, target) {
      if (fd === undefined) fd = openSync(path, "r");
      let done = 0;
      while (done < target.length) {
        const n = readSync(fd, target, done, target.length - done, offset + done);
        if (n <= 0) break;
        done += n;
      }
      return done;
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

/** The table files of the directories of syzygyPath ("" and "<empty>": none), and a reason
 *  for each directory that could not be read. */
export function readSyzygyPath(syzygyPath: string): { files: TableFile[]; errors: string[] } {
  const files: TableFile[] = [];
  const errors: string[] = [];
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
      try {
        files.push(diskFile(path, name, statSync(path).size));
      } catch (err) {
        errors.push(`${path}: ${(err as Error).message}`);
      }
    }
  }
  return { files, errors };
}
