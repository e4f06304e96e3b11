// The notebook's structure on the pipeline page: a bar between cells to add
// a Go block, a SQL block or a Markdown note right there (not only at the
// bottom), the Markdown cells themselves (blocks[].note in the pipeline
// file, rendered, edited in place), and the cell menu's rename and move.
// Every action is a server route that edits the files; the page reloads
// the pipeline after it.

import { html, nothing, type TemplateResult } from "lit-html";
import { api, errorText } from "../api";
import { renderMarkdown } from "../markdown";
import { can } from "../role";
import type { BlockView, PipelineView } from "../types";
import { cycleVia } from "../edge_edit";
import { setUpstream } from "../yaml_edit";

export interface StructureHost {
  pipeline(): PipelineView | undefined;
  /** Re-reads the pipeline and its cells. */
  reload(): Promise<void>;
  update(): void;
  /** Scrolls to a block's cell and puts the cursor in its editor. */
  focus(block: string): void;
  /** Reports on a block's cell (its status line). */
  say(block: string, msg: string, error: boolean): void;
  /** Whether a block's cell has unsaved edits. */
  dirty(block: string): boolean;
}

interface InsertForm {
  before: string; // the block it goes above; "" at the end
  kind: "go" | "sql";
  id: string;
  upstream: Set<string>;
  error: string;
  busy: boolean;
}

export class NotebookStructure {
  private insert?: InsertForm;
  /** Notes being edited: block id -> the text in the editor. */
  private editing = new Map<string, string>();
  private noteError = new Map<string, string>();

  constructor(
    private readonly id: string,
    private readonly host: StructureHost,
  ) {}

  /** The bar above block before ("" for the one after the last cell): + Go, + SQL, + Markdown. */
  insertBar(before: string, above: string | undefined): TemplateResult {
    const f = this.insert;
    if (f && f.before === before) return this.insertForm(f);
    const hasNote = !!before && (this.host.pipeline()?.blocks.find((b) => b.id === before)?.note ?? "") !== "";
    return html`<div class="insert-bar" data-testid=${"insert-" + (before || "end")}>
      <button class="link small" data-testid="insert-go" @click=${() => this.open(before, above, "go")} title="a Go block here">+ Go</button>
      <button class="link small" data-testid="insert-sql" @click=${() => this.open(before, above, "sql")} title="a SQL block here">+ SQL</button>
      ${before && !hasNote && !this.editing.has(before)
        ? html`<button class="link small" data-testid="insert-md" @click=${() => this.editNote(before, "")} title="a Markdown note here (kept in the pipeline file)">+ Markdown</button>`
        : nothing}
    </div>`;
  }

  /** Opens the add-a-block form above before ("" at the end), reading above: the bar's + Go, and command mode's A and B. */
  open(before: string, above: string | undefined, kind: "go" | "sql"): void {
    this.insert = { before, kind, id: "", upstream: new Set(above ? [above] : []), error: "", busy: false };
    this.host.update();
    requestAnimationFrame(() => (document.querySelector('[data-testid="insert-form"] input[name="id"]') as HTMLInputElement | null)?.focus());
  }

  private insertForm(f: InsertForm): TemplateResult {
    const order = this.host.pipeline()?.order ?? [];
    return html`<form class="insert-form" data-testid="insert-form" @submit=${(e: Event) => this.add(e, f)}>
      <b>New ${f.kind === "go" ? "Go" : "SQL"} block${f.before ? html` above <span class="mono">${f.before}</span>` : " at the end"}</b>
      <input name="id" required pattern="[a-z][a-z0-9_]*" placeholder="block_id" aria-label="block id" .value=${f.id} @input=${(e: Event) => (f.id = (e.target as HTMLInputElement).value)} />
      <select name="kind" aria-label="kind" @change=${(e: Event) => ((f.kind = (e.target as HTMLSelectElement).value as "go" | "sql"), this.host.update())}>
        <option value="go" ?selected=${f.kind === "go"}>Go</option><option value="sql" ?selected=${f.kind === "sql"}>SQL</option>
      </select>
      ${order.length ? html`<span class="muted small">reads:</span>` : nothing}
      ${order.map((id) => html`<label class="small"><input type="checkbox" name=${"up-" + id} .checked=${f.upstream.has(id)} @change=${(e: Event) => ((e.target as HTMLInputElement).checked ? f.upstream.add(id) : f.upstream.delete(id))} /> ${id}</label>`)}
      <button type="submit" class="primary" ?disabled=${f.busy}>Add</button>
      <button type="button" class="link" @click=${() => ((this.insert = undefined), this.host.update())}>cancel</button>
      ${f.error ? html`<div class="error-text small">${f.error}</div>` : nothing}
    </form>`;
  }

