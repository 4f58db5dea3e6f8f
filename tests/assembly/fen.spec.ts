// FEN: round trips along random playouts (standard chess and Chess960), X-FEN and
// Shredder-FEN castling fields, and one specific error per class of bad FEN with the previous
// position left untouched.

import {
  parseFen, makeFen, START_FEN, FEN_OK, FEN_EMPTY, FEN_RANK_COUNT, FEN_RANK_LENGTH, FEN_PIECE_LETTER,
  FEN_KING_COUNT, FEN_PAWN_ON_BACK_RANK, FEN_TOO_MANY_PIECES, FEN_MISSING_FIELD, FEN_SIDE_TO_MOVE,
  FEN_CASTLING_FIELD, FEN_CASTLING_PLACEMENT, FEN_EP_SQUARE, FEN_EP_NO_PAWN, FEN_HALFMOVE,
  FEN_FULLMOVE, FEN_OPPONENT_IN_CHECK, FEN_TRAILING, fenErrorText,
} from "../../assembly/fen";
import { key, doMove, validate, epSquare, setChess960, castlingRights, castlingRookSquare } from "../../assembly/position";
import { generateMoves, moveList, moveAt, GEN_ALL } from "../../assembly/movegen";
import { SQ_NONE } from "../../assembly/types";
import { Xorshift } from "./random";

const random = new Xorshift(987654321);
function rnd(n: i32): i32 {
  return random.next(n);
}

