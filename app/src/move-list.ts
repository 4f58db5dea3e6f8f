// The move list: the tree's main line in SAN with move numbers, its variations in parentheses
// (nested ones inline), comments and annotation glyphs. Each move is a button that shows its
// position; the current one is marked (aria-current) and kept in view.

import type { GameTree, TreeNode } from "./tree.js";
import { sideToMove, moveNumber } from "./fen-facts.js";

const GLYPHS: Record<number, string> = { 1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!" };

export class MoveList {
  private buttons = new Map<number, HTMLButtonElement>();
  private currentId = -1;

  constructor(private readonly element: HTMLElement, private readonly onSelect: (id: number) => void) {
    element.addEventListener("click", (e) => {
      const button = (e.target as HTMLElement).closest<HTMLButtonElement>("button.move");
      if (button) this.onSelect(Number(button.dataset.id));
    });
  }

  /** Draws the whole tree (after moves were added, removed or reordered). */
  render(tree: GameTree): void {
    this.buttons.clear();
    this.currentId = -1;
    const out = document.createDocumentFragment();
    if (tree.comment) out.append(comment(tree.comment));
    const first = tree.root.children[0];
    if (first) this.line(first, out, 0);
    else {
      const empty = document.createElement("p");
      empty.className = "empty";
      empty.textContent = "No moves yet: play one on the board or type it below it.";
      out.append(empty);
    }
    const result = tree.headers.get("Result");
    if (result && result !== "*") {
      const r = document.createElement("span");
      r.className = "result";
      r.textContent = result.replace("1/2", "½");
      out.append(r);
    }
    this.element.replaceChildren(out);
    this.highlight(tree.current);
  }

  /** Marks node's move as the current one and scrolls it into view. */
  highlight(node: TreeNode): void {
    const old = this.buttons.get(this.currentId);
    if (old) {
      old.removeAttribute("aria-current");
      old.tabIndex = -1;
    }
    this.currentId = node.id;
    const button = this.buttons.get(node.id);
    this.element.dataset.current = node.parent ? node.san : "";
    this.element.dataset.currentId = String(node.id);
    if (!button) return;
    button.setAttribute("aria-current", "true");
    button.tabIndex = 0;
    const top = button.offsetTop - this.element.offsetTop;
    if (top < this.element.scrollTop || top + button.offsetHeight > this.element.scrollTop + this.element.clientHeight) {
      this.element.scrollTop = Math.max(0, top - this.element.clientHeight / 2);
    }
  }

  /** The line from `first` on (its main continuation, with the variations branching off it). */
  private line(first: TreeNode, out: ParentNode, depth: number): void {
    let needNumber = true;
    for (let node: TreeNode | undefined = first; node; node = node.children[0]) {
      const before: TreeNode = node.parent!;
      if (node.startingComment) {
        out.append(comment(node.startingComment));
        needNumber = true;
      }
      const white = sideToMove(before.fen) === "w";
      const number = moveNumber(before.fen);
      if (white || needNumber) {
        const n = document.createElement("span");
        n.className = "move-number";
        n.textContent = white ? `${number}.` : `${number}…`;
        out.append(n);
      }
      out.append(this.button(node, white, number));
      needNumber = false;
      if (node.comment) {
        out.append(comment(node.comment));
        needNumber = true;
      }
      if (before.children[0] === node && before.children.length > 1) {
        for (const alternative of before.children.slice(1)) {
          const variation = document.createElement("span");
          variation.className = depth === 0 ? "variation block" : "variation";
          variation.setAttribute("role", "group");
          variation.setAttribute("aria-label", `variation instead of ${node.san}`);
          this.line(alternative, variation, depth + 1);
          out.append(variation);
        }
        needNumber = true;
      }
    }
  }

  private button(node: TreeNode, white: boolean, number: number): HTMLButtonElement {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move";
    button.tabIndex = -1;
    button.dataset.id = String(node.id);
    button.dataset.uci = node.uci;
    const glyphs = node.nags.map((n) => GLYPHS[n] ?? ` $${n}`).join("");
    button.textContent = node.san + glyphs;
    button.setAttribute("aria-label", `${number}${white ? "." : "…"} ${node.san}${glyphs}`);
    this.buttons.set(node.id, button);
    return button;
  }
}

function comment(text: string): HTMLElement {
  const c = document.createElement("span");
  c.className = "comment";
  c.textContent = text;
  return c;
}
