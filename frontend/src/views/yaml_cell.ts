// The YAML editor cells of the pipeline page: the pipeline file and
// strata.yaml as text, with the project loader's diagnostics (file, line,
// field) while typing (POST /project/check) and after a save, saved with
// If-Match like a block. A save with problems is written and reported; the
// block cells stay on the page (the pipeline page keeps them while the file
// has problems).

import { html, nothing, type TemplateResult } from "lit-html";
import { api, ApiError, call, errorText } from "../api";
import { createEditor, type CellEditor } from "../editor";
import type { PipelineView, Problem } from "../types";

interface Settings {
  file: string;
  yaml: string;
  etag: string;
  problems: Problem[];
}

const settingsApi = {
  get: () => call<Settings>("GET", "/project/settings"),
  save: (yaml: string, etag?: string) => call<Settings>("PUT", "/project/settings", { yaml }, etag ? { "If-Match": etag } : {}),
  check: (file: string, yaml: string) => call<{ problems: Problem[] }>("POST", "/project/check", { file, yaml }),
};

/** One YAML file open in an editor cell. */
export class YamlCell {
  open = false;
  editor?: CellEditor;
  host = document.createElement("div");
  etag = "";
  problems: Problem[] = [];
  status = "";
  statusError = false;
  dirty = false;
  /** A save refused because the file changed elsewhere: the text on disk now. */
  conflict?: { theirs: string; etag: string };
  private checkTimer?: ReturnType<typeof setTimeout>;
  private checkSeq = 0;

  constructor(
    readonly file: string,
    readonly kind: "pipeline" | "settings",
    private pipelineId: string,
    private update: () => void,
    /** Called after a save wrote the file, to re-read the pipeline. */
    private saved: () => void,
  ) {
    this.host.className = "editor-host";
  }

  /** Shows the file: loads it the first time. */
  async toggle(pl?: PipelineView): Promise<void> {
    this.open = !this.open;
    if (this.open && !this.editor) {
      try {
        const cur = this.kind === "pipeline" && pl ? { yaml: pl.yaml, etag: pl.etag, problems: pl.problems } : await settingsApi.get();
        this.attach(cur.yaml, cur.etag, cur.problems);
      } catch (e) {
        this.status = errorText(e);
        this.statusError = true;
      }
    }
    this.update();
  }

  private attach(text: string, etag: string, problems: Problem[]): void {
    this.etag = etag;
    this.editor = createEditor(this.host, text, "yaml", {
      run: () => void this.check(),
      save: () => void this.save(),
      change: (d) => {
        this.dirty = d;
        this.update();
      },
      edit: () => this.checkSoon(),
    });
    this.setProblems(problems.filter((p) => p.file === this.file));
  }

  /** Takes the file's text from a reload of the pipeline, unless edited here. */
  refresh(text: string, etag: string, problems: Problem[]): void {
    if (!this.editor) return;
    if (!this.editor.dirty() && this.editor.text() !== text) {
      this.editor.setText(text);
      this.editor.markSaved(text);
    }
    if (!this.editor.dirty()) {
      this.etag = etag;
      this.setProblems(problems.filter((p) => p.file === this.file));
    }
  }

  private setProblems(ps: Problem[]): void {
    this.problems = ps;
    this.editor?.clearErrors();
    const at = ps.filter((p) => p.line);
    if (at.length) this.editor?.showErrors(at.map((p) => ({ line: p.line!, column: p.column ?? 1, message: (p.field ? p.field + ": " : "") + p.message })));
  }

  private checkSoon(): void {
    clearTimeout(this.checkTimer);
    this.checkTimer = setTimeout(() => void this.check(), 400);
  }

  /** The loader's diagnostics of the text as it is now, unsaved. */
  async check(): Promise<void> {
    if (!this.editor) return;
    const n = ++this.checkSeq;
    try {
      const r = await settingsApi.check(this.file, this.editor.text());
      if (n !== this.checkSeq) return;
      this.setProblems(r.problems);
    } catch (e) {
      this.status = errorText(e);
      this.statusError = true;
    }
    this.update();
  }

