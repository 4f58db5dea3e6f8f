// Syzygy endgame tables, the file format: the files the host registered, a bounded cache of
// their blocks, each table's header (init_table, setup_pairs), the index of a position
// (encode), the decompression of one value (decompress_pairs) and the raw WDL and DTZ value
// of the current position (probe_table). A port of Fathom's tbprobe.c (Ronald de Man,
// basil00, Jon Dart; MIT). No file is ever mapped: every byte of a table comes through the
// block cache, which asks the host (hostTbRead) for 4 KiB at a time and bounds every read
// by the file's size, so a truncated or corrupt file gives an error, never a trap. The chess
// side (captures, en passant, DTZ by search) is syzygy-probe.ts.

import { hostTbRead } from "./host";
import { Bitboard, WHITE, PAWN, KNIGHT, BISHOP, ROOK, QUEEN } from "./types";
import { piecesOf, colorBB, pieces, sideToMove } from "./position";
import { popcount, lsb } from "./bitboard";

export const TB_WDL = 0;
export const TB_DTZ = 1;
const MAGIC_WDL: u32 = 0x5d23e871;
const MAGIC_DTZ: u32 = 0xa50c66d7;
/** Most pieces a table may have. */
export const TB_PIECES_MAX = 7;
const MAX_SYMS = 4096;

/** Why the last registration or table opening failed ("" when none did). */
export let tbErrorText: string = "";
/** Tables found bad as they were probed (a header, the data): the host reports tbErrorText
 *  when this count has grown during a search. */
export let tbTableErrors = 0;

function tableError(text: string): void {
  tbErrorText = text;
  tbTableErrors++;
}

// ---------------------------------------------------------------- files and the block cache

const FILE_MAX = 8192;
let fileCount = 0;
const fileSizes = new StaticArray<f64>(FILE_MAX);
const fileNames = new Array<string>();

// The cache: sets of CACHE_WAYS blocks of CACHE_BLOCK bytes, least recently used replaced.
// A tag is (file << 40 | block number) + 1; 0 marks an empty way.
const CACHE_SHIFT = 12;
const CACHE_BLOCK: i32 = 1 << CACHE_SHIFT;
const CACHE_WAYS = 4;
/** Default cache size in KiB. */
export const TB_CACHE_DEFAULT_KB = 4096;
let cacheKb: i32 = TB_CACHE_DEFAULT_KB;
let cacheSets: i32 = 0;
let cacheData: StaticArray<u8> | null = null;
let cacheTags: StaticArray<u64> | null = null;
let cacheStamps: StaticArray<u32> | null = null;
let cacheClock: u32 = 0;
// The block byteAt read last (file, block number, address, bytes in it), so that the runs of
// bytes a probe reads from one block (a compressed block's words, a symbol's pattern) skip the
// set lookup; lastFile -1 when there is none. It can never name an evicted block: only a
// lookup evicts, and byteAt then makes that lookup's block the last one.
let lastFile: i32 = -1;
let lastBlock: u64 = 0;
let lastAddress: usize = 0;
let lastLength: u64 = 0;

/** Set when a read failed (outside the file, or the host gave fewer bytes); readers return 0
 *  then, and whoever started the read checks it. */
export let ioError: bool = false;

/** Largest cache in KiB (256 MiB). */
export const TB_CACHE_MAX_KB = 256 << 10;

/** Sets the cache to about kb KiB (at least 4 blocks, at most TB_CACHE_MAX_KB; rounded down
 *  to a power of two); empties it. The memory is taken at the next probe. */
export function setCacheKb(kb: i32): void {
  const wanted = min(max(kb, (CACHE_WAYS * CACHE_BLOCK) >> 10), TB_CACHE_MAX_KB);
  let sets = 1;
  while ((sets * 2 * CACHE_WAYS * CACHE_BLOCK) >> 10 <= wanted) sets <<= 1;
  cacheKb = (sets * CACHE_WAYS * CACHE_BLOCK) >> 10;
  cacheData = null;
  cacheSets = 0;
  lastFile = -1;
}
export function getCacheKb(): i32 {
  return cacheKb;
}

function allocateCache(): void {
  const sets = (cacheKb << 10) / (CACHE_WAYS * CACHE_BLOCK);
  cacheSets = sets;
  cacheData = new StaticArray<u8>(sets * CACHE_WAYS * CACHE_BLOCK);
  cacheTags = new StaticArray<u64>(sets * CACHE_WAYS);
  cacheStamps = new StaticArray<u32>(sets * CACHE_WAYS);
}

/** Address of the cached block `block` of file `file`, read from the host if needed; 0 on
 *  failure (ioError set). */
function blockAddress(file: i32, block: u64): usize {
  if (cacheSets == 0) allocateCache();
  const tags = cacheTags!;
  const stamps = cacheStamps!;
  const tag = ((<u64>file << 40) | block) + 1;
  const h = tag * 0x9e3779b97f4a7c15;
  const set = <i32>(h >> 40) & (cacheSets - 1);
  const first = set * CACHE_WAYS;
  let victim = first;
  for (let w = first; w < first + CACHE_WAYS; w++) {
    if (unchecked(tags[w]) == tag) {
      unchecked((stamps[w] = ++cacheClock));
      return changetype<usize>(cacheData!) + (<usize>w << CACHE_SHIFT);
    }
    if (unchecked(stamps[w]) < unchecked(stamps[victim])) victim = w;
  }
  const start = block << CACHE_SHIFT;
  const size = <u64>unchecked(fileSizes[file]);
  const length = <i32>min<u64>(<u64>CACHE_BLOCK, size - start);
  const address = changetype<usize>(cacheData!) + (<usize>victim << CACHE_SHIFT);
  unchecked((tags[victim] = 0));
  const got = hostTbRead(file, <f64>start, <i32>address, length);
  if (got != length) {
    readFailed();
    return 0;
  }
  unchecked((tags[victim] = tag));
  unchecked((stamps[victim] = ++cacheClock));
  return address;
}

