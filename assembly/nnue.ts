// The NNUE network: a perspective network (768·K -> H) x 2 -> 1 with int16 weights, SCReLU or
// CReLU, K = 1, 2 or 4 king buckets (a perspective's features by the half of the board, files
// a-d or e-h, its own king stands on, and with four by whether that king is still on its own
// first two ranks), optional output buckets by piece count, and an optional linear
// piece-square term (PSQT) beside the hidden layer. This file holds the
// weights, reads them from the network file format (docs/nnue.md), and computes the output
// from the two accumulators (accumulator.ts keeps those). SIMD and scalar versions give the
// same result.
//
// Network file (little-endian), a 64-byte header then the weights:
//    0 u8[4]  magic "WCNN"            4 u32 version (1)
//    8 u32    feature set (1: 768 piece-square features per perspective; 2: 768 while the
//             perspective's king is on files e-h, then 768 while it is on files a-d; 3: those
//             two while the king is on its own first two ranks, then the two beyond them)
//   12 u32    hidden size H (a multiple of 16, at most H_MAX)
//   16 u32    activation (0 CReLU, 1 SCReLU)     20 u32 output buckets B (1..BUCKETS_MAX)
//   24 i32    QA   28 i32 QB   32 i32 output scale (centipawns per unit of output)
//   36 u32    FNV-1a hash of the bytes after the header
//   40 u32    flags (bit 0: PSQT)             44..63 zero
//   64        i16 feature weights [768K][H], i16 feature biases [H],
//             i16 output weights [B][2H] (side to move's half first), i32 output biases [B],
//             with PSQT: i16 piece-square values [768K] in centipawns
//
// In memory a feature's column holds its H weights and, with PSQT, 8 more lanes: its
// piece-square value and seven zeros. The accumulators then sum the PSQT along with the
// hidden values, one SIMD vector more per update; |value| <= PSQT_MAX keeps 32 of them in
// 16 bits.

import { Color, WHITE, PAWN, Square, colorOf, typeOf, Piece } from "./types";
import { USE_NNUE } from "./config";

export const INPUTS = 768;
export const KING_BUCKETS_MAX = 4;
export const H_MAX = 512;
/** Lanes after the hidden values that carry the PSQT (one SIMD vector of i16). */
export const PSQT_LANES = 8;
/** Values in one perspective's half of an accumulator (and in a feature's column at most). */
export const ACC_HALF = H_MAX + PSQT_LANES;
/** Largest |piece-square value| in centipawns: 32 of them still fit in an i16. */
export const PSQT_MAX = 1020;
export const FLAG_PSQT = 1;
export const BUCKETS_MAX = 8;
export const HEADER_BYTES = 64;
export const ACTIVATION_CRELU = 0;
export const ACTIVATION_SCRELU = 1;
const MAGIC = 0x4e4e4357; // "WCNN"
const VERSION = 1;
const FEATURES_CHESS768 = 1;
const FEATURES_CHESS768_KING_HALVES = 2;
const FEATURES_CHESS768_KING_QUARTERS = 3;

// The weights of the network in use, rows of `hidden` values (room in the network build only).
const FEATURE_W: usize = memory.data(USE_NNUE ? INPUTS * KING_BUCKETS_MAX * ACC_HALF * 2 : 16, 16);
const FEATURE_B: usize = memory.data(USE_NNUE ? ACC_HALF * 2 : 16, 16);
const OUTPUT_W: usize = memory.data(USE_NNUE ? BUCKETS_MAX * 2 * H_MAX * 2 : 16, 16);
const OUTPUT_B: usize = memory.data(BUCKETS_MAX * 4, 16);

/** Hidden size of the network in use; 0 when none is loaded. */
export let hidden = 0;
/** Values per feature column and accumulator half: hidden, plus PSQT_LANES with a PSQT. */
export let stride = 0;
export let psqt = false;
export let activation = ACTIVATION_SCRELU;
export let buckets = 1;
/** King buckets of the network in use (1, 2 or 4). */
export let kingBuckets = 1;
export let qa = 255;
export let qb = 64;
export let outputScale = 400;
export let netHash: u32 = 0;
/** The search evaluates with the SIMD kernels (the default) or their scalar references, which
 *  give the same values (bench/search.ts --scalar measures the difference in speed). */
export let simdKernels = true;
export let netErrorText = "";

/** The input feature of piece pc on sq for the perspective of colour `view`: pieces of that
 *  colour first, squares seen from its side (flipped for black). */
// @ts-ignore: decorator
@inline export function featureIndex(view: Color, pc: Piece, sq: Square): i32 {
  const side = colorOf(pc) == view ? 0 : 384;
  return side + (typeOf(pc) - PAWN) * 64 + (view == WHITE ? sq : sq ^ 56);
}