  private async add(e: Event, f: InsertForm): Promise<void> {
    e.preventDefault();
    const pl = this.host.pipeline();
    f.busy = true;
    this.host.update();
    try {
      const id = f.id.trim();
      await api.createBlock(this.id, { id, kind: f.kind, upstream: (pl?.order ?? []).filter((b) => f.upstream.has(b)), before: f.before || undefined });
      this.insert = undefined;
      await this.host.reload();
      this.host.focus(id);
    } catch (err) {
      f.error = errorText(err);
      f.busy = false;
      this.host.update();
    }
  }

  /** The Markdown cell above a block: rendered, or its editor. */
  noteCell(b: BlockView): TemplateResult | typeof nothing {
    const draft = this.editing.get(b.id);
    if (draft !== undefined) {
      return html`<section class="cell md-cell editing" data-testid=${"note-" + b.id}>
        <textarea data-testid="note-text" rows=${Math.max(4, draft.split("\n").length + 1)} .value=${draft} placeholder="Markdown: ## a heading, **bold**, - a list, \`code\`"
          @input=${(e: Event) => this.editing.set(b.id, (e.target as HTMLTextAreaElement).value)}
          @keydown=${(e: KeyboardEvent) => {
            if ((e.ctrlKey || e.metaKey || e.shiftKey) && e.key === "Enter") {
              e.preventDefault();
              void this.saveNote(b.id);
            } else if (e.key === "Escape") this.cancelNote(b.id);
          }}></textarea>
        <div class="md-actions">
          <button class="primary" data-testid="note-save" @click=${() => this.saveNote(b.id)} title="Ctrl+Enter">Save note</button>
          <button class="link" @click=${() => this.cancelNote(b.id)}>cancel</button>
          <span class="muted small">kept in the pipeline file, above ${b.id}</span>
          ${this.noteError.get(b.id) ? html`<span class="error-text small">${this.noteError.get(b.id)}</span>` : nothing}
        </div>
      </section>`;
    }
    if (!b.note) return nothing;
    return html`<section class="cell md-cell" data-testid=${"note-" + b.id} @dblclick=${() => can("edit") && this.editNote(b.id, b.note ?? "")} title=${can("edit") ? "double-click to edit" : ""}>
      <div class="md" data-testid="note-rendered">${renderMarkdown(b.note)}</div>
      <div class="md-actions">
        <button class="link small" data-testid="note-edit" @click=${() => this.editNote(b.id, b.note ?? "")}>edit</button>
        <button class="link small danger" data-testid="note-delete" @click=${() => this.deleteNote(b)}>delete note</button>
      </div>
    </section>`;
  }

  /** Opens the Markdown note above a block in its editor (command mode's M). */
  noteAbove(block: string): void {
    const b = this.host.pipeline()?.blocks.find((x) => x.id === block);
    if (b) this.editNote(block, b.note ?? "");
  }

  private editNote(block: string, text: string): void {
    this.editing.set(block, text);
    this.host.update();
    requestAnimationFrame(() => (document.querySelector(`[data-testid="note-${block}"] textarea`) as HTMLTextAreaElement | null)?.focus());
  }

  private cancelNote(block: string): void {
    this.editing.delete(block);
    this.noteError.delete(block);
    this.host.update();
  }

  private async saveNote(block: string): Promise<void> {
    const text = this.editing.get(block) ?? "";
    try {
      await api.setNote(this.id, block, text);
      this.editing.delete(block);
      this.noteError.delete(block);
      await this.host.reload();
    } catch (e) {
      this.noteError.set(block, errorText(e));
      this.host.update();
    }
  }

