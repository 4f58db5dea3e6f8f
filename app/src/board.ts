// The board on screen: cm-chessboard (MIT) with move input by drag and by click, legal-move
// hints, last-move and check highlights, the promotion dialog, arrows and flipping. It knows
// no rules: the legal moves come from the caller (the engine's move generator), and a move the
// user makes is handed back as UCI text.

import { Chessboard, COLOR, INPUT_EVENT_TYPE, BORDER_TYPE } from "cm-chessboard/src/Chessboard.js";
import type { MoveInputEvent, MarkerType, ArrowType, PromotionResult } from "cm-chessboard/src/Chessboard.js";
import { Markers } from "cm-chessboard/src/extensions/markers/Markers.js";
import { Arrows } from "cm-chessboard/src/extensions/arrows/Arrows.js";
import { PromotionDialog } from "cm-chessboard/src/extensions/promotion-dialog/PromotionDialog.js";
import "cm-chessboard/assets/chessboard.css";
import "cm-chessboard/assets/extensions/markers/markers.css";
import "cm-chessboard/assets/extensions/arrows/arrows.css";
import "cm-chessboard/assets/extensions/promotion-dialog/promotion-dialog.css";
// The Wikimedia piece set (CC BY-SA 3.0); the package's other set, Staunty, is CC BY-NC-SA.
import piecesUrl from "cm-chessboard/assets/pieces/standard.svg?url&no-inline";
import markersUrl from "cm-chessboard/assets/extensions/markers/markers.svg?url&no-inline";
import arrowsUrl from "cm-chessboard/assets/extensions/arrows/arrows.svg?url&no-inline";
import type { LegalMove } from "wasmchess";
import type { Side } from "./fen-facts.js";

const LAST_MOVE: MarkerType = { class: "marker-last-move", slice: "markerSquare" };
const CHECK: MarkerType = { class: "marker-check", slice: "markerCircleFilled" };
const FROM_SQUARE: MarkerType = { class: "marker-from", slice: "markerSquare" };
const BEST_MOVE: ArrowType = { class: "arrow-best" };

/** Makes a relative asset URL absolute (cm-chessboard treats relative ones as inside its
 *  assetsUrl folder). */
const absolute = (url: string): string => new URL(url, document.baseURI).href;

export interface BoardInput {
  /** The legal moves of the position shown (when the user may move). */
  legalMoves(): readonly LegalMove[];
  /** A move the user made, as UCI text (e7e8q with the promotion piece). */
  onMove(uci: string): void;
}

export class BoardView {
  private readonly board: Chessboard;
  private fen = "";
  private arrows: { from: string; to: string }[] = [];
  private shown = 0;
  private side: Side = COLOR.white;
  private turning: Promise<void> = Promise.resolve();
  private turns = 0;

  constructor(private readonly element: HTMLElement, private readonly input: BoardInput) {
    this.board = new Chessboard(element, {
      position: "8/8/8/8/8/8/8/8",
      assetsUrl: "./",
      style: {
        cssClass: "default",
        showCoordinates: true,
        borderType: BORDER_TYPE.none,
        pieces: { file: absolute(piecesUrl) },
        animationDuration: 150,
      },
      extensions: [
        { class: Markers, props: { sprite: absolute(markersUrl), autoMarkers: FROM_SQUARE } },
        { class: Arrows, props: { sprite: absolute(arrowsUrl) } },
        { class: PromotionDialog, props: { language: "en" } },
      ],
    });
    element.dataset.orientation = this.side;
  }

  /** Shows a position, with the last move (UCI) and the king in check highlighted. */
  show(fen: string, highlight: { lastMove?: string; check?: string } = {}, animate = false): void {
    this.fen = fen;
    this.board.removeMarkers(LAST_MOVE);
    this.board.removeMarkers(CHECK);
    if (highlight.lastMove) {
      this.board.addMarker(LAST_MOVE, highlight.lastMove.slice(0, 2));
      this.board.addMarker(LAST_MOVE, highlight.lastMove.slice(2, 4));
    }
    if (highlight.check) this.board.addMarker(CHECK, highlight.check);
    this.element.dataset.fen = fen;
    this.element.dataset.lastMove = highlight.lastMove ?? "";
    this.element.dataset.check = highlight.check ?? "";
    // While pieces move, data-moving is set (the board takes new input once they stand).
    const shown = ++this.shown;
    this.element.dataset.moving = "true";
    void this.board.setPosition(fen.split(" ")[0], animate).then(() => {
      if (shown === this.shown) delete this.element.dataset.moving;
    });
  }

  /** Lets the user move the pieces of side (both sides with "both", nobody with null). */
  setInput(side: Side | "both" | null): void {
    if (this.board.isPromotionDialogShown()) return; // the dialog's answer comes first
    this.board.disableMoveInput();
    this.element.dataset.input = side ?? "none";
    if (side === null) return;
    this.board.enableMoveInput((e) => this.onInput(e), side === "both" ? undefined : side);
  }

