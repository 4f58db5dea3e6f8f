// The NNUE trainer's kernel (AssemblyScript, wasm SIMD): a (768·K -> H) x 2 -> 1 perspective
// network (K king buckets: 1; 2 by the half of the board, files a-d or e-h, where the
// perspective's own king stands; 4 by that half and whether the king is on its own first two
// ranks or beyond) in float32 trained on 32-byte position records
// (assembly/packed-board.ts) with sparse first-layer updates and AdamW. The host
// (learn/nnue-trainer.ts) feeds batches of records, schedules the learning rate, keeps
// checkpoints and quantises the result.
//
// Parameters, one float array in this order (the gradients and both Adam moments alike):
//   W1 [768K][H]  feature weights, a row of H per input feature (king bucket major)
//   B1 [H]        hidden biases
//   W2 [B][2H]    output weights per bucket, side to move's half first
//   B2 [B]        output biases
//   PS [768K]     with psqt: a linear weight per input feature, added to the output as
//                 (sum over the side to move's features - sum over the opponent's) / 2
// The output o is in units of outputUnit centipawns (400: the engine's eval is o * 400); the
// prediction is sigmoid(o * outputUnit / evalScale), and the target blends the game result with
// sigmoid(search score / evalScale), both from the side to move's view.
// With quantisation-aware training (setQuantisation), the optimiser updates a latent copy of
// the parameters and the network that is evaluated and differentiated is that copy rounded to
// the network file's grid (the gradients pass the rounding unchanged: the straight-through
// estimator), so small updates accumulate in the latent weights until they move a quantised
// one, and the loss the trainer reports is the quantised network's.

const PIECE_SQUARES = 768;
let inputs = PIECE_SQUARES; // input features: PIECE_SQUARES per king bucket
let K = 1; // king buckets
const MAX_ACTIVE = 32;
const RECORD_BYTES = 32;
// The file format's constants, passed by the host (learn/net-file.ts) to init: the output
// unit in centipawns, the weights' limit, the piece-square values' limit in output units.
let outputUnit: f32 = 0;
let weightClip: f32 = 0;
let psqtClip: f32 = 0;

let H = 0;
let B = 1;
let screlu = true;
let P = 0; // parameter count
let offB1 = 0;
let offW2 = 0;
let offB2 = 0;
let offPs = 0;
let psqt = false;

let params: StaticArray<f32> = new StaticArray<f32>(0);
let grads: StaticArray<f32> = new StaticArray<f32>(0);
let moment1: StaticArray<f32> = new StaticArray<f32>(0);
let moment2: StaticArray<f32> = new StaticArray<f32>(0);
// Quantisation-aware training: the latent parameters and the grid's steps (0: off).
let latent: StaticArray<f32> = new StaticArray<f32>(0);
let gridQA: f32 = 0;
let gridQB: f32 = 0;
let records: StaticArray<u8> = new StaticArray<u8>(0);

// Per-position scratch: accumulators, activations and their gradients for both perspectives.
let acc: StaticArray<f32> = new StaticArray<f32>(0); // [2][H]
let act: StaticArray<f32> = new StaticArray<f32>(0); // [2][H]
let dacc: StaticArray<f32> = new StaticArray<f32>(0); // [2][H]
const features = new StaticArray<i32>(2 * MAX_ACTIVE);
let active = 0;
let stm = 0;
let bucket = 0;
const kingSquare = new StaticArray<i32>(2); // by colour, after the mirror
let mirror = 0; // 7 when the decoded position is mirrored left to right (files a <-> h)

let rngState: u32 = 1;

/** A uniform number in [-1, 1) (xorshift32). */
function uniform(): f32 {
  let s = rngState;
  s ^= s << 13;
  s ^= s >> 17;
  s ^= s << 5;
  rngState = s;
  return <f32>(<f64>s / 4294967296.0) * 2 - 1;
}

/** Sets up a network of hidden size h (a multiple of 4), b output buckets, SCReLU or CReLU,
 *  with random weights from seed, and with usePsqt a linear piece-square term that starts
 *  from the usual material values and stays within +-psqtMaxCp centipawns; outputScale is
 *  the output's unit in centipawns and clip the limit of every weight but the output biases
 *  (the quantisation's). Returns the parameter count. */
