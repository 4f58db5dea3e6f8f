// Type declarations for the parts of cm-chessboard (plain ES modules without types) that the
// app uses: the board, its move input events, and the markers, arrows and promotion-dialog
// extensions.

declare module "cm-chessboard/src/Chessboard.js" {
  export type Color = "w" | "b";
  export const COLOR: { white: "w"; black: "b" };
  export const FEN: { start: string; empty: string };
  export const BORDER_TYPE: { none: "none"; thin: "thin"; frame: "frame" };
  export const INPUT_EVENT_TYPE: {
    moveInputStarted: "moveInputStarted";
    movingOverSquare: "movingOverSquare";
    validateMoveInput: "validateMoveInput";
    moveInputCanceled: "moveInputCanceled";
    moveInputFinished: "moveInputFinished";
  };

  export interface MoveInputEvent {
    type: string;
    chessboard: Chessboard;
    squareFrom: string;
    squareTo?: string;
    piece?: string;
  }

  export interface ExtensionSpec {
    class: unknown;
    props?: Record<string, unknown>;
  }

  export interface ChessboardProps {
    position?: string;
    orientation?: Color;
    responsive?: boolean;
    assetsUrl?: string;
    assetsCache?: boolean;
    style?: {
      cssClass?: string;
      showCoordinates?: boolean;
      borderType?: string;
      aspectRatio?: number;
      pieces?: { file?: string; tileSize?: number };
      animationDuration?: number;
    };
    extensions?: ExtensionSpec[];
  }

  export interface MarkerType {
    class: string;
    slice: string;
    position?: "above";
  }

  export interface ArrowType {
    class: string;
  }

  export interface PromotionResult {
    type: "pieceSelected" | "canceled";
    square?: string;
    piece?: string;
  }

  export class Chessboard {
    constructor(context: HTMLElement, props?: ChessboardProps);
    context: HTMLElement;
    state: { moveInputProcess: Promise<unknown> };
    setPosition(fen: string, animated?: boolean): Promise<void>;
    getPosition(): string;
    getPiece(square: string): string | null;
    setOrientation(color: Color, animated?: boolean): Promise<void>;
    getOrientation(): Color;
    enableMoveInput(handler: (event: MoveInputEvent) => boolean | void, color?: Color): void;
    disableMoveInput(): void;
    cancelMoveInput(): void;
    isMoveInputEnabled(): boolean;
    destroy(): void;
    // Markers extension
    addMarker(type: MarkerType, square: string): void;
    removeMarkers(type?: MarkerType, square?: string): void;
    addLegalMovesMarkers(moves: { to: string; promotion?: string }[]): void;
    removeLegalMovesMarkers(): void;
    // Arrows extension
    addArrow(type: ArrowType, from: string, to: string): void;
    removeArrows(type?: ArrowType, from?: string, to?: string): void;
    // Promotion dialog extension
    showPromotionDialog(square: string, color: Color, callback: (result: PromotionResult) => void): void;
    isPromotionDialogShown(): boolean;
  }
}

declare module "cm-chessboard/src/extensions/markers/Markers.js" {
  import type { MarkerType } from "cm-chessboard/src/Chessboard.js";
  export const MARKER_TYPE: Record<"frame" | "square" | "dot" | "circle" | "bevel" | "circleDangerFilled", MarkerType>;
  export class Markers {}
}

declare module "cm-chessboard/src/extensions/arrows/Arrows.js" {
  import type { ArrowType } from "cm-chessboard/src/Chessboard.js";
  export const ARROW_TYPE: Record<"default" | "success" | "secondary" | "warning" | "info" | "danger", ArrowType>;
  export class Arrows {}
}

declare module "cm-chessboard/src/extensions/promotion-dialog/PromotionDialog.js" {
  export const PROMOTION_DIALOG_RESULT_TYPE: { pieceSelected: "pieceSelected"; canceled: "canceled" };
  export class PromotionDialog {}
}
