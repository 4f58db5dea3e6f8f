// Fits the win/draw/loss model of the engine's scores to self-play games, as Stockfish does
// (its win_rate_model): for a score x (centipawns, one side's view) and the material m on the
// board (pawns 1, minors 3, rooks 5, queens 9, clamped to 17..78, divided by 58),
//
//   P(win) = 1 / (1 + exp((a(m) - x) / b(m))),  P(loss) = 1 / (1 + exp((a(m) + x) / b(m))),
//   P(draw) = 1 - P(win) - P(loss),  a and b cubic polynomials in m,
//
// fitted by maximum likelihood (Adam) over the records' search scores and results, and written
// to assembly/wdl.ts. a(m) is the score with an even chance of winning at that material (a
// score normalised as cp * 100 / a(m) would mean a 50% win chance at 100).
//
//   npx tsx learn/wdl-fit.ts --data data/<name> [--positions N] [--write]

import { parseArgs } from "node:util";
import { writeFileSync } from "node:fs";
import { dataFiles, readRecords, recordResult, recordScore, RECORD_BYTES } from "./records.js";

const { values } = parseArgs({
  options: {
    data: { type: "string", multiple: true },
    positions: { type: "string", default: "2000000" },
    write: { type: "boolean", default: false },
  },
});
if (!values.data?.length) throw new Error("--data PATH is required");

// Material of a record from its 4-bit piece codes (type 0 pawn .. 4 queen, 6 castling rook).
const VALUE = [1, 3, 3, 5, 9, 0, 5, 0];
function material(bytes: Uint8Array, i: number): number {
  const base = i * RECORD_BYTES;
  let occ = 0;
  for (let k = 0; k < 8; k++) occ += popcount8(bytes[base + k]);
  let m = 0;
  for (let k = 0; k < occ; k++) m += VALUE[(bytes[base + 8 + (k >> 1)] >> ((k & 1) * 4)) & 7];
  return m;
}
function popcount8(b: number): number {
  let n = 0;
  for (; b; b &= b - 1) n++;
  return n;
}

const files = values.data.flatMap(dataFiles);
const limit = Number(values.positions);
const xs: number[] = [];
const ms: number[] = [];
const ys: number[] = []; // 2 white won, 1 draw, 0 black won
for (const chunk of readRecords(files)) {
  for (let i = 0; i < chunk.count && xs.length < limit; i++) {
    const x = recordScore(chunk.bytes, i);
    if (Math.abs(x) > 4000) continue;
    xs.push(x);
    ms.push(Math.min(78, Math.max(17, material(chunk.bytes, i))) / 58);
    ys.push(recordResult(chunk.bytes, i));
  }
  if (xs.length >= limit) break;
}
const n = xs.length;
console.log(`${n} positions from ${files.join(", ")}`);

// Parameters: a0..a3, b0..b3 (polynomial coefficients, highest power first).
const theta = [0, 0, 0, 150, 0, 0, 0, 80];
const poly = (c: number[], off: number, m: number) => ((c[off] * m + c[off + 1]) * m + c[off + 2]) * m + c[off + 3];
function nll(t: number[], grad?: number[]): number {
  let sum = 0;
  if (grad) grad.fill(0);
  for (let i = 0; i < n; i++) {
    const m = ms[i];
    const a = poly(t, 0, m);
    const b = Math.max(poly(t, 4, m), 1);
    const x = xs[i];
    const w = 1 / (1 + Math.exp((a - x) / b));
    const l = 1 / (1 + Math.exp((a + x) / b));
    const d = Math.max(1 - w - l, 1e-9);
    const p = ys[i] === 2 ? w : ys[i] === 0 ? l : d;
    sum -= Math.log(Math.max(p, 1e-9));
    if (!grad) continue;
    // dP/da and dP/db for the observed outcome.
    const dw_da = -w * (1 - w) / b;
    const dl_da = -l * (1 - l) / b;
    const dw_db = w * (1 - w) * (a - x) / (b * b);
    const dl_db = l * (1 - l) * (a + x) / (b * b);
    const dp_da = ys[i] === 2 ? dw_da : ys[i] === 0 ? dl_da : -dw_da - dl_da;
    const dp_db = ys[i] === 2 ? dw_db : ys[i] === 0 ? dl_db : -dw_db - dl_db;
    const ga = -dp_da / Math.max(p, 1e-9);
    const gb = -dp_db / Math.max(p, 1e-9);
    const powers = [m * m * m, m * m, m, 1];
    for (let k = 0; k < 4; k++) {
      grad[k] += ga * powers[k];
      grad[4 + k] += gb * powers[k];
    }
  }
  return sum / n;
}

