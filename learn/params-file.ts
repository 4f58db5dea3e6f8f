// assembly/params.ts as the tuners read and write it: the weights' current values come from
// the tuning build of the engine (by index, assembly/weights.ts); tuned values go back into
// the file's text in place, keeping its names, layout and comments, under a header that says
// how they were made.

import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Core } from "../bindings/core.js";
import { KIND_PACKED, WeightLayout } from "./eval-model.js";

export const PARAMS_FILE = new URL("../assembly/params.ts", import.meta.url);

/** Midgame half of a packed S(mg, eg). */
export function mgOf(v: number): number {
  return (v << 16) >> 16;
}

/** Endgame half of a packed S(mg, eg). */
export function egOf(v: number): number {
  return (((v + 0x8000) >> 16) << 16) >> 16;
}

/** The layout of the weights and their values (theta, see eval-model.ts) in an engine of the
 *  tuning build; the king-attack constants are read from params.ts. */
export function readWeights(core: Core, paramsText = readFileSync(PARAMS_FILE, "utf8")): { layout: WeightLayout; theta: Float64Array } {
  const w = core.exports;
  const err = w.weightLayoutError();
  if (err) throw new Error(`the engine's weight layout is inconsistent: ${err}`);
  const n = w.weightCount();
  const names: string[] = [];
  const kinds: number[] = [];
  const theta = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    names.push(w.weightNameAt(i));
    kinds.push(w.weightKindAt(i));
    const v = w.weightValue(i);
    if (kinds[i] === KIND_PACKED) {
      theta[2 * i] = mgOf(v);
      theta[2 * i + 1] = egOf(v);
    } else {
      theta[2 * i] = v;
    }
  }
  const constant = (name: string) => {
    const m = new RegExp(`export let ${name}: i32 = (\\d+);`).exec(paramsText);
    if (!m) throw new Error(`params.ts: no integer constant ${name}`);
    return Number(m[1]);
  };
  return {
    layout: {
      names,
      kinds,
      kingAttackUnits: names.indexOf("KING_ATTACK_UNITS[0]"),
      kingAttackDivisor: constant("KING_ATTACK_DIVISOR"),
      kingAttackMax: constant("KING_ATTACK_MAX"),
    },
    theta,
  };
}

/** Loads theta (rounded) into the engine's weights. */
export function loadWeights(core: Core, layout: WeightLayout, theta: Float64Array): void {
  core.guard((w) => {
    layout.names.forEach((_, i) => {
      const mg = Math.round(theta[2 * i]);
      const eg = Math.round(theta[2 * i + 1]);
      w.setWeightValue(i, layout.kinds[i] === KIND_PACKED ? (eg << 16) + mg : mg);
    });
    w.weightsChanged();
  });
}

const ELEMENT = /S\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)|-?\d+/g;

/** A table entry: `S(mg, eg)` (padded to `width` per number in aligned tables) or an integer. */
function formatElement(mg: number, eg: number, packed: boolean, width: number): string {
  if (!packed) return String(mg);
  return `S(${String(mg).padStart(width)}, ${String(eg).padStart(width)})`;
}

/** params.ts text with the values of theta (rounded) written in place, and `header` (when not
 *  empty) as the "Tuned by" comment block after the file's purpose lines. Throws when a weight's
 *  declaration cannot be found or has the wrong number of entries. */
export function writeParamsText(text: string, layout: WeightLayout, theta: Float64Array, header: string[]): string {
  const byName = new Map<string, number[]>();
  layout.names.forEach((name, i) => {
    const base = name.replace(/\[\d+\]$/, "");
    if (!byName.has(base)) byName.set(base, []);
    byName.get(base)!.push(i);
  });
  for (const [name, indices] of byName) {
    const packed = layout.kinds[indices[0]] === KIND_PACKED;
    const value = (i: number) => [Math.round(theta[2 * i]), Math.round(theta[2 * i + 1])];
    if (indices.length === 1 && !layout.names[indices[0]].endsWith("]")) {
      const re = new RegExp(`(export let ${name}: i32 = )(S\\([^)]*\\)|-?\\d+)(;)`);
      if (!re.test(text)) throw new Error(`params.ts: no scalar ${name}`);
      const [mg, eg] = value(indices[0]);
      text = text.replace(re, (_all, a, _old, c) => a + formatElement(mg, eg, packed, 0) + c);
      continue;
    }
    const re = new RegExp(`(export const ${name}: StaticArray<i32> = \\[)([^\\]]*)(\\];)`);
    const m = re.exec(text);
    if (!m) throw new Error(`params.ts: no table ${name}`);
    // Tables written one row of the board per line (piece-square tables) are aligned.
    const aligned = /S\(\s/.test(m[2]) || indices.length === 32;
    const width = aligned ? Math.max(...indices.flatMap((i) => value(i).map((v) => String(v).length))) : 0;
    let k = 0;
    const body = m[2].replace(ELEMENT, (old) => {
      if (k >= indices.length) throw new Error(`params.ts: ${name} has more than ${indices.length} entries`);
      const [mg, eg] = value(indices[k++]);
      // An unused entry written as a plain 0 stays so while it is zero.
      if (packed && /^-?\d+$/.test(old) && mg === 0 && eg === 0) return old;
      return formatElement(mg, eg, packed, width);
    });
    if (k !== indices.length) throw new Error(`params.ts: ${name} has ${k} entries, not ${indices.length}`);
    text = text.slice(0, m.index) + m[1] + body + m[3] + text.slice(m.index + m[0].length);
  }
  if (header.length === 0) return text;
  // The header: replace an existing "Tuned by" block or insert one after the purpose lines.
  const lines = text.split("\n");
  let at = lines.findIndex((l) => l.startsWith("// Tuned by "));
  if (at >= 0) {
    let end = at + 1;
    while (end < lines.length && lines[end].startsWith("//   ")) end++;
    lines.splice(at, end - at);
  } else {
    at = lines.findIndex((l) => !l.startsWith("//"));
  }
  lines.splice(at, 0, ...header.map((h, i) => (i === 0 ? `// Tuned by ${h}` : `//   ${h}`)));
  return lines.join("\n");
}

/** Writes theta into a copy of assembly/params.ts at `file` (default: params.ts itself). */
export function writeParamsFile(layout: WeightLayout, theta: Float64Array, header: string[], file: URL = PARAMS_FILE): void {
  writeFileSync(file, writeParamsText(readFileSync(PARAMS_FILE, "utf8"), layout, theta, header));
}

/** The file a --params-out option names (default assembly/params.ts). */
export function paramsOut(path: string | undefined): URL {
  return path ? pathToFileURL(resolve(path)) : PARAMS_FILE;
}