/** Marks the probe's reads as failed: every later byteAt answers 0 until ioError is reset. */
function readFailed(): void {
  ioError = true;
  lastFile = -1;
}

/** The byte at offset off of a file (0 and ioError when off is outside it). */
function byteAt(file: i32, off: u64): u32 {
  const block = off >> CACHE_SHIFT;
  const within = off & <u64>(CACHE_BLOCK - 1);
  if (file == lastFile && block == lastBlock && within < lastLength) return load<u8>(lastAddress + <usize>within);
  if (ioError) return 0;
  if (file < 0 || file >= fileCount || off >= <u64>unchecked(fileSizes[file])) {
    readFailed();
    return 0;
  }
  const a = blockAddress(file, block);
  if (a == 0) return 0;
  lastFile = file;
  lastBlock = block;
  lastAddress = a;
  lastLength = min<u64>(<u64>CACHE_BLOCK, <u64>unchecked(fileSizes[file]) - (block << CACHE_SHIFT));
  return load<u8>(a + <usize>within);
}
function le16(file: i32, off: u64): u32 {
  return byteAt(file, off) | (byteAt(file, off + 1) << 8);
}
function le32(file: i32, off: u64): u32 {
  return le16(file, off) | (le16(file, off + 2) << 16);
}
function be32(file: i32, off: u64): u32 {
  const within = off & <u64>(CACHE_BLOCK - 1);
  if (file == lastFile && off >> CACHE_SHIFT == lastBlock && within + 4 <= lastLength) return bswap<u32>(load<u32>(lastAddress + <usize>within));
  return (byteAt(file, off) << 24) | (byteAt(file, off + 1) << 16) | (byteAt(file, off + 2) << 8) | byteAt(file, off + 3);
}

// ---------------------------------------------------------------- index tables (init_indices)

// prettier-ignore
const OFF_DIAG: StaticArray<i8> = [
  0,-1,-1,-1,-1,-1,-1,-1, 1, 0,-1,-1,-1,-1,-1,-1, 1, 1, 0,-1,-1,-1,-1,-1, 1, 1, 1, 0,-1,-1,-1,-1,
  1, 1, 1, 1, 0,-1,-1,-1, 1, 1, 1, 1, 1, 0,-1,-1, 1, 1, 1, 1, 1, 1, 0,-1, 1, 1, 1, 1, 1, 1, 1, 0,
];
// prettier-ignore
const TRIANGLE: StaticArray<u8> = [
  6, 0, 1, 2, 2, 1, 0, 6, 0, 7, 3, 4, 4, 3, 7, 0, 1, 3, 8, 5, 5, 8, 3, 1, 2, 4, 5, 9, 9, 5, 4, 2,
  2, 4, 5, 9, 9, 5, 4, 2, 1, 3, 8, 5, 5, 8, 3, 1, 0, 7, 3, 4, 4, 3, 7, 0, 6, 0, 1, 2, 2, 1, 0, 6,
];
// prettier-ignore
const LOWER: StaticArray<u8> = [
  28, 0, 1, 2, 3, 4, 5, 6, 0,29, 7, 8, 9,10,11,12, 1, 7,30,13,14,15,16,17, 2, 8,13,31,18,19,20,21,
   3, 9,14,18,32,22,23,24, 4,10,15,19,22,33,25,26, 5,11,16,20,23,25,34,27, 6,12,17,21,24,26,27,35,
];
// prettier-ignore
const DIAG: StaticArray<u8> = [
   0, 0, 0, 0, 0, 0, 0, 8, 0, 1, 0, 0, 0, 0, 9, 0, 0, 0, 2, 0, 0,10, 0, 0, 0, 0, 0, 3,11, 0, 0, 0,
   0, 0, 0,12, 4, 0, 0, 0, 0, 0,13, 0, 0, 5, 0, 0, 0,14, 0, 0, 0, 0, 6, 0,15, 0, 0, 0, 0, 0, 0, 7,
];
// prettier-ignore
const FLAP: StaticArray<u8> = [
   0, 0, 0, 0, 0, 0, 0, 0, 0, 6,12,18,18,12, 6, 0, 1, 7,13,19,19,13, 7, 1, 2, 8,14,20,20,14, 8, 2,
   3, 9,15,21,21,15, 9, 3, 4,10,16,22,22,16,10, 4, 5,11,17,23,23,17,11, 5, 0, 0, 0, 0, 0, 0, 0, 0,
];
// prettier-ignore
const PAWN_TWIST: StaticArray<u8> = [
   0, 0, 0, 0, 0, 0, 0, 0,47,35,23,11,10,22,34,46,45,33,21, 9, 8,20,32,44,43,31,19, 7, 6,18,30,42,
  41,29,17, 5, 4,16,28,40,39,27,15, 3, 2,14,26,38,37,25,13, 1, 0,12,24,36, 0, 0, 0, 0, 0, 0, 0, 0,
];
/** KK_IDX[t * 64 + s]: the index of two kings, the first on the square whose TRIANGLE value is
 *  t and the other on s (-1: touching, or the second above the diagonal the first is on);
 *  462 in all, both-on-the-diagonal last (Fathom's KK_idx table, made by initIndices). */
const KK_IDX = new StaticArray<i16>(10 * 64);
const FILE_TO_FILE: StaticArray<u8> = [0, 1, 2, 3, 3, 2, 1, 0];
const WDL_TO_MAP: StaticArray<i32> = [1, 3, 0, 2, 0];
const PA_FLAGS: StaticArray<u8> = [8, 0, 0, 0, 4];

// BINOMIAL[k * 64 + n] = C(n, k); PAWN_IDX[k * 24 + j]; PAWN_FACTOR_FILE[k * 4 + f].
const BINOMIAL = new StaticArray<u64>(7 * 64);
const PAWN_IDX = new StaticArray<u64>(6 * 24);
const PAWN_FACTOR_FILE = new StaticArray<u64>(6 * 4);
let indicesReady = false;