const mom = new Array(8).fill(0);
const vel = new Array(8).fill(0);
const grad = new Array(8).fill(0);
for (let step = 1; step <= 1500; step++) {
  const loss = nll(theta, grad);
  const lr = step < 1000 ? 2 : 0.2;
  for (let k = 0; k < 8; k++) {
    const g = grad[k] / n;
    mom[k] = 0.9 * mom[k] + 0.1 * g;
    vel[k] = 0.999 * vel[k] + 0.001 * g * g;
    theta[k] -= (lr * (mom[k] / (1 - 0.9 ** step))) / (Math.sqrt(vel[k] / (1 - 0.999 ** step)) + 1e-12);
  }
  if (step % 500 === 0) console.log(`step ${step}: negative log-likelihood ${loss.toFixed(6)}`);
}
const final = nll(theta);
const round = (v: number) => Math.round(v * 1000) / 1000;
const A = theta.slice(0, 4).map(round);
const Bc = theta.slice(4).map(round);
console.log(`a(m) = ${A.join(", ")}; b(m) = ${Bc.join(", ")}; loss ${final.toFixed(6)}`);
for (const mat of [17, 30, 45, 58, 78]) {
  const m = mat / 58;
  console.log(`material ${mat}: a = ${poly(A, 0, m).toFixed(1)} cp, b = ${poly(Bc, 0, m).toFixed(1)} cp`);
}
if (values.write) {
  const text = `// The win/draw/loss model of the engine's scores, fitted by learn/wdl-fit.ts to self-play
// games (${files.join(", ")}, ${n} positions, negative log-likelihood ${final.toFixed(6)}):
//   npx tsx learn/wdl-fit.ts ${process.argv.slice(2).join(" ")}
// For a score x (centipawns) and the material m on the board (pawns 1, minors 3, rooks 5,
// queens 9, clamped to 17..78, over 58): P(win) = 1 / (1 + exp((a(m) - x) / b(m))),
// P(loss) = 1 / (1 + exp((a(m) + x) / b(m))), P(draw) the rest. a(m) is the score that
// wins half the time at that material.

import { PAWN, KNIGHT, BISHOP, ROOK, QUEEN } from "./types";
import { pieces } from "./position";

const A: StaticArray<f64> = [${A.join(", ")}];
const B: StaticArray<f64> = [${Bc.join(", ")}];

function poly(c: StaticArray<f64>, m: f64): f64 {
  return ((c[0] * m + c[1]) * m + c[2]) * m + c[3];
}

/** Material of the current position on the model's scale (17..78 over 58). */
export function wdlMaterial(): f64 {
  const count =
    <i32>popcnt(pieces(PAWN)) + 3 * <i32>popcnt(pieces(KNIGHT) | pieces(BISHOP)) + 5 * <i32>popcnt(pieces(ROOK)) +
    9 * <i32>popcnt(pieces(QUEEN));
  return <f64>min(max(count, 17), 78) / 58.0;
}

/** Win (part 0), draw (1) or loss (2) probability in permille of score x at material m. */
export function wdlPermille(x: i32, m: f64, part: i32): i32 {
  const a = poly(A, m);
  const b = max(poly(B, m), 1.0);
  const w = <i32>Math.round(1000.0 / (1.0 + Math.exp((a - <f64>x) / b)));
  const l = <i32>Math.round(1000.0 / (1.0 + Math.exp((a + <f64>x) / b)));
  return part == 0 ? w : part == 2 ? l : 1000 - w - l;
}
`;
  writeFileSync(new URL("../assembly/wdl.ts", import.meta.url), text);
  console.log("assembly/wdl.ts written");
}
