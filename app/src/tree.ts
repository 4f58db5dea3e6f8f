// The game tree of the board: a start position and every move played from it, the main line
// first and the variations the user entered by playing a different move (or that a PGN
// brought). Each move is checked, and written in SAN, by the package's Game (the engine's
// own rules, in Chess960 mode for a Chess960 game); a tree becomes a Game again for PGN export.

import { Game, START_FEN } from "wasmchess";
import type { GameStatus, LegalMove, MoveNode } from "wasmchess";

/** One position of the tree and the move that reached it (none for the root). */
export interface TreeNode {
  readonly id: number;
  readonly parent: TreeNode | undefined;
  /** The moves played from here; the first is the main continuation. */
  readonly children: TreeNode[];
  /** The move that reached this position, in SAN and UCI ("" at the root). */
  readonly san: string;
  readonly uci: string;
  /** The position after the move. */
  readonly fen: string;
  /** Moves from the root. */
  readonly ply: number;
  nags: number[];
  comment?: string;
  startingComment?: string;
}

export class GameTree {
  readonly root: TreeNode;
  /** The position the board shows. */
  current: TreeNode;
  /** PGN tag pairs. */
  readonly headers = new Map<string, string>();
  /** The comment before the first move. */
  comment?: string;
  private nextId = 0;
  private readonly nodes = new Map<number, TreeNode>();
  private readonly legalCache = new WeakMap<TreeNode, LegalMove[]>();
  private readonly statusCache = new WeakMap<TreeNode, GameStatus>();

  /** A tree from fen (the engine's rules must be loaded), a Chess960 game when chess960 (its
   *  castling moves in UCI are king-takes-rook, e1h1); throws the engine's Error for a bad
   *  FEN. */
  constructor(fen: string = START_FEN, readonly chess960 = false) {
    const start = this.game(fen);
    this.root = this.node(undefined, "", "", start.fen());
    this.current = this.root;
  }

  /** The tree of a game read from PGN: its moves, variations, comments, NAGs and headers. */
  static fromGame(game: Game): GameTree {
    const tree = new GameTree(game.startFen, game.chess960);
    for (const [name, value] of game.headers) tree.headers.set(name, value);
    tree.comment = game.comment;
    tree.addLine(tree.root, game.moves());
    return tree;
  }

  private addLine(parent: TreeNode, line: readonly MoveNode[]): void {
    for (const move of line) {
      const node = this.play(move.uci, parent);
      node.nags = [...move.nags];
      node.comment = move.comment;
      node.startingComment = move.startingComment;
      for (const variation of move.variations) this.addLine(parent, variation);
      parent = node;
    }
  }

  /** A Game from fen in this tree's mode. */
  private game(fen: string): Game {
    return new Game(fen, { chess960: this.chess960 });
  }

  private node(parent: TreeNode | undefined, san: string, uci: string, fen: string): TreeNode {
    const node: TreeNode = { id: this.nextId++, parent, children: [], san, uci, fen, ply: parent ? parent.ply + 1 : 0, nags: [] };
    this.nodes.set(node.id, node);
    return node;
  }

  /** The node with this id, if it is still in the tree. */
  find(id: number): TreeNode | undefined {
    return this.nodes.get(id);
  }

  /** Plays a move (SAN or UCI) from `from` (default: the current position) and returns its
   *  node: the existing one when that move was played before, else a new continuation (the
   *  main one when there was none, a variation otherwise). Throws the engine's Error for an
   *  illegal, ambiguous or malformed move. The current position does not change. */
  play(move: string, from: TreeNode = this.current): TreeNode {
    const game = this.game(from.fen);
    const played = game.play(move);
    const existing = from.children.find((c) => c.uci === played.uci);
    if (existing) return existing;
    const node = this.node(from, played.san, played.uci, game.fen());
    from.children.push(node);
    return node;
  }

  /** The moves from the root to node, first to last. */
  path(node: TreeNode = this.current): TreeNode[] {
    const out: TreeNode[] = [];
    for (let n: TreeNode | undefined = node; n && n.parent; n = n.parent) out.push(n);
    return out.reverse();
  }