/** Fills KK_IDX as the generator numbers two kings: for each TRIANGLE value t in turn, the
 *  first king on its square of the a1-d1-d4 triangle and the second anywhere not touching it
 *  (and not above the diagonal when the first is on it); both on the diagonal come last. */
function initKkIndex(): void {
  for (let i = 0; i < 10 * 64; i++) KK_IDX[i] = -1;
  let code: i16 = 0;
  const last = new StaticArray<i32>(64); // (t, s) pairs with both kings on the diagonal
  let lastCount = 0;
  for (let t = 0; t < 10; t++)
    for (let s1 = 0; s1 < 64; s1++) {
      if ((s1 & 7) > 3 || s1 >> 3 > (s1 & 7) || <i32>TRIANGLE[s1] != t) continue;
      for (let s2 = 0; s2 < 64; s2++) {
        if (max(abs((s1 & 7) - (s2 & 7)), abs((s1 >> 3) - (s2 >> 3))) <= 1) continue;
        if (OFF_DIAG[s1] == 0 && OFF_DIAG[s2] > 0) continue;
        if (OFF_DIAG[s1] == 0 && OFF_DIAG[s2] == 0) last[lastCount++] = t * 64 + s2;
        else KK_IDX[t * 64 + s2] = code++;
      }
    }
  for (let i = 0; i < lastCount; i++) KK_IDX[last[i]] = code++;
}

function initIndices(): void {
  initKkIndex();
  for (let i = 0; i < 7; i++)
    for (let j = 0; j < 64; j++) {
      let f: u64 = 1;
      let l: u64 = 1;
      for (let k = 0; k < i; k++) {
        f *= <u64>(j - k);
        l *= <u64>(k + 1);
      }
      BINOMIAL[i * 64 + j] = j - i + 1 > 0 || i == 0 ? f / l : 0;
    }
  for (let i = 0; i < 6; i++) {
    let s: u64 = 0;
    for (let j = 0; j < 24; j++) {
      PAWN_IDX[i * 24 + j] = s;
      s += BINOMIAL[i * 64 + PAWN_TWIST[(1 + (j % 6)) * 8 + j / 6]];
      if ((j + 1) % 6 == 0) {
        PAWN_FACTOR_FILE[i * 4 + j / 6] = s;
        s = 0;
      }
    }
  }
  indicesReady = true;
}

// ---------------------------------------------------------------- tables

/** How one table (a side to move, a leading pawn file) is compressed. */
class PairsData {
  idxBits: i32 = 0;
  constValue: i32 = 0;
  blockSize: i32 = 0;
  minLen: i32 = 0;
  numSyms: i32 = 0;
  numBlocks: u32 = 0;
  realNumBlocks: u32 = 0;
  numIndices: u64 = 0;
  indexTable: u64 = 0;
  sizeTable: u64 = 0;
  data: u64 = 0;
  /** The symbols' patterns (3 bytes each, as in the file after the offsets), copied in at
   *  set-up. */
  pat: StaticArray<u8> = new StaticArray<u8>(0);
  offsets: StaticArray<u16> = new StaticArray<u16>(0);
  base: StaticArray<u64> = new StaticArray<u64>(0);
  symLen: StaticArray<u8> = new StaticArray<u8>(0);
}

/** How the pieces of one table are put into an index. */
class EncInfo {
  precomp: PairsData | null = null;
  factor: StaticArray<u64> = new StaticArray<u64>(TB_PIECES_MAX);
  pieces: StaticArray<u8> = new StaticArray<u8>(TB_PIECES_MAX);
  norm: StaticArray<u8> = new StaticArray<u8>(TB_PIECES_MAX);
}

const STATE_CLOSED: u8 = 0;
const STATE_READY: u8 = 1;
const STATE_ERROR: u8 = 2;

/** One material signature (e.g. KRPvKR): its WDL and DTZ files. */
class TbEntry {
  name: string = "";
  key: u64 = 0;
  num: i32 = 0;
  symmetric: bool = false;
  hasPawns: bool = false;
  kkEnc: bool = false;
  pawns0: i32 = 0;
  pawns1: i32 = 0;
  counts: StaticArray<i32> = new StaticArray<i32>(16);
  file: StaticArray<i32> = [-1, -1];
  state: StaticArray<u8> = [0, 0];
  // WDL: 2 (pieces) or 8 (pawns: 4 files × 2 sides); DTZ: 1 or 4.
  wdl: Array<EncInfo> = [];
  dtz: Array<EncInfo> = [];
  dtzFlags: StaticArray<u8> = new StaticArray<u8>(4);
  dtzMap: u64 = 0;
  dtzMapIdx: StaticArray<u32> = new StaticArray<u32>(16);
}

const entries = new Array<TbEntry>();
const entryByKey = new Map<u64, i32>();
/** Most pieces of a registered table (0: none). */
export let tbLargest = 0;

// Fathom's material key: a sum of a large odd constant per piece (kings count nothing).
const PRIME_W: StaticArray<u64> = [0, 17008651141875982339, 15202887380319082783, 12311744257139811149, 10979190538029446137, 11811845319353239651];
const PRIME_B: StaticArray<u64> = [0, 11695583624105689831, 13469005675588064321, 15394650811035483107, 18264461213049635989, 15484752644942473553];

/** Material key of piece counts pcs[colour * 8 + type], colours swapped when mirror. */
function keyOfCounts(pcs: StaticArray<i32>, mirror: bool): u64 {
  const m = mirror ? 8 : 0;
  let k: u64 = 0;
  for (let pt = PAWN; pt <= QUEEN; pt++) {
    k += <u64>pcs[pt ^ m] * PRIME_W[pt];
    k += <u64>pcs[(8 | pt) ^ m] * PRIME_B[pt];
  }
  return k;
}

/** Material key of the current position (mirror: colours swapped). */
export function positionMaterialKey(mirror: bool): u64 {
  const w = colorBB(mirror ? 1 : 0);
  const b = colorBB(mirror ? 0 : 1);
  let k: u64 = 0;
  for (let pt = PAWN; pt <= QUEEN; pt++) {
    const bb = pieces(pt);
    k += <u64>popcount(w & bb) * PRIME_W[pt];
    k += <u64>popcount(b & bb) * PRIME_B[pt];
  }
  return k;
}

