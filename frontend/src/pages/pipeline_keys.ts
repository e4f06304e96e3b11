// Command mode on the pipeline page, as Jupyter users type it (the key
// machine is cell_keys.ts): a selected cell takes A / B, D D, ↑ ↓, Alt+↑ ↓,
// M, Enter and Shift+Enter; Shift+Enter in an editor moves to the next cell.

import { CommandKeys, moveTarget } from "../cell_keys";
import { can } from "../role";
import type { Cell } from "./pipeline_cell";
import type { PipelinePage } from "./pipeline";

export class CellCommands {
  /** Command mode's key state (D D). */
  private keys = new CommandKeys();

  constructor(private readonly p: PipelinePage) {}

  /** Selects a cell for command mode: the cell takes the focus (the editor's cursor leaves it). */
  selectCell(block: string): void {
    this.keys.reset();
    const el = document.getElementById("cell-" + block);
    if (!el) return;
    el.focus({ preventScroll: true });
    el.scrollIntoView({ block: "nearest" });
  }

  /** A key on a selected cell (command mode, cell_keys.ts); keys typed in its editor or forms are theirs. */
  key(e: KeyboardEvent, c: Cell): void {
    if (e.target !== e.currentTarget) return;
    const cmd = this.keys.key(e);
    if (cmd.kind === "none") return;
    e.preventDefault();
    const order = this.p.pipeline?.order ?? [];
    const id = c.block.id;
    const i = order.indexOf(id);
    const edits = can("edit");
    switch (cmd.kind) {
      case "edit":
        c.editor?.view.focus();
        break;
      case "add":
        if (!edits) break;
        if (cmd.where === "above") this.p.structure.open(id, order[i - 1], "go");
        else this.p.structure.open(order[i + 1] ?? "", id, "go");
        break;
      case "delete":
        c.status = "";
        if (edits) void this.p.edits.removeBlock(c).then((gone) => (gone ? this.selectCell(order[i + 1] ?? order[i - 1] ?? "") : this.selectCell(id)));
        break;
      case "pending":
        c.status = edits ? "press D again to remove this block" : "";
        c.statusError = false;
        this.p.update();
        break;
      case "select": {
        const to = order[i + cmd.delta];
        if (to) this.selectCell(to);
        break;
      }
      case "move": {
        const before = moveTarget(order, id, cmd.delta);
        if (edits && before !== undefined) void this.p.structure.move(c.block, before).then(() => requestAnimationFrame(() => this.selectCell(id)));
        break;
      }
      case "run":
        void this.p.run(c);
        if (cmd.next && order[i + 1]) this.selectCell(order[i + 1]);
        break;
      case "note":
        if (edits) this.p.structure.noteAbove(id);
        break;
    }
  }

  /** Puts the cursor in the cell after block (DAG order), as Jupyter's Shift+Enter does. */
  focusNext(block: string): void {
    const order = this.p.pipeline?.order ?? [];
    const next = this.p.cells.get(order[order.indexOf(block) + 1] ?? "");
    if (!next?.editor) return;
    next.host.closest(".cell")?.scrollIntoView({ block: "nearest" });
    next.editor.view.focus();
  }
}