/** With king buckets, the offset of the feature block of perspective `view` whose king
 *  stands on kingSq: files e-h the first block, a-d the second (a file is the same from
 *  either side of the board); with four buckets, the third and fourth the same halves once
 *  the king has left view's first two ranks. */
// @ts-ignore: decorator
@inline export function kingBlock(view: Color, kingSq: Square): i32 {
  const half = (kingSq & 7) < 4 ? INPUTS : 0;
  if (kingBuckets < 4) return half;
  const rank = view == WHITE ? kingSq >> 3 : 7 - (kingSq >> 3);
  return rank < 2 ? half : half + 2 * INPUTS;
}

/** With king buckets, true when view's king moving from `from` to `to` changes its block. */
// @ts-ignore: decorator
@inline export function crossesKingBlock(view: Color, from: Square, to: Square): bool {
  return kingBlock(view, from) != kingBlock(view, to);
}

/** Address of feature f's column of hidden weights. */
// @ts-ignore: decorator
@inline export function featureColumn(f: i32): usize {
  return FEATURE_W + <usize>(f * stride) * 2;
}

/** Address of the hidden biases. */
// @ts-ignore: decorator
@inline export function featureBiases(): usize {
  return FEATURE_B;
}

/** Chooses the SIMD kernels (true) or the scalar references (false) for the search. */
export function setSimdKernels(on: bool): void {
  simdKernels = on;
}

/** Output bucket of a position with `pieces` men on the board. */
// @ts-ignore: decorator
@inline export function outputBucket(pieces: i32): i32 {
  return buckets == 1 ? 0 : min((pieces - 2) * buckets / 31, buckets - 1);
}

/** FNV-1a of n bytes at p. */
export function fnv1a(p: usize, n: usize): u32 {
  let h: u32 = 0x811c9dc5;
  for (let i: usize = 0; i < n; i++) h = (h ^ <u32>load<u8>(p + i)) * 0x01000193;
  return h;
}

function fail(text: string): bool {
  netErrorText = text;
  return false;
}

/** Bytes of a network file with hidden size h, b buckets, maybe a PSQT, and kb king buckets. */
export function netFileBytes(h: i32, b: i32, withPsqt: bool = false, kb: i32 = 1): i32 {
  const inputs = INPUTS * kb;
  return HEADER_BYTES + inputs * h * 2 + h * 2 + b * 2 * h * 2 + b * 4 + (withPsqt ? inputs * 2 : 0);
}

/** Loads the network file of `len` bytes at p; on any defect the network in use stays and
 *  netErrorText names the defect. */
export function loadNetwork(p: usize, len: i32): bool {
  if (len < HEADER_BYTES) return fail("file of " + len.toString() + " bytes is shorter than the 64-byte header");
  if (load<u32>(p) != MAGIC) return fail("not a network file (no WCNN magic)");
  const version = load<u32>(p, 4);
  if (version != VERSION) return fail("network file version " + version.toString() + " is not supported (expected 1)");
  const featureSet = load<u32>(p, 8);
  if (featureSet != FEATURES_CHESS768 && featureSet != FEATURES_CHESS768_KING_HALVES && featureSet != FEATURES_CHESS768_KING_QUARTERS) {
    return fail("unknown feature set " + featureSet.toString());
  }
  const kb = featureSet == FEATURES_CHESS768 ? 1 : featureSet == FEATURES_CHESS768_KING_HALVES ? 2 : 4;
  const inputs = INPUTS * kb;
  const h = <i32>load<u32>(p, 12);
  if (h < 16 || h > H_MAX || h % 16 != 0) return fail("hidden size " + h.toString() + " is not a multiple of 16 from 16 to " + H_MAX.toString());
  const act = <i32>load<u32>(p, 16);
  if (act != ACTIVATION_CRELU && act != ACTIVATION_SCRELU) return fail("unknown activation " + act.toString());
  const b = <i32>load<u32>(p, 20);
  if (b < 1 || b > BUCKETS_MAX) return fail("output buckets " + b.toString() + " not from 1 to " + BUCKETS_MAX.toString());
  const a = load<i32>(p, 24);
  const q = load<i32>(p, 28);
  const scale = load<i32>(p, 32);
  if (a < 1 || a > 255 || q < 1 || q > 1024 || scale < 1 || scale > 10000) return fail("quantisation constants out of range");
  const flags = load<u32>(p, 40);
  if (flags & ~FLAG_PSQT) return fail("unknown flags " + flags.toString());
  const withPsqt = (flags & FLAG_PSQT) != 0;
  const want = netFileBytes(h, b, withPsqt, kb);
  if (len != want) return fail("file has " + len.toString() + " bytes; this header needs " + want.toString());
  const hash = fnv1a(p + HEADER_BYTES, <usize>(len - HEADER_BYTES));
  if (hash != load<u32>(p, 36)) return fail("content hash mismatch: the file is corrupt");
  const psqtAt = p + <usize>(len - (withPsqt ? inputs * 2 : 0));
  if (withPsqt) {
    for (let f = 0; f < inputs; f++) {
      const v = load<i16>(psqtAt + <usize>f * 2);
      if (v < -PSQT_MAX || v > PSQT_MAX) return fail("piece-square value " + v.toString() + " beyond +-" + PSQT_MAX.toString());
    }
  }
  const cols = h + (withPsqt ? PSQT_LANES : 0);
  let at = p + HEADER_BYTES;
  for (let f = 0; f < inputs; f++) {
    const col = FEATURE_W + <usize>(f * cols) * 2;
    memory.copy(col, at + <usize>(f * h) * 2, h * 2);
    if (withPsqt) {
      memory.fill(col + <usize>h * 2, 0, PSQT_LANES * 2);
      store<i16>(col + <usize>h * 2, load<i16>(psqtAt + <usize>f * 2));
    }
  }
  at += inputs * h * 2;
  memory.fill(FEATURE_B, 0, ACC_HALF * 2); // the PSQT lanes start from zero
  memory.copy(FEATURE_B, at, h * 2);
  at += h * 2;
  memory.copy(OUTPUT_W, at, b * 2 * h * 2);
  at += b * 2 * h * 2;
  memory.copy(OUTPUT_B, at, b * 4);
  hidden = h;
  stride = cols;
  psqt = withPsqt;
  activation = act;
  buckets = b;
  kingBuckets = kb;
  qa = a;
  qb = q;
  outputScale = scale;
  netHash = hash;
  netErrorText = "";
  return true;
}