function pieceTypeOfChar(c: i32): i32 {
  if (c == 0x50) return PAWN; // P
  if (c == 0x4e) return KNIGHT; // N
  if (c == 0x42) return BISHOP; // B
  if (c == 0x52) return ROOK; // R
  if (c == 0x51) return QUEEN; // Q
  if (c == 0x4b) return 6; // K
  return 0;
}

function fail(text: string): i32 {
  tbErrorText = text;
  return -1;
}

/** Registers a table file of size bytes by its name ("KRPvKR.rtbw" or ".rtbz", any
 *  directory before it is ignored); returns its file number, which the host's hostTbRead
 *  receives, or -1 (tbErrorText says why). The file is read only when first probed. */
export function addFile(path: string, size: f64): i32 {
  if (!indicesReady) initIndices();
  let name = path;
  const slash = max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  if (slash >= 0) name = path.substring(slash + 1);
  let type = -1;
  if (name.endsWith(".rtbw")) type = TB_WDL;
  else if (name.endsWith(".rtbz")) type = TB_DTZ;
  if (type < 0) return fail(name + ": not a Syzygy WDL (.rtbw) or DTZ (.rtbz) file");
  const stem = name.substring(0, name.length - 5);
  const pcs = new StaticArray<i32>(16);
  let color = -1;
  let num = 0;
  for (let i = 0; i < stem.length; i++) {
    const c = stem.charCodeAt(i);
    if (c == 0x76 && color == 0) {
      color = 8;
      if (i + 1 >= stem.length || stem.charCodeAt(i + 1) != 0x4b) return fail(name + ": not a table name");
      continue;
    }
    const pt = pieceTypeOfChar(c);
    if (pt == 0 || (i == 0 && pt != 6) || (pt == 6 && i > 0 && stem.charCodeAt(i - 1) != 0x76)) return fail(name + ": not a table name");
    if (color < 0) color = 0;
    pcs[pt | color]++;
    num++;
  }
  if (color != 8) return fail(name + ": not a table name");
  if (num > TB_PIECES_MAX) return fail(name + ": more than 7 pieces");
  if (size < 16 || size > 9007199254740992 || (<u64>size & 63) != 16) return fail(name + ": incomplete file (its size is not 16 mod 64)");
  if (fileCount >= FILE_MAX) return fail(name + ": too many files");
  const key = keyOfCounts(pcs, false);
  const key2 = keyOfCounts(pcs, true);
  let index = entryByKey.has(key) ? entryByKey.get(key) : -1;
  if (index < 0) {
    const e = new TbEntry();
    e.name = stem;
    for (let i = 0; i < 16; i++) e.counts[i] = pcs[i];
    e.key = key;
    e.num = num;
    e.symmetric = key == key2;
    e.hasPawns = pcs[PAWN] + pcs[8 | PAWN] > 0;
    if (!e.hasPawns) {
      let j = 0;
      for (let i = 0; i < 16; i++) if (pcs[i] == 1) j++;
      e.kkEnc = j == 2;
    } else {
      e.pawns0 = pcs[PAWN];
      e.pawns1 = pcs[8 | PAWN];
      if (pcs[8 | PAWN] > 0 && (pcs[PAWN] == 0 || pcs[PAWN] > pcs[8 | PAWN])) {
        e.pawns0 = pcs[8 | PAWN];
        e.pawns1 = pcs[PAWN];
      }
    }
    index = entries.length;
    entries.push(e);
    entryByKey.set(key, index);
    if (key2 != key) entryByKey.set(key2, index);
  }
  const e = entries[index];
  if (e.file[type] >= 0) return fail(name + ": already registered (the first one found is used)");
  const file = fileCount++;
  fileSizes[file] = size;
  fileNames.push(name);
  e.file[type] = file;
  e.state[type] = STATE_CLOSED;
  if (type == TB_WDL && num > tbLargest) tbLargest = num;
  return file;
}

/** Forgets every registered file and empties the cache. */
export function clearFiles(): void {
  entries.length = 0;
  entryByKey.clear();
  fileNames.length = 0;
  fileCount = 0;
  tbLargest = 0;
  cacheData = null;
  cacheSets = 0;
  lastFile = -1;
  tbErrorText = "";
}

// ---------------------------------------------------------------- opening a table

/** Number of tables of a type in an entry (init_table's num_tables). */
function tableCount(e: TbEntry): i32 {
  return e.hasPawns ? 4 : 1;
}

function subfactor(k: u64, n: u64): u64 {
  let f = n;
  let l: u64 = 1;
  for (let i: u64 = 1; i < k; i++) {
    f *= n - i;
    l *= i + 1;
  }
  return f / l;
}

/** init_enc_info: reads the piece order at tb and computes the factors; returns the size of
 *  the table's index range. */
function initEncInfo(ei: EncInfo, e: TbEntry, file: i32, tb: u64, shift: u32, t: i32, pawnEnc: bool): u64 {
  const morePawns = pawnEnc && e.pawns1 > 0;
  const mp: u64 = morePawns ? 1 : 0;
  for (let i = 0; i < e.num; i++) {
    ei.pieces[i] = <u8>((byteAt(file, tb + <u64>i + 1 + mp) >> shift) & 0x0f);
    ei.norm[i] = 0;
  }
  if (!piecesMatch(ei, e)) {
    headerBad = true;
    readFailed();
    return 0;
  }
  const order = <i32>(byteAt(file, tb) >> shift) & 0x0f;
  const order2 = morePawns ? <i32>(byteAt(file, tb + 1) >> shift) & 0x0f : 0x0f;
  let k = pawnEnc ? e.pawns0 : e.kkEnc ? 2 : 3;
  ei.norm[0] = <u8>k;
  if (morePawns) {
    ei.norm[k] = <u8>e.pawns1;
    k += e.pawns1;
  }
  for (let i = k; i < e.num; i += ei.norm[i]) {
    for (let j = i; j < e.num && ei.pieces[j] == ei.pieces[i]; j++) ei.norm[i]++;
  }
  let n = 64 - k;
  let f: u64 = 1;
  for (let i = 0; k < e.num || i == order || i == order2; i++) {
    if (i > 16) {
      headerBad = true;
      readFailed();
      return 0;
    }
    if (i == order) {
      ei.factor[0] = f;
      f *= pawnEnc ? PAWN_FACTOR_FILE[(<i32>ei.norm[0] - 1) * 4 + t] : e.kkEnc ? 462 : 31332;
    } else if (i == order2) {
      ei.factor[ei.norm[0]] = f;
      f *= subfactor(<u64>ei.norm[ei.norm[0]], <u64>(48 - ei.norm[0]));
    } else {
      ei.factor[k] = f;
      f *= subfactor(<u64>ei.norm[k], <u64>n);
      n -= ei.norm[k];
      k += ei.norm[k];
    }
  }
  return f;
}

