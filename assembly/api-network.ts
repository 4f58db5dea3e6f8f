// The module's exports for the NNUE network (network build): loading a network file, the
// shape of the network in use, and its kernels one at a time for benchmarks. In the
// classical build they answer that no network is there.

import { USE_NNUE } from "./config";
import { loadNetwork, netErrorText, hidden as networkHiddenSize, kingBuckets as networkKingBuckets, INPUTS, netHash, setSimdKernels } from "./nnue";
import { runKernel } from "./nnue-bench";
import { invalidateAccumulators } from "./accumulator";

// The bytes of a network file being loaded (network build only): host I/O, not search state.
let networkScratch: StaticArray<u8> | null = null;

/** True in the network build (build/wasmchess-nnue.wasm). */
export function networkAvailable(): bool {
  return USE_NNUE;
}
/** Address of room for a network file of len bytes (written by the host, then networkLoad). */
export function networkBuffer(len: i32): usize {
  if (!USE_NNUE || len <= 0 || len > 16 << 20) return 0;
  if (networkScratch == null || networkScratch!.length < len) networkScratch = new StaticArray<u8>(len);
  return changetype<usize>(networkScratch);
}
/** Loads the network file of len bytes written at networkBuffer(len); false (keeping the
 *  network in use) when it is not a valid network file. */
export function networkLoad(len: i32): bool {
  if (!USE_NNUE || networkScratch == null || networkScratch!.length < len) return false;
  if (!loadNetwork(changetype<usize>(networkScratch), len)) return false;
  invalidateAccumulators();
  return true;
}
/** Why the last networkLoad failed. */
export function networkError(): string {
  return netErrorText;
}
/** Hidden size of the network in use (0: none, the hand-crafted evaluation is used). */
export function networkHidden(): i32 {
  return USE_NNUE ? networkHiddenSize : 0;
}
/** Input features of the network in use: 768 per king bucket (0: none). */
export function networkInputs(): i32 {
  return USE_NNUE && networkHiddenSize != 0 ? INPUTS * networkKingBuckets : 0;
}
/** The search's network kernels: SIMD (true, the default) or the scalar references. */
export function networkSimd(on: bool): void {
  if (USE_NNUE) setSimdKernels(on);
}
/** Runs one network kernel (0 refresh, 1 update by the last move, 2 output) `iterations`
 *  times on the current position, SIMD or scalar; a checksum of its result, or -1. */
export function networkKernel(kernel: i32, simd: bool, iterations: i32): i32 {
  return USE_NNUE && networkHiddenSize != 0 ? runKernel(kernel, simd, iterations) : -1;
}
/** Content hash of the network in use. */
export function networkHash(): u32 {
  return USE_NNUE ? netHash : 0;
}