  private async deleteNote(b: BlockView): Promise<void> {
    if (!confirm(`Delete the note above ${b.id}? It is removed from ${this.host.pipeline()?.file ?? "the pipeline file"}.`)) return;
    try {
      await api.setNote(this.id, b.id, "");
      await this.host.reload();
    } catch (e) {
      this.host.say(b.id, errorText(e), true);
    }
  }

  /**
   * Wires an edge dragged in the DAG: to reads from, appended to its
   * upstream list (a Go Transform gets one more table, last). The pipeline
   * file is saved with If-Match, as the edge editor does; a loop is refused.
   */
  async wire(from: string, to: string): Promise<void> {
    const pl = this.host.pipeline();
    const b = pl?.blocks.find((x) => x.id === to);
    if (!pl || !b) return;
    if (b.upstream.includes(from)) {
      this.host.say(to, `${to} already reads ${from}`, false);
      return;
    }
    const ups = [...b.upstream, from];
    const loop = cycleVia(to, ups, new Map(pl.blocks.map((x) => [x.id, x.upstream])));
    if (loop) {
      this.host.say(to, `refused: that edge would make a cycle ${loop}`, true);
      return;
    }
    if (!confirm(`Make ${to} read ${from}?\n\nIts upstream list becomes [${ups.join(", ")}] in ${pl.file}${b.kind === "go" ? `; its ${b.entry ?? "entry function"} then takes ${ups.length} table(s), ${from} last` : `; ${from} becomes a relation its SQL can read`}.`)) return;
    try {
      const res = await api.savePipeline(this.id, setUpstream(pl.yaml, to, ups), pl.etag);
      await this.host.reload();
      this.host.say(to, res.problems.length ? `now reads ${from}; the pipeline has ${res.problems.length} problem(s)` : `now reads ${from}`, res.problems.length > 0);
    } catch (e) {
      this.host.say(to, errorText(e), true);
    }
  }

  /** Rename, move up and down, for the cell's ⋯ menu. */
  menuItems(b: BlockView, close: (act: () => unknown) => (e: Event) => void): TemplateResult {
    const order = this.host.pipeline()?.order ?? [];
    const i = order.indexOf(b.id);
    return html`<button class="link" data-testid="rename-block" @click=${close(() => this.rename(b))}>Rename…</button>
      <button class="link" data-testid="move-up" ?disabled=${i <= 0} @click=${close(() => this.move(b, order[i - 1]))}>Move up</button>
      <button class="link" data-testid="move-down" ?disabled=${i < 0 || i >= order.length - 1} @click=${close(() => this.move(b, order[i + 2] ?? ""))}>Move down</button>`;
  }

  async move(b: BlockView, before: string): Promise<void> {
    try {
      await api.moveBlock(this.id, b.id, before);
      await this.host.reload();
      this.host.say(b.id, "moved", false);
    } catch (e) {
      this.host.say(b.id, errorText(e), true);
    }
  }

  private async rename(b: BlockView): Promise<void> {
    if (this.host.dirty(b.id)) {
      this.host.say(b.id, "save or revert the cell's edits before renaming it", true);
      return;
    }
    const pl = this.host.pipeline();
    const to = prompt(
      `Rename block ${b.id} to:\n\nIts id changes in ${pl?.file ?? "the pipeline file"} and in the upstream lists naming it; its file moves with it and SQL blocks reading it name the new id. Stored outputs stay under ${b.writes}; the renamed block writes a new product.`,
      b.id,
    )?.trim();
    if (!to || to === b.id) return;
    try {
      await api.renameBlock(this.id, b.id, to);
      await this.host.reload();
      this.host.say(to, `renamed from ${b.id}`, false);
    } catch (e) {
      this.host.say(b.id, errorText(e), true);
    }
  }
}

/** The confirmation of removing a block: exactly what goes, and what stays. */
export function removeBlockText(pipelineFile: string, b: BlockView): string {
  const lines = [`Remove block ${b.id}?`, "", "Removes:", `  its entry in ${pipelineFile}${b.note ? " (with the note above it)" : ""}`];
  if (b.file) lines.push(`  ${b.file}${b.kind === "go" ? ` (and ${b.file.slice(0, b.file.lastIndexOf("/"))}/ once empty)` : ""}, unless another pipeline uses it`);
  lines.push("", `Stored outputs stay in the warehouse: ${b.writes}.`);
  return lines.join("\n");
}