/** True when a table's piece list is the entry's material (either colour first). */
function piecesMatch(ei: EncInfo, e: TbEntry): bool {
  const n = new StaticArray<i32>(16);
  for (let i = 0; i < e.num; i++) {
    const pc = <i32>ei.pieces[i];
    if ((pc & 7) == 0 || (pc & 7) == 7) return false;
    n[pc]++;
  }
  let same = true;
  let swapped = true;
  for (let i = 0; i < 16; i++) {
    if (n[i] != e.counts[i]) same = false;
    if (n[i] != e.counts[i ^ 8]) swapped = false;
  }
  return same || swapped;
}

/** Set when a table's piece list is not its file name's material. */
let headerBad = false;

// setup_pairs' other results.
let pairsNext: u64 = 0;
let pairsFlags: i32 = 0;
let pairsSize0: u64 = 0;
let pairsSize1: u64 = 0;
let pairsSize2: u64 = 0;

/** calc_symLen: the length of symbol s; tmp: 0 unknown, 1 known, 2 being computed (a
 *  loop in a corrupt file). False when the symbol tree is not a tree. */
function symbolLength(d: PairsData, s: i32, tmp: StaticArray<u8>): bool {
  const b0 = <u32>d.pat[3 * s];
  const b1 = <u32>d.pat[3 * s + 1];
  const b2 = <u32>d.pat[3 * s + 2];
  const s2 = <i32>((b2 << 4) | (b1 >> 4));
  unchecked((tmp[s] = 2));
  if (s2 == 0x0fff) {
    d.symLen[s] = 0;
  } else {
    const s1 = <i32>(((b1 & 0xf) << 8) | b0);
    if (s1 >= d.numSyms || s2 >= d.numSyms) return false;
    if (tmp[s1] == 2 || tmp[s2] == 2) return false;
    if (tmp[s1] == 0 && !symbolLength(d, s1, tmp)) return false;
    if (tmp[s2] == 0 && !symbolLength(d, s2, tmp)) return false;
    const len = <i32>d.symLen[s1] + <i32>d.symLen[s2] + 1;
    if (len > 255) return false;
    d.symLen[s] = <u8>len;
  }
  tmp[s] = 1;
  return true;
}

/** setup_pairs: reads one table's compression header at ptr; null on a corrupt header. */
function setupPairs(file: i32, ptr: u64, tbSize: u64, type: i32): PairsData | null {
  const d = new PairsData();
  const flags = <i32>byteAt(file, ptr);
  pairsFlags = flags;
  if (flags & 0x80) {
    d.idxBits = 0;
    d.constValue = type == TB_WDL ? <i32>byteAt(file, ptr + 1) : 0;
    pairsNext = ptr + 2;
    pairsSize0 = pairsSize1 = pairsSize2 = 0;
    return ioError ? null : d;
  }
  const blockSize = <i32>byteAt(file, ptr + 1);
  const idxBits = <i32>byteAt(file, ptr + 2);
  const realNumBlocks = le32(file, ptr + 4);
  const numBlocks = realNumBlocks + byteAt(file, ptr + 3);
  const maxLen = <i32>byteAt(file, ptr + 8);
  const minLen = <i32>byteAt(file, ptr + 9);
  const h = maxLen - minLen + 1;
  if (ioError || blockSize > 30 || idxBits < 1 || idxBits > 40 || minLen < 1 || maxLen > 64 || h < 1) return null;
  const numSyms = <i32>le16(file, ptr + 10 + 2 * <u64>h);
  if (numSyms >= MAX_SYMS || numSyms < 1) return null;
  d.blockSize = blockSize;
  d.idxBits = idxBits;
  d.minLen = minLen;
  d.numSyms = numSyms;
  d.numBlocks = numBlocks;
  d.realNumBlocks = realNumBlocks;
  d.offsets = new StaticArray<u16>(h);
  for (let i = 0; i < h; i++) d.offsets[i] = <u16>le16(file, ptr + 10 + 2 * <u64>i);
  pairsNext = ptr + 12 + 2 * <u64>h + 3 * <u64>numSyms + <u64>(numSyms & 1);
  d.numIndices = (tbSize + (<u64>1 << idxBits) - 1) >> idxBits;
  pairsSize0 = 6 * d.numIndices;
  pairsSize1 = 2 * <u64>numBlocks;
  pairsSize2 = <u64>realNumBlocks << blockSize;
  const symPat = ptr + 12 + 2 * <u64>h;
  d.pat = new StaticArray<u8>(3 * numSyms);
  for (let i = 0; i < 3 * numSyms; i++) unchecked((d.pat[i] = <u8>byteAt(file, symPat + <u64>i)));
  if (ioError) return null;
  d.symLen = new StaticArray<u8>(numSyms);
  const tmp = new StaticArray<u8>(numSyms);
  for (let s = 0; s < numSyms; s++) if (tmp[s] == 0 && !symbolLength(d, s, tmp)) return null;
  const base = new StaticArray<u64>(h);
  base[h - 1] = 0;
  for (let i = h - 2; i >= 0; i--) {
    base[i] = (base[i + 1] + <u64>d.offsets[i] - <u64>d.offsets[i + 1]) / 2;
  }
  for (let i = 0; i < h; i++) base[i] <<= <u64>(64 - (minLen + i));
  d.base = base;
  return ioError ? null : d;
}

