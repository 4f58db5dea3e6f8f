// A Syzygy table file as the engine reads it: a name, a size and a read at an offset, whether
// the bytes are on disk (syzygy-path-node.ts) or in memory (tableFilesFromBytes, the way a
// browser gives them). Shared by syzygy.ts and the host-specific SyzygyPath readers.

/** A table file: its name ("KRvK.rtbw"), its size in bytes, and a read of the bytes at an
 *  offset into a target (the count read, fewer at the end, -1 on failure). */
export interface TableFile {
  name: string;
  size: number;
  read(offset: number, target: Uint8Array): number;
  close?(): void;
}

/** A table file given as its bytes. */
export interface TableBytes {
  name: string;
  bytes: Uint8Array | ArrayBuffer;
}

/** Table files over bytes in memory; throws a TypeError on a malformed entry. */
export function tableFilesFromBytes(files: readonly TableBytes[]): TableFile[] {
  if (!Array.isArray(files)) throw new TypeError("table files must be an array of { name, bytes }");
  return files.map((f, i) => {
    if (typeof f !== "object" || f === null || typeof f.name !== "string") throw new TypeError(`table file ${i}: needs a name (a string)`);
    const raw = f.bytes;
    if (!(raw instanceof Uint8Array) && !(raw instanceof ArrayBuffer)) throw new TypeError(`table file ${f.name}: bytes must be a Uint8Array or an ArrayBuffer`);
    const bytes = raw instanceof Uint8Array ? raw : new Uint8Array(raw);
    return {
      name: f.name,
      size: bytes.length,
      read: (offset: number, target: Uint8Array) => {
        const part = bytes.subarray(offset, offset + target.length);
        target.set(part);
        return part.length;
      },
    };
  });
}