describe("FEN round trip", () => {
  it("makeFen(parseFen(x)) == x, with the same key, on hundreds of positions", () => {
    let checked = 0;
    let failures = 0;
    for (let game = 0; game < 40; game++) {
      parseFen(START_FEN);
      for (let ply = 0; ply < 60; ply++) {
        const fen = makeFen();
        const k = key;
        if (parseFen(fen) != FEN_OK || makeFen() != fen || key != k || validate() != "") {
          failures++;
          log<string>("round trip failed: " + fen);
        }
        checked++;
        const n = generateMoves(GEN_ALL, moveList(0));
        if (n == 0) break;
        doMove(moveAt(moveList(0), rnd(n)));
      }
    }
    expect(failures).toBe(0);
    expect(checked).toBeGreaterThan(500);
  });

  it("holds in Chess960 too, along random playouts from start positions and set-ups", () => {
    setChess960(true);
    const starts: string[] = [
      "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
      "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1",
      "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w KQkq - 0 1",
      "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1",
      "r1r1k2r/pppppppp/8/8/8/8/PPPPPPPP/R1R1K2R w KCkc - 0 1",
    ];
    let checked = 0;
    let failures = 0;
    for (let game = 0; game < 40; game++) {
      expect(parseFen(starts[game % starts.length])).toBe(FEN_OK);
      for (let ply = 0; ply < 60; ply++) {
        const fen = makeFen();
        const k = key;
        if (parseFen(fen) != FEN_OK || makeFen() != fen || key != k || validate() != "") {
          failures++;
          log<string>("round trip failed: " + fen);
        }
        checked++;
        const n = generateMoves(GEN_ALL, moveList(0));
        if (n == 0) break;
        doMove(moveAt(moveList(0), rnd(n)));
      }
    }
    setChess960(false);
    expect(failures).toBe(0);
    expect(checked).toBeGreaterThan(500);
  });

  it("reads X-FEN and Shredder-FEN castling fields in Chess960 mode and writes X-FEN", () => {
    setChess960(true);
    // Shredder-FEN file letters become K/Q where the rook is the outermost one.
    expect(parseFen("1rk3r1/8/8/8/8/8/8/1RK3R1 b BGbg - 0 1")).toBe(FEN_OK);
    expect(makeFen()).toBe("1rk3r1/8/8/8/8/8/8/1RK3R1 b KQkq - 0 1");
    expect(castlingRookSquare(0)).toBe(6);
    expect(castlingRookSquare(3)).toBe(57);
    // An inner rook keeps its file letter; the outer one is K.
    expect(parseFen("4k3/8/8/8/8/8/8/4KR1R w F - 0 1")).toBe(FEN_OK);
    expect(makeFen()).toBe("4k3/8/8/8/8/8/8/4KR1R w F - 0 1");
    expect(castlingRookSquare(0)).toBe(5);
    expect(parseFen("4k3/8/8/8/8/8/8/4KR1R w H - 0 1")).toBe(FEN_OK);
    expect(makeFen()).toBe("4k3/8/8/8/8/8/8/4KR1R w K - 0 1");
    expect(castlingRookSquare(0)).toBe(7);
    // Standard positions read the same in both forms.
    expect(parseFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1")).toBe(FEN_OK);
    expect(makeFen()).toBe(START_FEN);
    expect(castlingRights).toBe(15);
    setChess960(false);
  });
});

describe("Chess960 castling fields", () => {
  it("are refused in standard mode unless they name the standard squares", () => {
    expect(rejects("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1", FEN_CASTLING_PLACEMENT)).toBe(true);
    expect(rejects("4k3/8/8/8/8/8/8/4KR1R w F - 0 1", FEN_CASTLING_PLACEMENT)).toBe(true);
    expect(fenErrorText.indexOf("Chess960") >= 0).toBe(true);
    expect(parseFen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1")).toBe(FEN_OK);
    expect(makeFen()).toBe("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  });

  it("name a rook on the back rank on the right side of a king on the back rank", () => {
    setChess960(true);
    expect(rejects("4k3/8/8/8/8/8/8/4K2R w A - 0 1", FEN_CASTLING_PLACEMENT)).toBe(true); // no rook on a1
    expect(rejects("4k3/8/8/8/8/8/8/4K3 w K - 0 1", FEN_CASTLING_PLACEMENT)).toBe(true); // no rook at all
    expect(rejects("4k3/8/8/8/8/8/4K3/7R w K - 0 1", FEN_CASTLING_PLACEMENT)).toBe(true); // king off the back rank
    expect(rejects("4k3/8/8/8/8/8/8/4K2R w E - 0 1", FEN_CASTLING_PLACEMENT)).toBe(true); // the king's own file
    expect(rejects("4k3/8/8/8/8/8/8/4K2R w KH - 0 1", FEN_CASTLING_FIELD)).toBe(true); // one right twice
    expect(rejects("4k3/8/8/8/8/8/8/4K2R w I - 0 1", FEN_CASTLING_FIELD)).toBe(true); // not a file
    expect(rejects("4k3/8/8/8/8/8/8/R3K3 w a - 0 1", FEN_CASTLING_PLACEMENT)).toBe(true); // black letter, white rook
    setChess960(false);
  });
});

describe("FEN defaults", () => {
  it("defaults missing clocks to 0 and 1", () => {
    expect(parseFen("4k3/8/8/8/8/8/8/4K3 w - -")).toBe(FEN_OK);
    expect(makeFen()).toBe("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
  });

  it("tolerates extra whitespace", () => {
    expect(parseFen("  4k3/8/8/8/8/8/8/4K3   b  -  -  3  40 ")).toBe(FEN_OK);
    expect(makeFen()).toBe("4k3/8/8/8/8/8/8/4K3 b - - 3 40");
  });

  it("drops an en-passant square no pawn can capture on (the hashing convention)", () => {
    expect(parseFen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1")).toBe(FEN_OK);
    expect(epSquare).toBe(SQ_NONE);
    expect(parseFen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1")).toBe(FEN_OK);
    expect(epSquare).toBe(20);
    expect(makeFen()).toBe("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
  });
});

function rejects(fen: string, code: i32): bool {
  parseFen(START_FEN);
  const before = makeFen();
  const got = parseFen(fen);
  if (got != code) log<string>("expected code " + code.toString() + ", got " + got.toString() + " for " + fen + ": " + fenErrorText);
  // The previous position must be untouched.
  return got == code && makeFen() == before && fenErrorText.length > 0 && validate() == "";
}

describe("bad FEN", () => {
  beforeEach(() => setChess960(false));
  it("empty", () => expect(rejects("   ", FEN_EMPTY)).toBe(true));
  it("wrong number of ranks", () => {
    expect(rejects("8/8/8/8/8/8/8 w - - 0 1", FEN_RANK_COUNT)).toBe(true);
    expect(rejects("4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", FEN_RANK_COUNT)).toBe(true);
  });
  it("wrong number of squares in a rank", () => {
    expect(rejects("4k3/8/8/8/8/8/8/4K2 w - - 0 1", FEN_RANK_LENGTH)).toBe(true);
    expect(rejects("4k4/8/8/8/8/8/8/4K3 w - - 0 1", FEN_RANK_LENGTH)).toBe(true);
    expect(rejects("4k3/8/8/8/8/8/8/4K3R w - - 0 1", FEN_RANK_LENGTH)).toBe(true);
  });
  it("a rank of the wrong length is reported with the squares it describes, long or short", () => {
    parseFen("rnbqkbnr/pppppppp/8/8/8/8P/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    expect(fenErrorText).toBe("rank 3 describes 9 squares, not 8");
    parseFen("rnbqkbnr/pppppppp/8/8/8/44R/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    expect(fenErrorText).toBe("rank 3 describes 9 squares, not 8");
    parseFen("4k3/8/8/8/8/8/8/4K2 w - - 0 1");
    expect(fenErrorText).toBe("rank 1 describes 7 squares, not 8");
    parseFen("4k3/8/8/8/8/8/8/4K3RR w - - 0 1");
    expect(fenErrorText).toBe("rank 1 describes 10 squares, not 8");
  });
  it("unknown piece letter", () => {
    expect(rejects("4k3/8/8/8/8/8/8/4K2X w - - 0 1", FEN_PIECE_LETTER)).toBe(true);
    expect(rejects("4k3/8/8/8/8/8/9/4K3 w - - 0 1", FEN_PIECE_LETTER)).toBe(true);
  });
  it("missing king or more than one king per side", () => {
    expect(rejects("8/8/8/8/8/8/8/4K3 w - - 0 1", FEN_KING_COUNT)).toBe(true);
    expect(rejects("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", FEN_KING_COUNT)).toBe(true);
  });
  it("pawns on the first or eighth rank", () => {
    expect(rejects("4k2P/8/8/8/8/8/8/4K3 w - - 0 1", FEN_PAWN_ON_BACK_RANK)).toBe(true);
    expect(rejects("4k3/8/8/8/8/8/8/p3K3 w - - 0 1", FEN_PAWN_ON_BACK_RANK)).toBe(true);
  });
  it("more pieces than a side can have", () => {
    expect(rejects("4k3/8/8/8/8/PPPPPPPP/P7/4K3 w - - 0 1", FEN_TOO_MANY_PIECES)).toBe(true);
  });
  it("missing side, castling or en-passant field", () => {
    expect(rejects("4k3/8/8/8/8/8/8/4K3", FEN_MISSING_FIELD)).toBe(true);
    expect(rejects("4k3/8/8/8/8/8/8/4K3 w -", FEN_MISSING_FIELD)).toBe(true);
  });
  it("bad side-to-move letter", () => expect(rejects("4k3/8/8/8/8/8/8/4K3 x - - 0 1", FEN_SIDE_TO_MOVE)).toBe(true));
  it("bad castling field", () => {
    expect(rejects("r3k2r/8/8/8/8/8/8/R3K2R w KQkx - 0 1", FEN_CASTLING_FIELD)).toBe(true);
    expect(rejects("r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1", FEN_CASTLING_FIELD)).toBe(true);
  });
  it("castling rights that king and rook placement contradicts", () => {
    expect(rejects("r3k2r/8/8/8/8/8/8/R4K1R w K - 0 1", FEN_CASTLING_PLACEMENT)).toBe(true);
    expect(rejects("r3k2r/8/8/8/8/8/8/R3K3 w K - 0 1", FEN_CASTLING_PLACEMENT)).toBe(true);
    expect(rejects("1r2k2r/8/8/8/8/8/8/R3K2R w q - 0 1", FEN_CASTLING_PLACEMENT)).toBe(true);
  });
  it("en-passant square not on the 3rd/6th rank", () => {
    expect(rejects("4k3/8/8/3pP3/8/8/8/4K3 w - d5 0 1", FEN_EP_SQUARE)).toBe(true);
    expect(rejects("4k3/8/8/3pP3/8/8/8/4K3 w - d3 0 1", FEN_EP_SQUARE)).toBe(true);
    expect(rejects("4k3/8/8/3pP3/8/8/8/4K3 w - z9 0 1", FEN_EP_SQUARE)).toBe(true);
  });
  it("en-passant square without the pawn that just moved", () => {
    expect(rejects("4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1", FEN_EP_NO_PAWN)).toBe(true);
    expect(rejects("4k3/3p4/8/3pP3/8/8/8/4K3 w - d6 0 1", FEN_EP_NO_PAWN)).toBe(true);
  });
  it("non-numeric or negative clocks", () => {
    expect(rejects("4k3/8/8/8/8/8/8/4K3 w - - x 1", FEN_HALFMOVE)).toBe(true);
    expect(rejects("4k3/8/8/8/8/8/8/4K3 w - - -1 1", FEN_HALFMOVE)).toBe(true);
    expect(rejects("4k3/8/8/8/8/8/8/4K3 w - - 0 one", FEN_FULLMOVE)).toBe(true);
    expect(rejects("4k3/8/8/8/8/8/8/4K3 w - - 0 -5", FEN_FULLMOVE)).toBe(true);
  });
  it("the side not to move in check", () => {
    expect(parseFen("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1")).toBe(FEN_OK); // the side to move may be in check
    expect(rejects("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", FEN_OPPONENT_IN_CHECK)).toBe(true);
  });
  it("trailing garbage", () => expect(rejects("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", FEN_TRAILING)).toBe(true));
});