/** init_table: reads the header of an entry's table of a type; false (tbErrorText set) on a
 *  bad file. */
function initTable(e: TbEntry, type: i32): bool {
  const file = e.file[type];
  const fileName = fileNames[file];
  ioError = false;
  headerBad = false;
  if (le32(file, 0) != (type == TB_WDL ? MAGIC_WDL : MAGIC_DTZ) || ioError) {
    tableError(fileName + (ioError ? ": cannot be read (the host gave fewer bytes than asked)" : ": bad magic number (not a Syzygy table, or corrupt)"));
    return false;
  }
  const split = type != TB_DTZ && (byteAt(file, 4) & 1) != 0;
  let data: u64 = 5;
  const num = tableCount(e);
  const ei = new Array<EncInfo>(type == TB_WDL ? 2 * num : num);
  for (let i = 0; i < ei.length; i++) ei[i] = new EncInfo();
  const tbSize = new StaticArray<u64>(8);
  for (let t = 0; t < num; t++) {
    tbSize[2 * t] = initEncInfo(ei[t], e, file, data, 0, t, e.hasPawns);
    if (split) tbSize[2 * t + 1] = initEncInfo(ei[num + t], e, file, data, 4, t, e.hasPawns);
    data += <u64>(e.num + 1 + (e.hasPawns && e.pawns1 > 0 ? 1 : 0));
  }
  data += data & 1;
  const sizes = new StaticArray<u64>(24); // [t][split][3]
  for (let t = 0; t < num; t++) {
    let d = setupPairs(file, data, tbSize[2 * t], type);
    if (d == null) return corrupt(fileName);
    ei[t].precomp = d;
    data = pairsNext;
    sizes[t * 6] = pairsSize0;
    sizes[t * 6 + 1] = pairsSize1;
    sizes[t * 6 + 2] = pairsSize2;
    if (type == TB_DTZ) e.dtzFlags[t] = <u8>pairsFlags;
    if (split) {
      d = setupPairs(file, data, tbSize[2 * t + 1], type);
      if (d == null) return corrupt(fileName);
      ei[num + t].precomp = d;
      data = pairsNext;
      sizes[t * 6 + 3] = pairsSize0;
      sizes[t * 6 + 4] = pairsSize1;
      sizes[t * 6 + 5] = pairsSize2;
    }
  }
  if (type == TB_DTZ) data = readDtzMaps(e, file, num, data);
  data = placeTables(ei, num, split ? 2 : 1, sizes, data);
  if (ioError) return corrupt(fileName);
  if (data > <u64>fileSizes[file]) {
    tableError(fileName + ": truncated (its tables need " + data.toString() + " bytes, the file has " + (<u64>fileSizes[file]).toString() + ")");
    return false;
  }
  if (type == TB_WDL) e.wdl = ei;
  else e.dtz = ei;
  return true;
}

/** The DTZ tables' maps from stored values to plies (read at data); returns where the
 *  table data begins. */
function readDtzMaps(e: TbEntry, file: i32, num: i32, data: u64): u64 {
  e.dtzMap = data;
  for (let t = 0; t < num; t++) {
    const flags = e.dtzFlags[t];
    if (!(flags & 2)) continue;
    if (!(flags & 16)) {
      for (let i = 0; i < 4; i++) {
        e.dtzMapIdx[t * 4 + i] = <u32>(data + 1 - e.dtzMap);
        data += 1 + <u64>byteAt(file, data);
      }
    } else {
      data += data & 1;
      for (let i = 0; i < 4; i++) {
        e.dtzMapIdx[t * 4 + i] = <u32>((data - e.dtzMap) / 2 + 1);
        data += 2 + 2 * <u64>le16(file, data);
      }
    }
  }
  return data + (data & 1);
}

/** Where each table's index, block sizes and compressed blocks are (sizes[t * 6 + part * 3
 *  + 0..2], from setupPairs), from data on; returns the end of the last. */
function placeTables(ei: Array<EncInfo>, num: i32, parts: i32, sizes: StaticArray<u64>, data: u64): u64 {
  for (let t = 0; t < num; t++)
    for (let s = 0; s < parts; s++) {
      ei[s * num + t].precomp!.indexTable = data;
      data += sizes[t * 6 + s * 3];
    }
  for (let t = 0; t < num; t++)
    for (let s = 0; s < parts; s++) {
      ei[s * num + t].precomp!.sizeTable = data;
      data += sizes[t * 6 + s * 3 + 1];
    }
  for (let t = 0; t < num; t++)
    for (let s = 0; s < parts; s++) {
      data = (data + 0x3f) & ~(<u64>0x3f);
      ei[s * num + t].precomp!.data = data;
      data += sizes[t * 6 + s * 3 + 2];
    }
  return data;
}

function corrupt(fileName: string): bool {
  if (headerBad) tableError(fileName + ": corrupt table header (its pieces are not those of its name)");
  else tableError(fileName + (ioError ? ": truncated or unreadable (a read past its end, or the host gave fewer bytes than asked)" : ": corrupt table header"));
  return false;
}

// ---------------------------------------------------------------- decompression

/** decompress_pairs: the two bytes of the value at index idx (w[0] | w[1] << 8), or -1 when
 *  the file is corrupt or unreadable. */
