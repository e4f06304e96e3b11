// The notebook's structure on the pipeline page: a bar between cells to add
// a Go block, a SQL block or a Markdown note right there (not only at the
// bottom), the Markdown cells themselves (blocks[].note in the pipeline
// file, and end_note for the one after the last block; rendered, edited in
// place), and the cell menu's rename and move.
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

/** The key of the note after the last block (block ids are never empty). */
const END = "";

export class NotebookStructure {
  private insert?: InsertForm;
  /** Notes being edited: block id (END for the note after the last block) -> the text in the editor. */
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
    const pl = this.host.pipeline();
    // The note key: the block it sits above, or END after the last block.
    const hasNote = (before ? pl?.blocks.find((b) => b.id === before)?.note : pl?.end_note) ?? "";
    return html`<div class="insert-bar" data-testid=${"insert-" + (before || "end")}>
      <button class="link small" data-testid="insert-go" @click=${() => this.open(before, above, "go")} title="a Go block here">+ Go</button>
      <button class="link small" data-testid="insert-sql" @click=${() => this.open(before, above, "sql")} title="a SQL block here">+ SQL</button>
      ${!hasNote && !this.editing.has(before)
        ? html`<button class="link small" data-testid="insert-md" @click=${() => this.editNote(before, "")} title=${before ? "a Markdown note here (kept in the pipeline file)" : "a Markdown note after the last block (end_note in the pipeline file)"}>+ Markdown</button>`
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
    return this.noteView(b.id, b.note ?? "", `above ${b.id}`);
  }

  /** The Markdown cell after the last block (end_note of the pipeline file): rendered, or its editor. */
  endNoteCell(): TemplateResult | typeof nothing {
    return this.noteView(END, this.host.pipeline()?.end_note ?? "", "after the last block");
  }

  /** A note keyed by the block it sits above, or END for the one after the last block. */
  private noteView(key: string, note: string, where: string): TemplateResult | typeof nothing {
    const testid = "note-" + (key || "end");
    const draft = this.editing.get(key);
    if (draft !== undefined) {
      return html`<section class="cell md-cell editing" data-testid=${testid}>
        <textarea data-testid="note-text" rows=${Math.max(4, draft.split("\n").length + 1)} .value=${draft} placeholder="Markdown: ## a heading, **bold**, - a list, \`code\`"
          @input=${(e: Event) => this.editing.set(key, (e.target as HTMLTextAreaElement).value)}
          @keydown=${(e: KeyboardEvent) => {
            if ((e.ctrlKey || e.metaKey || e.shiftKey) && e.key === "Enter") {
              e.preventDefault();
              void this.saveNote(key);
            } else if (e.key === "Escape") this.cancelNote(key);
          }}></textarea>
        <div class="md-actions">
          <button class="primary" data-testid="note-save" @click=${() => this.saveNote(key)} title="Ctrl+Enter">Save note</button>
          <button class="link" @click=${() => this.cancelNote(key)}>cancel</button>
          <span class="muted small">kept in the pipeline file, ${where}</span>
          ${this.noteError.get(key) ? html`<span class="error-text small" data-testid="note-error">${this.noteError.get(key)}</span>` : nothing}
        </div>
      </section>`;
    }
    if (!note) return nothing;
    return html`<section class="cell md-cell" data-testid=${testid} @dblclick=${() => can("edit") && this.editNote(key, note)} title=${can("edit") ? "double-click to edit" : ""}>
      <div class="md" data-testid="note-rendered">${renderMarkdown(note)}</div>
      <div class="md-actions">
        <button class="link small" data-testid="note-edit" @click=${() => this.editNote(key, note)}>edit</button>
        <button class="link small danger" data-testid="note-delete" @click=${() => this.deleteNote(key)}>delete note</button>
      </div>
    </section>`;
  }

  /** Opens the Markdown note above a block in its editor (command mode's M). */
  noteAbove(block: string): void {
    const b = this.host.pipeline()?.blocks.find((x) => x.id === block);
    if (b) this.editNote(block, b.note ?? "");
  }

  private editNote(key: string, text: string): void {
    this.editing.set(key, text);
    this.host.update();
    requestAnimationFrame(() => (document.querySelector(`[data-testid="note-${key || "end"}"] textarea`) as HTMLTextAreaElement | null)?.focus());
  }

  private cancelNote(key: string): void {
    this.editing.delete(key);
    this.noteError.delete(key);
    this.host.update();
  }

  private async saveNote(key: string): Promise<void> {
    const text = this.editing.get(key) ?? "";
    try {
      if (key === END) await api.setEndNote(this.id, text);
      else await api.setNote(this.id, key, text);
      this.editing.delete(key);
      this.noteError.delete(key);
      await this.host.reload();
    } catch (e) {
      this.noteError.set(key, errorText(e));
      this.host.update();
    }
  }

  private async deleteNote(key: string): Promise<void> {
    const file = this.host.pipeline()?.file ?? "the pipeline file";
    if (!confirm(key === END ? `Delete the note after the last block? It is removed from ${file}.` : `Delete the note above ${key}? It is removed from ${file}.`)) return;
    try {
      if (key === END) await api.setEndNote(this.id, "");
      else await api.setNote(this.id, key, "");
      await this.host.reload();
    } catch (e) {
      if (key !== END) this.host.say(key, errorText(e), true);
      else {
        this.noteError.set(key, errorText(e));
        this.host.update();
      }
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