export function init(h: i32, b: i32, kb: i32, useScrelu: bool, seed: u32, usePsqt: bool, psqtMaxCp: i32, outputScale: i32, clip: f32): i32 {
  outputUnit = <f32>outputScale;
  weightClip = clip;
  H = h;
  B = b;
  K = kb;
  inputs = PIECE_SQUARES * kb;
  screlu = useScrelu;
  psqt = usePsqt;
  psqtClip = <f32>psqtMaxCp / outputUnit;
  offB1 = inputs * H;
  offW2 = offB1 + H;
  offB2 = offW2 + B * 2 * H;
  offPs = offB2 + B;
  P = offPs + (psqt ? inputs : 0);
  params = new StaticArray<f32>(P);
  grads = new StaticArray<f32>(P);
  moment1 = new StaticArray<f32>(P);
  moment2 = new StaticArray<f32>(P);
  acc = new StaticArray<f32>(2 * H);
  act = new StaticArray<f32>(2 * H);
  dacc = new StaticArray<f32>(2 * H);
  rngState = seed | 1;
  // About 32 active features per perspective: accumulators of spread ~0.3 at the start.
  const r1 = <f32>(0.3 * Math.sqrt(3.0 / 32.0));
  for (let i = 0; i < offB1; i++) params[i] = uniform() * r1;
  const r2 = <f32>Math.sqrt(3.0 / <f64>(2 * H));
  for (let i = offW2; i < offB2; i++) params[i] = uniform() * r2;
  if (psqt) {
    // Pawn, knight, bishop, rook, queen, king in units of the output (outputUnit cp); the
    // opponent's pieces count against. The term is antisymmetric, so this sums to the
    // material balance from the side to move's view.
    const material: StaticArray<f32> = [100, 300, 300, 500, 900, 0];
    for (let f = 0; f < inputs; f++) {
      const v = unchecked(material[(f % 384) / 64]) / outputUnit;
      params[offPs + f] = f % PIECE_SQUARES < 384 ? v : -v;
    }
  }
  return P;
}

export function parameterCount(): i32 {
  return P;
}
export function paramsPtr(): usize {
  return changetype<usize>(params);
}
/** The parameters the optimiser updates: the latent ones under quantisation-aware training,
 *  else the network's own (the host writes and checkpoints these). */
export function latentPtr(): usize {
  return changetype<usize>(gridQA > 0 ? latent : params);
}

/** Turns on quantisation-aware training for a network file with first-layer scale qa and
 *  output-layer scale qb (qa = 0 turns it off): the present parameters become the latent
 *  ones, and the network is their rounding. */
export function setQuantisation(qa: f32, qb: f32): void {
  gridQA = qa;
  gridQB = qb;
  latent = qa > 0 ? StaticArray.slice<f32>(params) : new StaticArray<f32>(0);
  if (qa > 0) roundLatent();
}

/** The network from the latent parameters (after the host wrote them). */
export function roundLatent(): void {
  if (gridQA == 0) return;
  for (let i = 0; i < P; i++) unchecked((params[i] = onGrid(unchecked(latent[i]), i)));
}

/** Parameter i's value w rounded as the network file stores it. */
// @ts-ignore: decorator
@inline function onGrid(w: f32, i: i32): f32 {
  const q = i < offW2 ? gridQA : i < offB2 ? gridQB : i < offPs ? gridQA * gridQB : outputUnit;
  return Mathf.round(w * q) / q;
}

export function moment1Ptr(): usize {
  return changetype<usize>(moment1);
}
export function moment2Ptr(): usize {
  return changetype<usize>(moment2);
}

/** Room for n records; the host writes them there before trainBatch or evalBatch. */
export function recordsPtr(n: i32): usize {
  if (records.length < n * RECORD_BYTES) records = new StaticArray<u8>(n * RECORD_BYTES);
  return changetype<usize>(records);
}

/** Reads record r's features for both perspectives (us = side to move first). */
function decode(r: usize): void {
  const occ = load<u64>(r);
  stm = <i32>(load<u8>(r, 24) >> 7);
  let b = occ;
  let i = 0;
  while (b) {
    const sq = <i32>ctz(b) ^ mirror;
    b &= b - 1;
    const code = (<i32>load<u8>(r + 8 + <usize>(i >> 1)) >> ((i & 1) << 2)) & 15;
    let type = code & 7;
    if (type == 6) type = 3; // a rook that may still castle
    const color = code >> 3;
    if (type == 5) unchecked((kingSquare[color] = sq));
    // Side to move's perspective, then the opponent's; squares from each one's side.
    unchecked((features[i] = (color == stm ? 0 : 384) + type * 64 + (stm == 0 ? sq : sq ^ 56)));
    unchecked((features[MAX_ACTIVE + i] = (color != stm ? 0 : 384) + type * 64 + (stm == 0 ? sq ^ 56 : sq)));
    i++;
  }
  active = i;
  if (K > 1) {
    // Each perspective's features move to the block of its own king's bucket.
    const ours = kingBucket(unchecked(kingSquare[stm]), stm) * PIECE_SQUARES;
    const theirs = kingBucket(unchecked(kingSquare[stm ^ 1]), stm ^ 1) * PIECE_SQUARES;
    for (let k = 0; k < i; k++) {
      unchecked((features[k] += ours));
      unchecked((features[MAX_ACTIVE + k] += theirs));
    }
  }
  const pieces = <i32>popcnt(occ);
  bucket = B == 1 ? 0 : min((pieces - 2) * B / 31, B - 1);
}

