// Facts read straight off a FEN for display (whose turn, where a king stands, what material a
// side has). The rules themselves — legality, check, the draws — come from the engine.

export type Side = "w" | "b";

/** The side to move of a FEN. */
export function sideToMove(fen: string): Side {
  return fen.split(" ")[1] === "b" ? "b" : "w";
}

/** The other side. */
export function opponent(side: Side): Side {
  return side === "w" ? "b" : "w";
}

/** The pieces of a FEN's placement field by square ("e1" → "K"). */
export function pieces(fen: string): Map<string, string> {
  const out = new Map<string, string>();
  const ranks = fen.split(" ")[0].split("/");
  ranks.forEach((rank, i) => {
    let file = 0;
    for (const ch of rank) {
      if (ch >= "1" && ch <= "8") file += Number(ch);
      else out.set(`${"abcdefgh"[file++]}${8 - i}`, ch);
    }
  });
  return out;
}

/** The square of side's king, if it has one. */
export function kingSquare(fen: string, side: Side): string | undefined {
  const king = side === "w" ? "K" : "k";
  for (const [square, piece] of pieces(fen)) if (piece === king) return square;
  return undefined;
}

/** True when side has nothing but its king (it cannot win, also not on time). */
export function bareKing(fen: string, side: Side): boolean {
  for (const piece of pieces(fen).values()) {
    const white = piece === piece.toUpperCase();
    if ((white ? "w" : "b") === side && piece.toLowerCase() !== "k") return false;
  }
  return true;
}

/** The full-move number of a FEN (1 when absent). */
export function moveNumber(fen: string): number {
  return Number(fen.split(" ")[5]) || 1;
}