  async save(overwrite = false): Promise<void> {
    if (!this.editor) return;
    const text = this.editor.text();
    const etag = overwrite ? this.conflict?.etag : this.etag;
    this.status = "saving…";
    this.statusError = false;
    this.update();
    try {
      const r = this.kind === "pipeline" ? await api.savePipeline(this.pipelineId, text, etag) : await settingsApi.save(text, etag);
      this.etag = r.etag;
      this.conflict = undefined;
      this.editor.markSaved(text);
      const mine = r.problems.filter((p) => p.file === this.file);
      this.setProblems(mine);
      this.status = mine.length ? `saved, ${mine.length} problem(s)` : "saved";
      this.statusError = mine.length > 0;
      this.saved();
    } catch (e) {
      this.statusError = true;
      if (e instanceof ApiError && e.code === "changed_elsewhere") {
        const d = e.details as { current?: string; etag?: string } | undefined;
        this.conflict = { theirs: d?.current ?? "", etag: d?.etag ?? "" };
        this.status = "not saved: changed elsewhere";
      } else if (e instanceof ApiError && e.code === "invalid_yaml") {
        this.setProblems((e.details as Problem[] | undefined) ?? []);
        this.status = "not saved: it does not parse as YAML";
      } else this.status = errorText(e);
    }
    this.update();
  }

  private takeTheirs(): void {
    if (!this.editor || !this.conflict) return;
    this.editor.setText(this.conflict.theirs);
    this.editor.markSaved(this.conflict.theirs);
    this.etag = this.conflict.etag;
    this.conflict = undefined;
    this.status = "reloaded from disk";
    this.statusError = false;
    void this.check();
  }

  render(): TemplateResult {
    const ps = this.problems;
    return html`<section class="cell yaml-cell" data-testid=${"yaml-cell-" + this.kind} data-file=${this.file}>
      <header class="cell-head">
        <h2>${this.file}</h2>
        <span class="tag">YAML</span>
        ${this.dirty ? html`<span class="tag dirty" data-testid="dirty">● unsaved</span>` : nothing}
        ${ps.length ? html`<span class="tag failed" data-testid="yaml-problem-count">${ps.length} problem(s)</span>` : html`<span class="tag state-current">no problems</span>`}
        <span class="spacer"></span>
        <span class=${"small " + (this.statusError ? "error-text" : "muted")} data-testid="yaml-status">${this.status}</span>
        <button data-testid="yaml-save" ?disabled=${!this.dirty} @click=${() => this.save()} title="write the file (Ctrl+S)">Save</button>
      </header>
      ${this.conflict
        ? html`<div class="error-box conflict" data-testid="yaml-conflict"><b>${this.file} changed elsewhere</b> since you opened it; your edits were not written.
            <button @click=${() => this.takeTheirs()}>Reload from disk (drop my edits)</button> <button @click=${() => this.save(true)}>Overwrite with mine</button></div>`
        : nothing}
      ${this.host}
      ${ps.length
        ? html`<ul class="yaml-problems small" data-testid="yaml-problems">
            ${ps.map((p) => html`<li><span class="mono">${p.file}${p.line ? `:${p.line}` : ""}${p.column ? `:${p.column}` : ""}</span>${p.field ? html` <i data-testid="yaml-field">${p.field}</i>` : nothing}: ${p.message}</li>`)}
          </ul>`
        : nothing}
      <div class="muted small">Checked by the server's project loader as you type (Ctrl+Enter checks now); Ctrl+S saves. Text that is not YAML is not written.</div>
    </section>`;
  }
}

/** The pipeline page's YAML cells: its pipeline file and strata.yaml. */
export class YamlCells {
  cells: YamlCell[];

  constructor(pipelineId: string, pipelineFile: string, update: () => void, saved: () => void) {
    this.cells = [new YamlCell(pipelineFile, "pipeline", pipelineId, update, saved), new YamlCell("strata.yaml", "settings", pipelineId, update, saved)];
  }

  unsaved(): number {
    return this.cells.filter((c) => c.dirty).length;
  }

  /** The pipeline was re-read: a clean pipeline-file cell takes the new text. */
  refresh(pl: PipelineView): void {
    this.cells[0].refresh(pl.yaml, pl.etag, pl.problems);
    const st = this.cells[1];
    if (st.editor && !st.dirty) void settingsApi.get().then((r) => st.refresh(r.yaml, r.etag, r.problems)).catch(() => {});
  }

  destroy(): void {
    for (const c of this.cells) c.editor?.view.destroy();
  }

  render(pl: PipelineView): TemplateResult {
    return html`<div class="yaml-files small" data-testid="yaml-files">
        Files:
        ${this.cells.map(
          (c) => html`<button class=${"link" + (c.open ? " active" : "")} data-testid=${"open-yaml-" + c.kind} @click=${() => void c.toggle(pl)}>${c.open ? "hide" : "edit"} ${c.file}</button> `,
        )}
      </div>
      ${this.cells.filter((c) => c.open).map((c) => c.render())}`;
  }
}