function decompressPairs(d: PairsData, file: i32, idx: u64): i32 {
  if (d.idxBits == 0) return d.constValue;
  const mainIdx = idx >> d.idxBits;
  if (mainIdx >= d.numIndices) return -1;
  let litIdx = <i64>(idx & ((<u64>1 << d.idxBits) - 1)) - (<i64>1 << (d.idxBits - 1));
  const entry = d.indexTable + 6 * mainIdx;
  let block = <i64>le32(file, entry);
  litIdx += <i64>le16(file, entry + 4);
  const numBlocks = <i64>d.numBlocks;
  if (litIdx < 0) {
    while (litIdx < 0) {
      if (--block < 0 || ioError) return -1;
      litIdx += <i64>le16(file, d.sizeTable + 2 * <u64>block) + 1;
    }
  } else {
    while (block < numBlocks && litIdx > <i64>le16(file, d.sizeTable + 2 * <u64>block)) {
      if (ioError) return -1;
      litIdx -= <i64>le16(file, d.sizeTable + 2 * <u64>block) + 1;
      block++;
    }
  }
  if (block < 0 || block >= <i64>d.realNumBlocks || ioError) return -1;
  let ptr = d.data + (<u64>block << d.blockSize);
  const m = d.minLen;
  const base = d.base;
  const symLen = d.symLen;
  const offsets = d.offsets;
  let code: u64 = (<u64>be32(file, ptr) << 32) | <u64>be32(file, ptr + 4);
  ptr += 8;
  let bitCnt = 0;
  let sym = 0;
  // litIdx is now at most a block's last index (a 16-bit size), and every symbol passed takes
  // at least 1 from it: the loop ends, whatever the bytes.
  const numSyms = d.numSyms;
  for (;;) {
    let l = 0;
    while (code < unchecked(base[l])) l++; // base[h - 1] is 0: l stays below h
    const len = l + m;
    sym = <i32>unchecked(offsets[l]) + <i32>((code - unchecked(base[l])) >> <u64>(64 - len));
    if (<u32>sym >= <u32>numSyms) return -1;
    const n = <i64>unchecked(symLen[sym]) + 1;
    if (litIdx < n) break;
    litIdx -= n;
    code <<= <u64>len;
    bitCnt += len;
    if (bitCnt >= 32) {
      bitCnt -= 32;
      code |= <u64>be32(file, ptr) << <u64>bitCnt;
      ptr += 4;
      if (ioError) return -1;
    }
  }
  const pat = d.pat;
  while (unchecked(symLen[sym]) != 0) {
    const w = 3 * sym;
    const b1 = <i32>unchecked(pat[w + 1]);
    const s1 = ((b1 & 0xf) << 8) | <i32>unchecked(pat[w]);
    if (s1 >= numSyms) return -1;
    if (litIdx < <i64>unchecked(symLen[s1]) + 1) {
      sym = s1;
    } else {
      litIdx -= <i64>unchecked(symLen[s1]) + 1;
      sym = (<i32>unchecked(pat[w + 2]) << 4) | (b1 >> 4);
    }
    if (sym >= numSyms) return -1;
  }
  const w = 3 * sym;
  return <i32>unchecked(pat[w]) | (<i32>unchecked(pat[w + 1]) << 8);
}

// ---------------------------------------------------------------- encoding a position

const sq = new StaticArray<i32>(TB_PIECES_MAX);

function encode(ei: EncInfo, e: TbEntry, pawnEnc: bool): u64 {
  const n = e.num;
  let idx: u64;
  let k: i32;
  if (sq[0] & 0x04) for (let i = 0; i < n; i++) sq[i] ^= 0x07;
  if (!pawnEnc) {
    if (sq[0] & 0x20) for (let i = 0; i < n; i++) sq[i] ^= 0x38;
    for (let i = 0; i < n; i++) {
      const od = OFF_DIAG[sq[i]];
      if (od != 0) {
        if (od > 0 && i < (e.kkEnc ? 2 : 3)) for (let j = 0; j < n; j++) sq[j] = ((sq[j] >> 3) | (sq[j] << 3)) & 63;
        break;
      }
    }
    if (e.kkEnc) {
      idx = <u64>KK_IDX[<i32>TRIANGLE[sq[0]] * 64 + sq[1]];
      k = 2;
    } else {
      const p0 = sq[0], p1 = sq[1], p2 = sq[2];
      const s1 = p1 > p0 ? 1 : 0;
      const s2 = (p2 > p0 ? 1 : 0) + (p2 > p1 ? 1 : 0);
      if (OFF_DIAG[p0]) idx = <u64>(<i32>TRIANGLE[p0] * 63 * 62 + (p1 - s1) * 62 + (p2 - s2));
      else if (OFF_DIAG[p1]) idx = <u64>(6 * 63 * 62 + <i32>DIAG[p0] * 28 * 62 + <i32>LOWER[p1] * 62 + p2 - s2);
      else if (OFF_DIAG[p2]) idx = <u64>(6 * 63 * 62 + 4 * 28 * 62 + <i32>DIAG[p0] * 7 * 28 + (<i32>DIAG[p1] - s1) * 28 + <i32>LOWER[p2]);
      else idx = <u64>(6 * 63 * 62 + 4 * 28 * 62 + 4 * 7 * 28 + <i32>DIAG[p0] * 7 * 6 + (<i32>DIAG[p1] - s1) * 6 + (<i32>DIAG[p2] - s2));
      k = 3;
    }
    idx *= ei.factor[0];
  } else {
    const p0n = e.pawns0;
    for (let i = 1; i < p0n; i++)
      for (let j = i + 1; j < p0n; j++)
        if (PAWN_TWIST[sq[i]] < PAWN_TWIST[sq[j]]) {
          const x = sq[i];
          sq[i] = sq[j];
          sq[j] = x;
        }
    k = p0n;
    idx = PAWN_IDX[(k - 1) * 24 + <i32>FLAP[sq[0]]];
    for (let i = 1; i < k; i++) idx += BINOMIAL[(k - i) * 64 + <i32>PAWN_TWIST[sq[i]]];
    idx *= ei.factor[0];
    if (e.pawns1 > 0) {
      const t = k + e.pawns1;
      sortRange(k, t);
      let s: u64 = 0;
      for (let i = k; i < t; i++) {
        const x = sq[i];
        let skips = 0;
        for (let j = 0; j < k; j++) skips += x > sq[j] ? 1 : 0;
        s += BINOMIAL[(i - k + 1) * 64 + x - skips - 8];
      }
      idx += s * ei.factor[k];
      k = t;
    }
  }
  while (k < n) {
    const t = k + <i32>ei.norm[k];
    if (t == k) return 0;
    sortRange(k, t);
    let s: u64 = 0;
    for (let i = k; i < t; i++) {
      const x = sq[i];
      let skips = 0;
      for (let j = 0; j < k; j++) skips += x > sq[j] ? 1 : 0;
      s += BINOMIAL[(i - k + 1) * 64 + x - skips];
    }
    idx += s * ei.factor[k];
    k = t;
  }
  return idx;
}