/** The network's output in centipawns for the side to move, from its accumulator `us` and
 *  the opponent's `them` (hidden values each), in output bucket `bucket`. */
export function outputSimd(us: usize, them: usize, bucket: i32): i32 {
  return finish(outputSumSimd(us, them, bucket), bucket) + psqtTerm(us, them);
}

/** The same as outputSimd without SIMD: the reference the tests compare it with. */
export function outputScalar(us: usize, them: usize, bucket: i32): i32 {
  return finish(outputSumScalar(us, them, bucket), bucket) + psqtTerm(us, them);
}

/** The PSQT's centipawns for the side to move: half the difference of the two sums. */
function psqtTerm(us: usize, them: usize): i32 {
  if (!psqt) return 0;
  const off = <usize>hidden * 2;
  return (<i32>load<i16>(us + off) - <i32>load<i16>(them + off)) / 2;
}

/** The output layer's weighted sum of activations (before the bias and scaling), with SIMD. */
export function outputSumSimd(us: usize, them: usize, bucket: i32): i32 {
  const w = OUTPUT_W + <usize>(bucket * 2 * hidden) * 2;
  const zero = i16x8.splat(0);
  const top = i16x8.splat(<i16>qa);
  let sum = i32x4.splat(0);
  const screlu = activation == ACTIVATION_SCRELU;
  for (let half = 0; half < 2; half++) {
    const acc = half == 0 ? us : them;
    const ws = w + <usize>(half * hidden) * 2;
    for (let i = 0; i < hidden; i += 8) {
      const off = <usize>i * 2;
      const v = i16x8.min_s(i16x8.max_s(v128.load(acc + off), zero), top);
      const wt = v128.load(ws + off);
      // SCReLU: v * w fits 16 bits (|w| <= 127 from training), then the dot product with v.
      sum = i32x4.add(sum, screlu ? i32x4.dot_i16x8_s(i16x8.mul(v, wt), v) : i32x4.dot_i16x8_s(v, wt));
    }
  }
  return i32x4.extract_lane(sum, 0) + i32x4.extract_lane(sum, 1) + i32x4.extract_lane(sum, 2) + i32x4.extract_lane(sum, 3);
}

/** The output layer's weighted sum without SIMD. */
export function outputSumScalar(us: usize, them: usize, bucket: i32): i32 {
  const w = OUTPUT_W + <usize>(bucket * 2 * hidden) * 2;
  let total = 0;
  for (let half = 0; half < 2; half++) {
    const acc = half == 0 ? us : them;
    const ws = w + <usize>(half * hidden) * 2;
    for (let i = 0; i < hidden; i++) {
      const v = min(max(<i32>load<i16>(acc + <usize>i * 2), 0), qa);
      const wt = <i32>load<i16>(ws + <usize>i * 2);
      total += activation == ACTIVATION_SCRELU ? <i32>(<i16>(v * wt)) * v : v * wt;
    }
  }
  return total;
}

function finish(total: i32, bucket: i32): i32 {
  const bias = load<i32>(OUTPUT_B + <usize>bucket * 4);
  const sum = activation == ACTIVATION_SCRELU ? total / qa + bias : total + bias;
  return <i32>((<i64>sum * outputScale) / (qa * qb));
}