/** The king bucket of colour c's king on sq: 0 on files e-h, 1 on files a-d (the file is the
 *  same from either side of the board); with four buckets 2 more when the king has left its
 *  first two ranks (assembly/nnue.ts kingBlock). */
// @ts-ignore: decorator
@inline function kingBucket(sq: i32, c: i32): i32 {
  const half = (sq & 7) < 4 ? 1 : 0;
  if (K == 2) return half;
  const rank = c == 0 ? sq >> 3 : 7 - (sq >> 3);
  return rank < 2 ? half : half + 2;
}

/** The network's output o for the decoded position (fills acc and act). */
function forward(): f32 {
  const p = changetype<usize>(params);
  const a = changetype<usize>(acc);
  const ac = changetype<usize>(act);
  const hb = <usize>H * 4;
  for (let side = 0; side < 2; side++) {
    const dst = a + <usize>side * hb;
    memory.copy(dst, p + <usize>offB1 * 4, hb);
    for (let k = 0; k < active; k++) {
      const row = p + <usize>(unchecked(features[side * MAX_ACTIVE + k]) * H) * 4;
      for (let j: usize = 0; j < hb; j += 16) v128.store(dst + j, f32x4.add(v128.load(dst + j), v128.load(row + j)));
    }
  }
  const zero = f32x4.splat(0);
  const one = f32x4.splat(1);
  const w2 = p + <usize>(offW2 + bucket * 2 * H) * 4;
  let sum = f32x4.splat(0);
  for (let j: usize = 0; j < 2 * hb; j += 16) {
    const c = f32x4.min(f32x4.max(v128.load(a + j), zero), one);
    const v = screlu ? f32x4.mul(c, c) : c;
    v128.store(ac + j, v);
    sum = f32x4.add(sum, f32x4.mul(v, v128.load(w2 + j)));
  }
  let out = f32x4.extract_lane(sum, 0) + f32x4.extract_lane(sum, 1) + f32x4.extract_lane(sum, 2) + f32x4.extract_lane(sum, 3) +
    unchecked(params[offB2 + bucket]);
  if (psqt) {
    let ps: f32 = 0;
    for (let k = 0; k < active; k++) ps += unchecked(params[offPs + features[k]]) - unchecked(params[offPs + features[MAX_ACTIVE + k]]);
    out += ps * <f32>0.5;
  }
  return out;
}

/** Adds g * d(o)/d(params) of the decoded position to grads (after forward). */
function backward(g: f32): void {
  const p = changetype<usize>(params);
  const gp = changetype<usize>(grads);
  const a = changetype<usize>(acc);
  const ac = changetype<usize>(act);
  const da = changetype<usize>(dacc);
  const hb = <usize>H * 4;
  const w2 = <usize>(offW2 + bucket * 2 * H) * 4;
  unchecked((grads[offB2 + bucket] += g));
  if (psqt) {
    const half = g * <f32>0.5;
    for (let k = 0; k < active; k++) {
      unchecked((grads[offPs + features[k]] += half));
      unchecked((grads[offPs + features[MAX_ACTIVE + k]] -= half));
    }
  }
  const gv = f32x4.splat(g);
  const zero = f32x4.splat(0);
  const one = f32x4.splat(1);
  const two = f32x4.splat(2);
  for (let j: usize = 0; j < 2 * hb; j += 16) {
    v128.store(gp + w2 + j, f32x4.add(v128.load(gp + w2 + j), f32x4.mul(gv, v128.load(ac + j))));
    const x = v128.load(a + j);
    // d act / d acc: 2 * acc (SCReLU) or 1 (CReLU) inside (0, 1), zero outside.
    const inside = v128.and(f32x4.gt(x, zero), f32x4.lt(x, one));
    const slope = screlu ? f32x4.mul(two, x) : one;
    v128.store(da + j, v128.and(f32x4.mul(f32x4.mul(gv, v128.load(p + w2 + j)), slope), inside));
  }
  for (let side = 0; side < 2; side++) {
    const src = da + <usize>side * hb;
    const b1 = gp + <usize>offB1 * 4;
    for (let j: usize = 0; j < hb; j += 16) v128.store(b1 + j, f32x4.add(v128.load(b1 + j), v128.load(src + j)));
    for (let k = 0; k < active; k++) {
      const row = gp + <usize>(unchecked(features[side * MAX_ACTIVE + k]) * H) * 4;
      for (let j: usize = 0; j < hb; j += 16) v128.store(row + j, f32x4.add(v128.load(row + j), v128.load(src + j)));
    }
  }
}