  /** The best-move arrows (UCI moves); an empty list removes them. */
  setArrows(moves: readonly string[]): void {
    const next = moves.map((m) => ({ from: m.slice(0, 2), to: m.slice(2, 4) }));
    this.element.dataset.arrows = moves.join(" ");
    if (JSON.stringify(next) === JSON.stringify(this.arrows)) return;
    this.arrows = next;
    this.board.removeArrows(BEST_MOVE);
    for (const { from, to } of next) this.board.addArrow(BEST_MOVE, from, to);
  }

  /** The side at the bottom. */
  get orientation(): Side {
    return this.side;
  }

  set orientation(side: Side) {
    if (side === this.side) return;
    this.side = side;
    this.element.dataset.orientation = side;
    // cm-chessboard turns once at a time: a turn waits for the one before it. While turns are
    // pending, data-turning is set (the squares are not yet where the orientation says).
    const turn = ++this.turns;
    this.element.dataset.turning = "true";
    const done = () => {
      if (turn === this.turns) delete this.element.dataset.turning;
    };
    this.turning = this.turning.then(() => (side === this.side ? this.board.setOrientation(side) : undefined)).then(done, done);
  }

  flip(): void {
    this.orientation = this.side === COLOR.white ? COLOR.black : COLOR.white;
  }

  private movesFrom(square: string): LegalMove[] {
    return this.input.legalMoves().filter((m) => m.uci.startsWith(square));
  }

  private onInput(event: MoveInputEvent): boolean | void {
    switch (event.type) {
      case INPUT_EVENT_TYPE.moveInputStarted: {
        const moves = this.movesFrom(event.squareFrom);
        // A Chess960 castling move (king takes rook) is marked on the rook and on the king's
        // destination square.
        const targets: { to: string; promotion?: string }[] = moves.map((m) => ({ to: m.uci.slice(2, 4), promotion: m.uci[4] }));
        for (const m of moves) {
          const to = this.kingTakesRookDestination(m.uci);
          if (to && to !== event.squareFrom && !targets.some((t) => t.to === to)) targets.push({ to });
        }
        this.board.addLegalMovesMarkers(targets);
        return moves.length > 0;
      }
      case INPUT_EVENT_TYPE.validateMoveInput:
        this.board.removeLegalMovesMarkers();
        return this.validate(event.squareFrom, event.squareTo ?? "");
      case INPUT_EVENT_TYPE.moveInputCanceled:
        this.board.removeLegalMovesMarkers();
        return;
    }
  }

  /** Accepts a move the user made on the board and hands it on once the board is done. */
  private validate(from: string, to: string): boolean {
    const direct = this.movesFrom(from).some((m) => m.uci.startsWith(from + to));
    const uci = direct ? from + to : this.castlingOntoRook(from, to) ?? this.castlingToDestination(from, to) ?? from + to;
    const candidates = this.movesFrom(from).filter((m) => m.uci.startsWith(uci));
    if (candidates.length === 0) return false;
    if (candidates.length > 1) {
      // A promotion: the dialog asks for the piece.
      const side: Side = this.fen.split(" ")[1] === "b" ? "b" : "w";
      this.board.showPromotionDialog(to, side, (result: PromotionResult) => {
        // After the dialog has closed (it calls back while it is still open).
        queueMicrotask(() => {
          if (result.type === "pieceSelected" && result.piece) this.input.onMove(uci + result.piece.charAt(1));
          else this.show(this.fen, { lastMove: this.element.dataset.lastMove, check: this.element.dataset.check });
        });
      });
      return true;
    }
    void this.board.state.moveInputProcess.then(() => this.input.onMove(candidates[0].uci));
    return true;
  }

  /** The king's castling move in standard chess when the king was put onto its own rook
   *  (e1h1 → e1g1). In Chess960 king-takes-rook is the move itself (found directly). */
  private castlingOntoRook(from: string, to: string): string | undefined {
    const king = this.board.getPiece(from);
    const target = this.board.getPiece(to);
    if (!king || !target || king[1] !== "k" || target !== king[0] + "r" || from[1] !== to[1]) return undefined;
    const file = to[0] > from[0] ? "g" : "c";
    return from + file + from[1];
  }

  /** A Chess960 castling move (king takes rook, b1h1) when the king was put on its
   *  destination square (g1 or c1) instead; a king's own step there stays a king move. */
  private castlingToDestination(from: string, to: string): string | undefined {
    return this.movesFrom(from).find((m) => this.kingTakesRookDestination(m.uci) === to)?.uci;
  }

  /** The king's destination square of a king-takes-rook castling move (the g-file towards
   *  the h side, else the c-file); undefined for any other move. */
  private kingTakesRookDestination(uci: string): string | undefined {
    const from = uci.slice(0, 2);
    const to = uci.slice(2, 4);
    const king = this.board.getPiece(from);
    if (!king || king[1] !== "k" || this.board.getPiece(to) !== king[0] + "r" || from[1] !== to[1]) return undefined;
    return (to[0] > from[0] ? "g" : "c") + from[1];
  }
}
