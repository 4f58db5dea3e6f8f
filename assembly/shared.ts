// The shared header: the state that every search thread of one engine reads and writes while
// they search together, in one block of fixed layout. With one thread it is in the engine's
// own memory; with several (Lazy SMP) the shared module (index-table.ts) keeps it and the
// transposition table it describes in the memory all threads share (docs/threads.md), while
// each thread keeps its own arena (arena.ts) in its own memory. What does not change
// during a search (the limits, the options, the network) is not here: every thread holds its
// own copy of it, as Stockfish copies the limits into each worker.
//
//   offset  type   field
//        0  u32    stop request: nonzero once the search must stop (the host's stop, a
//                  limit reached); each thread polls it and ends its search
//        4  u32    threads searching
//        8  u32    transposition table: address of its first bucket
//       12  u32    transposition table: bytes reserved at that address
//       16  u64    transposition table: bucket count
//       24  u32    transposition table: size in MB (0 before the first search)
//       28  u32    transposition table: generation of the current search (6 bits)
//       32         (free, to 64)
//       64  u64    nodes searched by thread 0 in the current search, then thread 1's, ...
//                  (THREADS_MAX counters; each thread publishes its own)
//   64 + 8 T  u64    tablebase hits of thread 0 in the current search, then thread 1's, ...
//                  (T = THREADS_MAX counters, published with the nodes)

/** Threads the header has node counters for (the UCI Threads option's range). */
export const THREADS_MAX = 256;

const STOP: usize = 0;
const THREADS: usize = 4;
const TT_BASE: usize = 8;
const TT_RESERVED: usize = 12;
const TT_BUCKETS: usize = 16;
const TT_MB: usize = 24;
const TT_GENERATION: usize = 28;
const NODES: usize = 64;
const TB_HITS: usize = NODES + THREADS_MAX * 8;
/** Bytes of the header. */
export const SHARED_BYTES: usize = TB_HITS + THREADS_MAX * 8;

/** The header's address (static memory, zero when the instance starts). */
export const SHARED: usize = memory.data(<i32>SHARED_BYTES, 64);

// ---------------------------------------------------------------- stop and threads

/** True once a stop was requested for the current search. */
// @ts-ignore: decorator
@inline export function stopRequested(): bool {
  return load<u32>(SHARED, STOP) != 0;
}

/** Asks every thread to stop (the host's stop, or a limit the main thread saw reached). */
export function requestStop(): void {
  store<u32>(SHARED, 1, STOP);
}

/** Clears the stop request before a search starts. */
export function clearStop(): void {
  store<u32>(SHARED, 0, STOP);
}

/** Threads searching (at least 1). */
export function threadCount(): i32 {
  return max(<i32>load<u32>(SHARED, THREADS), 1);
}

/** Sets the number of threads searching (their node counters are summed). */
export function setThreadCount(n: i32): void {
  store<u32>(SHARED, <u32>min(max(n, 1), THREADS_MAX), THREADS);
}

// ---------------------------------------------------------------- node counts

/** Publishes thread t's node count for the current search. */
// @ts-ignore: decorator
@inline export function publishNodes(t: i32, nodes: u64): void {
  store<u64>(SHARED + (<usize>t << 3), nodes, NODES);
}

/** Nodes of the current search over every thread, as last published. */
export function totalNodes(): u64 {
  let total: u64 = 0;
  const n = threadCount();
  for (let t = 0; t < n; t++) total += load<u64>(SHARED + (<usize>t << 3), NODES);
  return total;
}

/** Publishes thread t's tablebase hits for the current search. */
// @ts-ignore: decorator
@inline export function publishTbHits(t: i32, hits: u64): void {
  store<u64>(SHARED + (<usize>t << 3), hits, TB_HITS);
}

/** Tablebase hits of the current search over every thread, as last published. */
export function totalTbHits(): u64 {
  let total: u64 = 0;
  const n = threadCount();
  for (let t = 0; t < n; t++) total += load<u64>(SHARED + (<usize>t << 3), TB_HITS);
  return total;
}

// ---------------------------------------------------------------- the transposition table

// @ts-ignore: decorator
@inline export function tableBase(): usize {
  return load<u32>(SHARED, TT_BASE);
}
// @ts-ignore: decorator
@inline export function tableReserved(): usize {
  return load<u32>(SHARED, TT_RESERVED);
}
// @ts-ignore: decorator
@inline export function tableBuckets(): u64 {
  return load<u64>(SHARED, TT_BUCKETS);
}
// @ts-ignore: decorator
@inline export function tableMb(): i32 {
  return <i32>load<u32>(SHARED, TT_MB);
}
// @ts-ignore: decorator
@inline export function tableGeneration(): u64 {
  return <u64>load<u32>(SHARED, TT_GENERATION);
}

/** Records where the table's memory is: `reserved` bytes at `base`. */
export function setTableRegion(base: usize, reserved: usize): void {
  store<u32>(SHARED, <u32>base, TT_BASE);
  store<u32>(SHARED, <u32>reserved, TT_RESERVED);
}

/** Records the table's size: mb megabytes in `buckets` buckets. */
export function setTableSize(mb: i32, buckets: u64): void {
  store<u32>(SHARED, <u32>mb, TT_MB);
  store<u64>(SHARED, buckets, TT_BUCKETS);
}

export function setTableGeneration(g: u64): void {
  store<u32>(SHARED, <u32>g, TT_GENERATION);
}
