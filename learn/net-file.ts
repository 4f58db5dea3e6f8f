// NNUE network files (the format is documented in assembly/nnue.ts and docs/nnue.md): a
// float network quantised to int16 with QA = 255, QB = 64 and written with its header and
// content hash, named after the hash.

import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

export const QA = 255;
export const QB = 64;
export const OUTPUT_SCALE = 400;
/** Every float weight but the output biases stays within ±WEIGHT_CLIP in training, so that
 *  quantised output weights stay within ±127 (1.98 · QB = 126.7) and act · w ≤ 255 · 127
 *  fits 16 bits in the engine's SCReLU. */
export const WEIGHT_CLIP = 1.98;
export const INPUTS = 768;
/** Feature sets of the header: 768 piece-square features; those by two king buckets (the
 *  perspective's king on files e-h, then on files a-d); or by four (those two on the king's
 *  own first two ranks, then the same two beyond them). */
export const FEATURE_SET_768 = 1;
export const FEATURE_SET_768_KING_HALVES = 2;
export const FEATURE_SET_768_KING_QUARTERS = 3;
/** The feature set of K king buckets at index K - 1 (there is none for three). */
const FEATURE_SETS = [FEATURE_SET_768, FEATURE_SET_768_KING_HALVES, 0, FEATURE_SET_768_KING_QUARTERS];
const HEADER_BYTES = 64;
/** Largest |piece-square value| in centipawns (the engine's export PSQT_MAX; a test checks). */
export const PSQT_MAX = 1020;

/** FNV-1a of bytes (as assembly/nnue.ts computes it). */
export function fnv1a(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0;
  return h >>> 0;
}

export interface FloatNetwork {
  hidden: number;
  /** King buckets of the input features: 1 (none), 2 (by the king's half of the board) or 4. */
  kingBuckets?: number;
  buckets: number;
  screlu: boolean;
  /** With a linear piece-square term (PS after B2). */
  psqt?: boolean;
  /** W1 [768K][H], B1 [H], W2 [B][2H], B2 [B], PS [768K] (K king buckets), as the trainer's
   *  kernel lays them out. */
  params: Float32Array;
}

/** The network file of a float network. */
export function quantise(net: FloatNetwork): Uint8Array {
  const { hidden: h, buckets: b, params } = net;
  const kb = net.kingBuckets ?? 1;
  const inputs = INPUTS * kb;
  const payload = inputs * h * 2 + h * 2 + b * 2 * h * 2 + b * 4 + (net.psqt ? inputs * 2 : 0);
  const bytes = new Uint8Array(HEADER_BYTES + payload);
  const view = new DataView(bytes.buffer);
  bytes.set([0x57, 0x43, 0x4e, 0x4e]); // "WCNN"
  view.setUint32(4, 1, true);
  view.setUint32(8, FEATURE_SETS[kb - 1], true);
  view.setUint32(12, h, true);
  view.setUint32(16, net.screlu ? 1 : 0, true);
  view.setUint32(20, b, true);
  view.setInt32(24, QA, true);
  view.setInt32(28, QB, true);
  view.setInt32(32, OUTPUT_SCALE, true);
  view.setUint32(40, net.psqt ? 1 : 0, true);
  let at = HEADER_BYTES;
  const i16 = (v: number) => {
    view.setInt16(at, Math.max(-32768, Math.min(32767, Math.round(v))), true);
    at += 2;
  };
  const w2 = inputs * h + h;
  for (let i = 0; i < w2; i++) i16(params[i] * QA);
  for (let i = w2; i < w2 + b * 2 * h; i++) i16(params[i] * QB);
  for (let k = 0; k < b; k++) {
    view.setInt32(at, Math.round(params[w2 + b * 2 * h + k] * QA * QB), true);
    at += 4;
  }
  const ps = w2 + b * 2 * h + b;
  if (net.psqt) for (let f = 0; f < inputs; f++) i16(Math.max(-PSQT_MAX, Math.min(PSQT_MAX, params[ps + f] * OUTPUT_SCALE)));
  view.setUint32(36, fnv1a(bytes.subarray(HEADER_BYTES)), true);
  return bytes;
}

/** The float network of a network file (the inverse of quantise: quantising it again gives
 *  the same bytes), for training on from a network (`npm run train -- --init FILE`). Throws
 *  on a file that is not a valid network file of this format. */
export function dequantise(bytes: Uint8Array): FloatNetwork {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = (why: string): never => {
    throw new Error(`not a usable network file: ${why}`);
  };
  if (bytes.length < HEADER_BYTES || view.getUint32(0, true) !== 0x4e4e4357) fail("no WCNN header");
  const featureSet = view.getUint32(8, true);
  if (view.getUint32(4, true) !== 1) fail("version other than 1");
  const kingBuckets = FEATURE_SETS.indexOf(featureSet) + 1;
  if (featureSet === 0 || kingBuckets === 0) fail(`unknown feature set ${featureSet}`);
  const inputs = INPUTS * kingBuckets;
  const h = view.getUint32(12, true);
  const screlu = view.getUint32(16, true) === 1;
  const b = view.getUint32(20, true);
  if (view.getInt32(24, true) !== QA || view.getInt32(28, true) !== QB || view.getInt32(32, true) !== OUTPUT_SCALE) fail("other quantisation constants");
  const psqt = (view.getUint32(40, true) & 1) !== 0;
  const payload = inputs * h * 2 + h * 2 + b * 2 * h * 2 + b * 4 + (psqt ? inputs * 2 : 0);
  if (bytes.length !== HEADER_BYTES + payload) fail(`${bytes.length} bytes where the header needs ${HEADER_BYTES + payload}`);
  if (fnv1a(bytes.subarray(HEADER_BYTES)) !== view.getUint32(36, true)) fail("content hash mismatch");
  const w2 = inputs * h + h;
  const params = new Float32Array(w2 + b * 2 * h + b + (psqt ? inputs : 0));
  let at = HEADER_BYTES;
  for (let i = 0; i < w2; i++, at += 2) params[i] = view.getInt16(at, true) / QA;
  for (let i = w2; i < w2 + b * 2 * h; i++, at += 2) params[i] = view.getInt16(at, true) / QB;
  for (let k = 0; k < b; k++, at += 4) params[w2 + b * 2 * h + k] = view.getInt32(at, true) / (QA * QB);
  const ps = w2 + b * 2 * h + b;
  if (psqt) for (let f = 0; f < inputs; f++, at += 2) params[ps + f] = view.getInt16(at, true) / OUTPUT_SCALE;
  return { hidden: h, kingBuckets, buckets: b, screlu, psqt, params };
}

/** Writes a network file into dir as wcnn-<hash>.nnue; returns its path. */
export function writeNetwork(bytes: Uint8Array, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const hash = new DataView(bytes.buffer, bytes.byteOffset).getUint32(36, true);
  const file = join(dir, `wcnn-${hash.toString(16).padStart(8, "0")}.nnue`);
  writeFileSync(file, bytes);
  return file;
}
