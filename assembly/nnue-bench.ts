// Runs one NNUE kernel many times on the current position, SIMD or scalar, so that the host
// can time each kernel against its scalar reference (bench/search.ts --kernels). Returns a
// checksum of the results, which is the same for both versions.

import { stateCount, sideToMove, occupied } from "./position";
import { WHITE } from "./types";
import { popcount } from "./bitboard";
import { USE_NNUE } from "./config";
import { ACC_HALF, outputBucket, outputSimd, outputScalar } from "./nnue";
import { currentAccumulator, refresh, applyMove } from "./accumulator";

/** Kernel 0: a refresh of both perspectives from the board. */
export const KERNEL_REFRESH = 0;
/** Kernel 1: the incremental update of both perspectives by the last move played. */
export const KERNEL_UPDATE = 1;
/** Kernel 2: the output layer (activation, dot products, scaling, PSQT). */
export const KERNEL_OUTPUT = 2;

const SCRATCH: usize = memory.data(USE_NNUE ? 2 * ACC_HALF * 2 : 16, 16);

function checksum(acc: usize): i32 {
  let h = 0;
  for (let i: usize = 0; i < <usize>(2 * ACC_HALF); i++) h = h * 31 + <i32>load<i16>(acc + i * 2);
  return h;
}

/** Runs `kernel` `iterations` times (SIMD or scalar) and returns a checksum of its result;
 *  -1 for an unknown kernel or an update asked for before any move. */
export function runKernel(kernel: i32, simd: bool, iterations: i32): i32 {
  const acc = currentAccumulator(simd);
  if (kernel == KERNEL_REFRESH) {
    for (let i = 0; i < iterations; i++) refresh(SCRATCH, simd);
    return checksum(SCRATCH);
  }
  if (kernel == KERNEL_UPDATE) {
    if (stateCount == 0) return -1;
    // Applied to the current accumulator rather than the parent's: the cost does not depend
    // on the values, and SIMD and scalar still compute the same (wrapping) sums.
    for (let i = 0; i < iterations; i++) applyMove(acc, SCRATCH, stateCount, simd);
    return checksum(SCRATCH);
  }
  if (kernel == KERNEL_OUTPUT) {
    const us = acc + (sideToMove == WHITE ? 0 : <usize>ACC_HALF * 2);
    const them = acc + (sideToMove == WHITE ? <usize>ACC_HALF * 2 : 0);
    const bucket = outputBucket(popcount(occupied()));
    let sum = 0;
    for (let i = 0; i < iterations; i++) sum += simd ? outputSimd(us, them, bucket) : outputScalar(us, them, bucket);
    return sum;
  }
  return -1;
}