  /** The UCI moves from the root to node. */
  ucis(node: TreeNode = this.current): string[] {
    return this.path(node).map((n) => n.uci);
  }

  /** The main line, from the first move to the last. */
  mainLine(): TreeNode[] {
    const out: TreeNode[] = [];
    for (let n = this.root.children[0]; n; n = n.children[0]) out.push(n);
    return out;
  }

  /** The last position of the main continuation from node. */
  lineEnd(node: TreeNode = this.current): TreeNode {
    let n = node;
    while (n.children[0]) n = n.children[0];
    return n;
  }

  /** True when node lies on the main line. */
  onMainLine(node: TreeNode): boolean {
    for (let n = node; n.parent; n = n.parent) if (n.parent.children[0] !== n) return false;
    return true;
  }

  /** The legal moves at node, in SAN and UCI. */
  legalMoves(node: TreeNode = this.current): LegalMove[] {
    let moves = this.legalCache.get(node);
    if (!moves) {
      moves = this.game(node.fen).legalMoves();
      this.legalCache.set(node, moves);
    }
    return moves;
  }

  /** Checkmate, stalemate, a draw by rule or "ongoing" at node; repetitions count the moves
   *  from the root. */
  status(node: TreeNode = this.current): GameStatus {
    let status = this.statusCache.get(node);
    if (!status) {
      const game = this.game(this.root.fen);
      for (const uci of this.ucis(node)) game.play(uci);
      status = game.status();
      this.statusCache.set(node, status);
    }
    return status;
  }

  /** Makes the variation that node lies in the main continuation at its branch point. */
  promote(node: TreeNode): void {
    let n = node;
    while (n.parent && n.parent.children[0] === n) n = n.parent;
    const parent = n.parent;
    if (!parent) return;
    parent.children.splice(parent.children.indexOf(n), 1);
    parent.children.unshift(n);
  }

  /** Deletes node and everything after it; the current position moves to its parent when it
   *  was inside. Returns the parent. */
  remove(node: TreeNode): TreeNode | undefined {
    const parent = node.parent;
    if (!parent) return undefined;
    for (let n: TreeNode | undefined = this.current; n; n = n.parent) {
      if (n === node) {
        this.current = parent;
        break;
      }
    }
    parent.children.splice(parent.children.indexOf(node), 1);
    const forget = (n: TreeNode): void => {
      this.nodes.delete(n.id);
      n.children.forEach(forget);
    };
    forget(node);
    return parent;
  }

  /** The tree as a Game (main line, variations, comments, NAGs, headers) for PGN export. */
  toGame(): Game {
    const game = this.game(this.root.fen);
    for (const [name, value] of this.headers) game.headers.set(name, value);
    if (this.comment !== undefined) game.comment = this.comment;
    for (let n = this.root; n.children[0]; n = n.children[0]) {
      const [main, ...others] = n.children;
      const move = game.play(main.uci);
      annotate(move, main);
      move.variations.push(...others.map(lineFrom));
    }
    return game;
  }
}

/** Copies a tree node's annotations onto a Game move. */
function annotate(move: MoveNode, node: TreeNode): void {
  move.nags = [...node.nags];
  if (node.comment !== undefined) move.comment = node.comment;
  if (node.startingComment !== undefined) move.startingComment = node.startingComment;
}

/** A variation as Game moves: start and its main continuation, with their own variations. */
function lineFrom(start: TreeNode): MoveNode[] {
  const toMove = (node: TreeNode, variations: MoveNode[][]): MoveNode => {
    const move: MoveNode = { san: node.san, uci: node.uci, nags: [], variations };
    annotate(move, node);
    return move;
  };
  const line = [toMove(start, [])];
  for (let n = start; n.children[0]; n = n.children[0]) {
    const [main, ...others] = n.children;
    line.push(toMove(main, others.map(lineFrom)));
  }
  return line;
}
