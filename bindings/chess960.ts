// The 960 start positions of Chess960 by their standard number (Scharnagl's numbering, 0 to
// 959; 518 is the standard start position), as FEN with X-FEN castling rights.

import { checkInteger } from "./validate.js";

/** Knight placements on the five squares left after the bishops and the queen, by the
 *  number's last digit (0: the first two squares, ..., 9: the last two). */
const KNIGHTS: readonly [number, number][] = [
  [0, 1], [0, 2], [0, 3], [0, 4], [1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4],
];

/** The back rank of start position n, white's pieces from the a-file ("RNBQKBNR" for 518). */
export function chess960BackRank(n: number): string {
  checkInteger("Chess960 position number", n, 0, 959);
  const rank: string[] = new Array(8).fill("");
  rank[2 * (n % 4) + 1] = "B"; // the light-squared bishop: b, d, f or h
  n = Math.floor(n / 4);
  rank[2 * (n % 4)] = "B"; // the dark-squared bishop: a, c, e or g
  n = Math.floor(n / 4);
  const empty = () => rank.flatMap((p, i) => (p === "" ? [i] : []));
  rank[empty()[n % 6]] = "Q";
  n = Math.floor(n / 6);
  const five = empty();
  for (const k of KNIGHTS[n]) rank[five[k]] = "N";
  const [a, b, c] = empty();
  rank[a] = "R";
  rank[b] = "K";
  rank[c] = "R";
  return rank.join("");
}

/** The FEN of Chess960 start position n (an integer from 0 to 959), with the castling rights
 *  as X-FEN writes them ("KQkq": each king castles with the rook on either side):
 *  chess960StartFen(518) is the standard start position. */
export function chess960StartFen(n: number): string {
  const back = chess960BackRank(n);
  return `${back.toLowerCase()}/pppppppp/8/8/8/8/PPPPPPPP/${back} w KQkq - 0 1`;
}