// @ts-ignore: decorator
@inline function sigmoid(x: f32): f32 {
  return <f32>1 / (<f32>1 + Mathf.exp(-x));
}

/** Target of record r: wdl * result + (1 - wdl) * sigmoid(score / evalScale), side to move's view. */
function target(r: usize, wdl: f32, evalScale: f32): f32 {
  const white = <f32>load<i16>(r, 28);
  const score = stm == 0 ? white : -white;
  const resultWhite = <f32>load<u8>(r, 30) * <f32>0.5;
  const result = stm == 0 ? resultWhite : 1 - resultWhite;
  return wdl * result + (1 - wdl) * sigmoid(score / evalScale);
}

/** Squared error summed over n records at recordsPtr; with `learn`, also the gradients. With
 *  `augment`, each record is mirrored left to right with probability 1/2: the network does not
 *  see castling rights, and without them chess is symmetric under that mirror. */
function pass(n: i32, wdl: f32, evalScale: f32, learn: bool, augment: bool): f64 {
  const k = outputUnit / evalScale;
  let loss: f64 = 0;
  const base = changetype<usize>(records);
  for (let i = 0; i < n; i++) {
    const r = base + <usize>i * RECORD_BYTES;
    mirror = augment && uniform() < 0 ? 7 : 0;
    decode(r);
    const p = sigmoid(forward() * k);
    const d = p - target(r, wdl, evalScale);
    loss += <f64>(d * d);
    if (learn) backward(2 * d * p * (1 - p) * k);
  }
  return loss;
}

/** Trains on n records: gradients over the batch, then one AdamW step (weights clipped to
 *  +-weightClip except the output biases). Returns the batch's summed squared error. */
export function trainBatch(n: i32, wdl: f32, evalScale: f32, lr: f32, weightDecay: f32, step: i32, augment: bool): f64 {
  memory.fill(changetype<usize>(grads), 0, <usize>P * 4);
  const loss = pass(n, wdl, evalScale, true, augment);
  const b1: f32 = 0.9;
  const b2: f32 = 0.999;
  const c1 = <f32>1 - Mathf.pow(b1, <f32>step);
  const c2 = <f32>1 - Mathf.pow(b2, <f32>step);
  const inv = <f32>1 / <f32>n;
  for (let i = 0; i < P; i++) {
    const g = unchecked(grads[i]) * inv;
    const m = b1 * unchecked(moment1[i]) + (1 - b1) * g;
    const v = b2 * unchecked(moment2[i]) + (1 - b2) * g * g;
    unchecked((moment1[i] = m));
    unchecked((moment2[i] = v));
    let w = gridQA > 0 ? unchecked(latent[i]) : unchecked(params[i]);
    // The piece-square term is not decayed, and has a limit of its own (a queen is 2.25 units).
    w -= lr * ((m / c1) / (Mathf.sqrt(v / c2) + <f32>1e-8) + (i < offPs ? weightDecay * w : 0));
    if (i < offB2) w = min(max(w, -weightClip), weightClip);
    else if (i >= offPs) w = min(max(w, -psqtClip), psqtClip);
    if (gridQA > 0) {
      unchecked((latent[i] = w));
      unchecked((params[i] = onGrid(w, i)));
    } else unchecked((params[i] = w));
  }
  return loss;
}

/** Summed squared error over n records, without learning. */
export function evalBatch(n: i32, wdl: f32, evalScale: f32): f64 {
  return pass(n, wdl, evalScale, false, false);
}

/** The float network's evaluation of record i at recordsPtr, in centipawns for the side to move. */
export function evaluateRecord(i: i32): f32 {
  mirror = 0;
  decode(changetype<usize>(records) + <usize>i * RECORD_BYTES);
  return forward() * outputUnit;
}

/** Side to move of the last decoded record (0 white, 1 black). */
export function decodedSide(): i32 {
  return stm;
}