function sortRange(from: i32, to: i32): void {
  for (let i = from; i < to; i++)
    for (let j = i + 1; j < to; j++)
      if (sq[i] > sq[j]) {
        const x = sq[i];
        sq[i] = sq[j];
        sq[j] = x;
      }
}

/** fill_squares: the squares of the pieces of code pc[i] (colours swapped when flip, ranks
 *  mirrored by mirror), from sq[i] on; returns the next free index. */
function fillSquares(ei: EncInfo, flip: bool, mirror: i32, i: i32, n: i32): i32 {
  const pc = <i32>ei.pieces[i];
  const color = (pc >> 3) ^ (flip ? 1 : 0);
  let bb: Bitboard = piecesOf(color, pc & 7);
  if (bb == 0) return n + 1;
  do {
    if (i >= n) return n + 1;
    sq[i++] = lsb(bb) ^ mirror;
    bb &= bb - 1;
  } while (bb);
  return i;
}

// ---------------------------------------------------------------- probing a table

/** Result of the last probeTable: 1 done, 0 failed (no table, or a bad one), -1 (DTZ) the
 *  table holds the other side to move. */
export let tableStatus: i32 = 0;

/** The entry of the current position's material (null when none is registered). */
function entryOf(key: u64): TbEntry | null {
  if (!entryByKey.has(key)) return null;
  return entries[entryByKey.get(key)];
}

/** probe_table: the raw value of the current position in its WDL table (-2..2) or DTZ table
 *  (s: its WDL value, -2..2; the result in plies or moves as the table stores it, made plies
 *  as Fathom makes them). tableStatus tells whether it worked. */
export function probeTable(type: i32, s: i32): i32 {
  const key = positionMaterialKey(false);
  tableStatus = 0;
  if (type == TB_WDL && key == 0) {
    tableStatus = 1;
    return 0; // KvK
  }
  const e = entryOf(key);
  if (e == null || e.file[type] < 0 || e.state[type] == STATE_ERROR) return 0;
  if (e.state[type] == STATE_CLOSED) {
    if (!initTable(e, type)) {
      e.state[type] = STATE_ERROR;
      return 0;
    }
    e.state[type] = STATE_READY;
  }
  let flip: bool, bside: i32;
  if (!e.symmetric) {
    flip = key != e.key;
    bside = (sideToMove == WHITE) == flip ? 1 : 0;
  } else {
    flip = sideToMove != WHITE;
    bside = 0;
  }
  const list = type == TB_WDL ? e.wdl : e.dtz;
  const file = e.file[type];
  let ei: EncInfo;
  let idx: u64;
  let t = 0;
  let flags = 0;
  if (!e.hasPawns) {
    if (type == TB_DTZ) {
      flags = e.dtzFlags[0];
      if ((flags & 1) != bside && !e.symmetric) {
        tableStatus = -1;
        return 0;
      }
    }
    ei = type == TB_WDL ? list[bside] : list[0];
    let i = 0;
    while (i < e.num) i = fillSquares(ei, flip, 0, i, e.num);
    if (i != e.num) return 0;
    idx = encode(ei, e, false);
  } else {
    const mirror = flip ? 0x38 : 0;
    let i = fillSquares(list[0], flip, mirror, 0, e.num);
    if (i > e.num) return 0;
    // leading_pawn
    for (let j = 1; j < e.pawns0; j++)
      if (FLAP[sq[0]] > FLAP[sq[j]]) {
        const x = sq[0];
        sq[0] = sq[j];
        sq[j] = x;
      }
    t = <i32>FILE_TO_FILE[sq[0] & 7];
    if (type == TB_DTZ) {
      flags = e.dtzFlags[t];
      if ((flags & 1) != bside && !e.symmetric) {
        tableStatus = -1;
        return 0;
      }
    }
    ei = type == TB_WDL ? list[t + 4 * bside] : list[t];
    while (i < e.num) i = fillSquares(ei, flip, mirror, i, e.num);
    if (i != e.num) return 0;
    idx = encode(ei, e, true);
  }
  ioError = false;
  const w = ei.precomp == null ? -1 : decompressPairs(ei.precomp!, file, idx);
  if (w < 0) {
    e.state[type] = STATE_ERROR;
    tableError(fileNames[file] + ": corrupt or unreadable data");
    return 0;
  }
  if (type == TB_WDL) {
    const wdl = (w & 0xff) - 2;
    if (wdl < -2 || wdl > 2) {
      e.state[type] = STATE_ERROR;
      tableError(fileNames[file] + ": corrupt data (a WDL value out of range)");
      return 0;
    }
    tableStatus = 1;
    return wdl;
  }
  tableStatus = 1;
  let v = (w & 0xff) + (((w >> 8) & 0x0f) << 8);
  if (flags & 2) {
    const m = WDL_TO_MAP[s + 2];
    const at = <u64>e.dtzMapIdx[t * 4 + m] + <u64>v;
    if (!(flags & 16)) v = <i32>byteAt(file, e.dtzMap + at);
    else v = <i32>le16(file, e.dtzMap + 2 * at);
    if (ioError) {
      e.state[type] = STATE_ERROR;
      tableStatus = 0;
      tableError(fileNames[file] + ": corrupt or unreadable DTZ map");
      return 0;
    }
  }
  if (!(flags & PA_FLAGS[s + 2]) || (s & 1)) v *= 2;
  return v;
}
