// Jupyter's command mode for the notebook's cells: Esc leaves a cell's
// editor and selects the cell; keys then act on cells, not text. A/B add a
// block above/below, D D removes one (after the confirmation that lists what
// goes), ↑/↓ (or K/J) select, Alt+↑/↓ move the block, Enter edits, M writes
// a Markdown note above, Shift+Enter runs and selects the next cell.
// Pure: the pipeline page turns the commands into actions.

export type CellCommand =
  | { kind: "edit" }
  | { kind: "add"; where: "above" | "below" }
  | { kind: "delete" }
  | { kind: "select"; delta: -1 | 1 }
  | { kind: "move"; delta: -1 | 1 }
  | { kind: "run"; next: boolean }
  | { kind: "note" }
  | { kind: "pending" } // the first D of D D
  | { kind: "none" };

export interface KeyLike {
  key: string;
  shiftKey?: boolean;
  altKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
}

/** The keys of command mode, with the one piece of state D D needs. */
export class CommandKeys {
  private pendingD = false;

  /** The command of a key pressed on a selected cell. */
  key(e: KeyLike): CellCommand {
    if (["Shift", "Control", "Alt", "Meta"].includes(e.key)) return { kind: "none" }; // a modifier alone keeps a pending D
    const wasD = this.pendingD;
    this.pendingD = false;
    const mod = !!(e.ctrlKey || e.metaKey);
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (e.altKey && !mod && (k === "ArrowUp" || k === "ArrowDown")) return { kind: "move", delta: k === "ArrowUp" ? -1 : 1 };
    if (mod && e.shiftKey && (k === "ArrowUp" || k === "ArrowDown")) return { kind: "move", delta: k === "ArrowUp" ? -1 : 1 };
    if (k === "Enter") {
      if (e.shiftKey) return { kind: "run", next: true };
      if (mod) return { kind: "run", next: false };
      return { kind: "edit" };
    }
    if (mod || e.altKey) return { kind: "none" }; // leave the browser's shortcuts alone
    switch (k) {
      case "a":
        return { kind: "add", where: "above" };
      case "b":
        return { kind: "add", where: "below" };
      case "d":
        if (wasD) return { kind: "delete" };
        this.pendingD = true;
        return { kind: "pending" };
      case "ArrowUp":
      case "k":
        return { kind: "select", delta: -1 };
      case "ArrowDown":
      case "j":
        return { kind: "select", delta: 1 };
      case "m":
        return { kind: "note" };
    }
    return { kind: "none" };
  }

  /** Forgets a lone D (the selection moved, or the page re-rendered). */
  reset(): void {
    this.pendingD = false;
  }
}

/** Where a block moves: the id it goes before ("" at the end), or undefined at an edge. */
export function moveTarget(order: string[], block: string, delta: -1 | 1): string | undefined {
  const i = order.indexOf(block);
  if (i < 0) return undefined;
  if (delta < 0) return i === 0 ? undefined : order[i - 1];
  if (i >= order.length - 1) return undefined;
  return order[i + 2] ?? "";
}
