// What a cell's edits do on the pipeline page: save (with gofmt and the
// file's version, a conflict kept with the text on disk), revert, take the
// file from disk, save the upstream edges, remove a block (after the
// confirmation listing what goes) and add one from the form at the bottom.

import { html, nothing, type TemplateResult } from "lit-html";
import { live } from "lit-html/directives/live.js";
import { api, ApiError, errorText } from "../api";
import { cycleVia, editUpstream } from "../edge_edit";
import { settings } from "../settings";
import { removeBlockText } from "../views/notebook_structure";
import { setUpstream } from "../yaml_edit";
import type { Cell } from "./pipeline_cell";
import type { PipelinePage } from "./pipeline";

export class CellEdits {
  constructor(private readonly p: PipelinePage) {}

  async save(c: Cell, overwrite = false): Promise<void> {
    if (!c.editor) return;
    const text = c.editor.text();
    c.status = "saving…";
    c.statusError = false;
    this.p.update();
    try {
      const gofmt = settings.gofmtOnSave && (c.detail?.kind || c.block.kind) === "go";
      const d = await api.saveBlock(this.p.id, c.block.id, text, overwrite ? c.conflict?.etag : c.etag, gofmt);
      // gofmt on save: the editor takes the formatted text the server wrote.
      if (gofmt && d.source !== text && c.editor.text() === text) c.editor.setText(d.source);
      c.editor.markSaved(gofmt ? d.source : text);
      this.p.drafts.drop(this.p.draftKeyOf(c));
      c.conflict = undefined;
      c.restored = undefined;
      c.etag = d.etag;
      c.detail = d;
      c.status = d.problems.length ? `saved, ${d.problems.length} problem(s)` : "saved";
      c.statusError = d.problems.length > 0;
      c.editor.clearErrors();
      const probs = d.problems.filter((p) => p.line);
      if (probs.length) c.editor.showErrors(probs.map((p) => ({ line: p.line!, column: p.column ?? 1, message: p.message })));
      this.refreshPipeline();
      this.p.states.refreshSoon();
    } catch (e) {
      if (e instanceof ApiError && e.code === "changed_elsewhere") {
        const det = e.details as { current?: string; etag?: string } | undefined;
        c.conflict = { theirs: det?.current ?? "", etag: det?.etag ?? "" };
        c.status = "not saved: changed elsewhere";
      } else c.status = errorText(e);
      c.statusError = true;
    }
    this.p.update();
  }

  /** Drops the editor's text for the file as it is on disk now. */
  takeTheirs(c: Cell): void {
    if (!c.editor || !c.conflict) return;
    c.editor.setText(c.conflict.theirs);
    c.editor.markSaved(c.conflict.theirs);
    c.etag = c.conflict.etag;
    c.conflict = undefined;
    c.restored = undefined;
    c.status = "reloaded from disk";
    c.statusError = false;
    this.p.drafts.drop(this.p.draftKeyOf(c));
    this.p.update();
  }

  /** Re-reads the pipeline (problems, order) without touching editors. */
  private refreshPipeline(): void {
    void api.pipeline(this.p.id).then((pl) => {
      this.p.pipeline = pl;
      this.p.update();
    });
  }

  revert(c: Cell): void {
    if (!c.editor || !c.detail) return;
    c.editor.setText(c.detail.source);
    c.editor.markSaved(c.detail.source);
    c.editor.clearErrors();
    c.restored = undefined;
    this.p.drafts.drop(this.p.draftKeyOf(c));
    this.p.update();
  }

  async saveEdges(c: Cell): Promise<void> {
    const pl = this.p.pipeline;
    if (!pl) return;
    // The upstream list is the Transform's parameter order: keep the user's.
    const ordered = editUpstream(c.block.upstream, [...c.edgeDraft]);
    const loop = cycleVia(c.block.id, ordered, new Map(pl.blocks.map((b) => [b.id, b.upstream])));
    if (loop) {
      c.status = `refused: that edge would make a cycle ${loop}`;
      c.statusError = true;
      this.p.update();
      return;
    }
    try {
      const yaml = setUpstream(pl.yaml, c.block.id, ordered);
      const res = await api.savePipeline(this.p.id, yaml, pl.etag);
      c.editEdges = false;
      c.status = res.problems.length ? `edges saved; the pipeline has ${res.problems.length} problem(s)` : "edges saved";
      c.statusError = res.problems.length > 0;
      await this.p.load();
    } catch (e) {
      c.status = errorText(e);
      c.statusError = true;
      this.p.update();
    }
  }

  /** Removes a block after the confirmation listing what goes; true when it went. */
  async removeBlock(c: Cell): Promise<boolean> {
    if (!confirm(removeBlockText(this.p.pipeline?.file ?? "the pipeline file", c.block))) return false;
    try {
      await api.deleteBlock(this.p.id, c.block.id);
      await this.p.load();
      return true;
    } catch (e) {
      c.status = errorText(e);
      c.statusError = true;
      this.p.update();
      return false;
    }
  }

  async addBlock(ev: Event): Promise<void> {
    ev.preventDefault();
    const f = this.p.addForm;
    try {
      await api.createBlock(this.p.id, { id: f.id.trim(), kind: f.kind, upstream: (this.p.pipeline?.order ?? []).filter((b) => f.upstream.has(b)) });
      f.id = "";
      f.upstream.clear();
      f.error = "";
      await this.p.load();
      const c = [...this.p.cells.values()].pop();
      c?.host.scrollIntoView({ block: "center" });
    } catch (e) {
      f.error = errorText(e);
      this.p.update();
    }
  }

  addBlockForm(): TemplateResult {
    const f = this.p.addForm;
    const order = this.p.pipeline?.order ?? [];
    return html`<form class="cell add-block" data-testid="add-block" @submit=${(e: Event) => this.addBlock(e)}>
      <b>Add a block</b>
      <input required pattern="[a-z][a-z0-9_]*" placeholder="block_id" aria-label="new block id" .value=${live(f.id)} @input=${(e: Event) => (f.id = (e.target as HTMLInputElement).value)} />
      <select aria-label="kind" @change=${(e: Event) => (f.kind = (e.target as HTMLSelectElement).value)}>
        <option value="go" ?selected=${f.kind === "go"}>Go</option><option value="sql" ?selected=${f.kind === "sql"}>SQL</option>
      </select>
      <span class="muted">upstream:</span>
      ${order.map((id) => html`<label class="small"><input type="checkbox" .checked=${live(f.upstream.has(id))} @change=${(e: Event) => ((e.target as HTMLInputElement).checked ? f.upstream.add(id) : f.upstream.delete(id))} /> ${id}</label>`)}
      <button type="submit">Add</button>
      ${f.error ? html`<div class="error-text small">${f.error}</div>` : nothing}
    </form>`;
  }
}
