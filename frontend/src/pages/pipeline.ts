// The pipeline page: the blocks as notebook cells in DAG order, the DAG
// beside them, a partition picker for runs, and per cell: run the editor's
// text (Ctrl+Enter), save, stored previews and charts, upstream edits.
// This file holds the page's state, loading and layout; a cell is drawn by
// pipeline_cell.ts, its edits are pipeline_edits.ts, command mode is
// pipeline_keys.ts, the pipeline's runs pipeline_runs.ts and the partition
// head pipeline_head.ts.

import { html, nothing, type TemplateResult } from "lit-html";
import { ref } from "lit-html/directives/ref.js";
import { api, errorText } from "../api";
import { DraftStore, draftKey, shouldRestore } from "../drafts";
import { app, type Page } from "../app";
import { createEditor } from "../editor";
import { cellKey, errorPositions, isFinal, type Exec } from "../exec_state";
import { BackfillDialog } from "../views/backfill_dialog";
import { keyExample, mapKey } from "../partitions";
import { dimensional, isValidCell, joinCell, latestCell, shiftCell, splitCell } from "../cells";
import { formatInstant } from "../time";
import type { BlockDetail, BlockView, PipelineView, RunDetail, RunSummary } from "../types";
import { DagPanel } from "../views/dag_view";
import { runHref } from "../runs";
import { ganttView } from "../views/gantt";
import { PreviewPanel } from "../views/preview_panel";
import { TriggerPanel } from "../views/trigger_panel";
import { ws } from "../ws";
import { settings } from "../settings";
import { CellStates } from "../views/cell_state";
import { YamlCells } from "../views/yaml_cell";
import { NotebookStructure } from "../views/notebook_structure";
import { CellView, type Cell } from "./pipeline_cell";
import { CellEdits } from "./pipeline_edits";
import { CellCommands } from "./pipeline_keys";
import { PipelineRuns } from "./pipeline_runs";
import { PageHead } from "./pipeline_head";

export class PipelinePage implements Page {
  title: string;
  pipeline?: PipelineView;
  error = "";
  partition = "";
  partitionError = "";
  backfillDialog?: BackfillDialog;
  cells = new Map<string, Cell>();
  lastRun?: RunDetail;
  runStates = new Map<string, string>();
  /** The last run of the chosen partition: each cell links to it. */
  partitionRun?: RunSummary;
  dag = new DagPanel(() => this.update());
  dagPicked = "";
  runBusy = false;
  /** The run the Run pipeline button started last: the head links to it. */
  startedRun = "";
  addForm = { id: "", kind: "go", upstream: new Set<string>(), error: "" };
  /** What the kernel restart button last did. */
  kernelNote = "";
  private offs: (() => void)[] = [];
  // Read by the parts of the page in the pipeline_*.ts files beside this one.
  drafts = new DraftStore();
  runSub?: () => void;
  destroyed = false;
  private triggers: TriggerPanel;
  readonly view = new CellView(this);
  readonly edits = new CellEdits(this);
  readonly commands = new CellCommands(this);
  readonly runs = new PipelineRuns(this);
  readonly head = new PageHead(this);
  /** Each cell's stored output and draft, current or stale, and Run with upstream. */
  states: CellStates;
  /** The pipeline file and strata.yaml as YAML editor cells. */
  yamlCells?: YamlCells;
  /** Adding blocks and notes between cells, renaming and moving blocks. */
  structure: NotebookStructure;

  constructor(
    readonly id: string,
    partition: string | null,
  ) {
    this.title = id;
    this.triggers = new TriggerPanel(id, () => app.update(), { pipeline: () => this.pipeline, saved: () => void this.load() });
    this.states = new CellStates({
      pipeline: id,
      dirtySources: () => Object.fromEntries([...this.cells.values()].filter((c) => c.dirty && c.editor).map((c) => [c.block.id, c.editor!.text()])),
      runCell: (block) => {
        const c = this.cells.get(block);
        return c ? this.run(c) : `no cell ${block}`;
      },
      partitionOf: (block) => {
        const b = this.cells.get(block)?.block;
        return b ? this.partitionFor(b) : this.partition;
      },
      update: () => this.update(),
    });
    this.structure = new NotebookStructure(id, {
      pipeline: () => this.pipeline,
      reload: () => this.load(),
      update: () => this.update(),
      focus: (block) => {
        const c = this.cells.get(block);
        c?.host.closest(".cell")?.scrollIntoView({ block: "center" });
        c?.editor?.view.focus();
      },
      say: (block, msg, error) => {
        const c = this.cells.get(block);
        if (!c) return;
        c.status = msg;
        c.statusError = error;
        this.update();
      },
      dirty: (block) => !!this.cells.get(block)?.dirty,
    });
    this.partition = partition ?? "";
    this.offs.push(ws.onExec((cell) => this.onExec(cell)));
    this.offs.push(ws.onReconnect(() => void this.runs.loadLast()));
    this.offs.push(ws.onRestarted(() => {
      this.kernelNote = `kernel restarted at ${formatInstant(Date.now(), app.zone())}: a fresh process; your cells' drafts are kept`;
      this.update();
    }));
    // Files changed on disk (another editor, git pull): re-read; clean cells
    // take the new text, a cell with edits keeps them and shows the difference.
    this.offs.push(ws.onProject((files) => {
      const mine = files.some((f) => f === "." || f === this.pipeline?.file || f === "strata.yaml" || [...this.cells.values()].some((c) => c.block.file === f || f.startsWith("blocks/")));
      if (mine) void this.load();
    }));
    void this.load();
  }

  destroy(): void {
    this.destroyed = true;
    this.offs.forEach((f) => f());
    this.runSub?.();
    this.states.destroy();
    this.head.headObserver?.disconnect();
    this.yamlCells?.destroy();
    for (const c of this.cells.values()) {
      c.editor?.view.destroy();
      c.replay?.close();
    }
  }

  pipelineZone(): string | undefined {
    return this.pipeline?.partitions.timezone;
  }

  unsaved(): string | undefined {
    const n = [...this.cells.values()].filter((c) => c.dirty).length + (this.yamlCells?.unsaved() ?? 0);
    return n ? `${n} cell${n === 1 ? "" : "s"} with edits` : undefined;
  }

  draftKeyOf(c: Cell): string {
    return draftKey(location.host, this.id, c.block.id);
  }

  update = () => app.update();

  async load(): Promise<void> {
    try {
      const pl = await api.pipeline(this.id);
      if (this.destroyed) return;
      this.pipeline = pl;
      this.error = "";
      if (this.yamlCells) this.yamlCells.refresh(pl);
      else this.yamlCells = new YamlCells(this.id, pl.file, this.update, () => void this.load());
      void this.triggers.load();
      // A broken pipeline file has no partitions config to check against:
      // keep the partition the user chose.
      if (!this.partition || (pl.problems.length === 0 && !isValidCell(pl.partitions, this.partition))) this.partition = latestCell(pl.partitions, Date.now(), this.partition) || this.partition;
      const details = await Promise.all(pl.blocks.map((b) => api.block(this.id, b.id).catch(() => undefined)));
      if (this.destroyed) return;
      const seen = new Set<string>();
      pl.blocks.forEach((b, i) => {
        seen.add(b.id);
        let c = this.cells.get(b.id);
        if (!c) {
          const host = document.createElement("div");
          host.className = "editor-host";
          c = {
            block: b, host, out: null, dirty: false, status: "", statusError: false, view: "run",
            stored: new PreviewPanel(b.writes, b.partitions, this.update), editEdges: false, edgeDraft: new Set(b.upstream),
          };
          this.cells.set(b.id, c);
        }
        c.block = b;
        c.stored.product = b.writes;
        c.stored.cfg = b.partitions;
        c.stored.partition ||= this.partitionFor(b);
        const d = details[i];
        if (d) this.attach(c, d);
      });
      for (const [id, c] of this.cells) {
        c.unlisted = !seen.has(id) && pl.problems.length > 0;
        // A pipeline file with problems (a syntax error from an edit on disk)
        // may list no blocks: its cells stay, editable and saveable, until
        // the file is fixed. Only a block removed from a sound file goes.
        if (!seen.has(id) && !c.unlisted) {
          c.editor?.view.destroy();
          this.cells.delete(id);
        }
      }
      // A reload during a run: the session's running execution shows in its cell.
      for (const c of this.cells.values()) this.onExec(cellKey(this.id, c.block.id));
      void this.restoreOutputs();
      void this.runs.loadLast();
      this.states.refreshSoon(0);
      // A link to a cell (#cell-<block>, from the products page) scrolls to it once drawn.
      if (location.hash.startsWith("#cell-")) setTimeout(() => document.getElementById(location.hash.slice(1))?.scrollIntoView({ block: "start" }), 100);
    } catch (e) {
      this.error = errorText(e);
    }
    this.update();
  }

  /** After a reload, each cell shows its last output of this session again (the server keeps them). */
  private async restoreOutputs(): Promise<void> {
    try {
      const { outputs } = await api.sessionOutputs(ws.sessionId, this.id);
      for (const o of outputs) {
        const cell = ws.execs.restore(this.id, o.block, o.partition, Date.parse(o.at), o.message, performance.now());
        if (cell) this.onExec(cell);
      }
      this.update();
    } catch {
      /* outputs are a convenience: none restored */
    }
  }

  /** Creates the cell's editor on first load, or refreshes a clean one. */
  private attach(c: Cell, d: BlockDetail): void {
    c.detail = d;
    if (!c.editor) {
      c.etag = d.etag;
      c.editor = createEditor(c.host, d.source, d.kind || c.block.kind, {
        file: d.file,
        sqlTables: async () => {
          const r = await api.sqlTables(this.id, c.block.id, ws.sessionId);
          return Object.fromEntries(r.tables.map((t) => [t.name, t.columns.map((col) => ({ label: col.name, detail: col.type }))]));
        },
        run: () => void this.run(c),
        runNext: () => {
          void this.run(c);
          this.commands.focusNext(c.block.id);
        },
        escape: () => this.commands.selectCell(c.block.id),
        save: () => void this.edits.save(c),
        change: (dirty) => {
          c.dirty = dirty;
          this.update();
        },
        edit: (text, dirty) => {
          if (dirty) this.drafts.put(this.draftKeyOf(c), { text, base: c.etag ?? "", at: Date.now() });
          else this.drafts.drop(this.draftKeyOf(c));
          // Whether the draft is older than the text is the server's call: ask once typing pauses.
          this.states.refreshSoon(700);
        },
      });
      // Unsaved text from an earlier visit comes back, with a banner saying so.
      const draft = this.drafts.get(this.draftKeyOf(c));
      if (shouldRestore(draft, d.source)) {
        c.editor.setText(draft.text);
        c.restored = { at: draft.at, fileChanged: !!draft.base && draft.base !== d.etag };
      } else if (draft) this.drafts.drop(this.draftKeyOf(c));
    } else if (!c.editor.dirty() && c.editor.text() !== d.source) {
      c.etag = d.etag;
      c.editor.setText(d.source);
      c.editor.markSaved(d.source);
    } else if (!c.editor.dirty()) {
      c.etag = d.etag;
    } else if (d.etag && c.etag && d.etag !== c.etag && c.conflict?.etag !== d.etag) {
      // The file changed elsewhere while this cell has edits: keep them, show both.
      c.conflict = { theirs: d.source, etag: d.etag };
    }
    const probs = d.problems.filter((p) => p.line && p.file === d.file);
    if (probs.length) c.editor.showErrors(probs.map((p) => ({ line: p.line!, column: p.column ?? 1, message: p.message })));
  }

  /** The partition a block runs for: the picker's, mapped to the block's own interval when it differs (a weekly block). */
  partitionFor(b: BlockView): string {
    const pl = this.pipeline;
    if (!pl || b.partitions.interval === pl.partitions.interval) return this.partition;
    // A cell maps its time part; its values stay (a week × region block of a day × region pipeline).
    const c = splitCell(pl.partitions, this.partition);
    const time = c ? mapKey(pl.partitions, c.time, b.partitions) : null;
    return time !== null && c ? joinCell(b.partitions, time, c.values) : latestCell(b.partitions, Date.now(), this.partition);
  }

  /** engine "compiled" runs the cell on a compiled worker: the "run compiled" a failure offers. */
  run(c: Cell, engine = ""): Exec | string {
    if (!c.editor) return "the cell has no editor yet";
    const cur = ws.execs.forCell(this.id, c.block.id);
    if (cur && !isFinal(cur.phase)) return `${c.block.id} is running`;
    // Keep the output's height while the new result streams in: no jump.
    if (c.out) c.out.style.minHeight = `${c.out.offsetHeight}px`;
    c.editor.clearErrors();
    c.view = "run";
    c.runChart = undefined;
    const r = ws.execute(this.id, c.block.id, c.editor.text(), this.partitionFor(c.block), this.states.itemOf(c.block.id), engine);
    if (typeof r === "string") {
      c.status = r;
      c.statusError = true;
    }
    this.update();
    return r;
  }

  private onExec(cell: string): void {
    const [pl, block] = [cell.slice(0, cell.indexOf("/")), cell.slice(cell.indexOf("/") + 1)];
    if (pl !== this.id) return;
    const c = this.cells.get(block);
    const e = ws.execs.forCell(pl, block);
    if (!c || !e) return;
    if (c.shownExec !== e.id) {
      c.shownExec = e.id;
      c.view = "run";
    }
    if (e.phase === "failed" && c.editor) {
      const file = c.block.file;
      const errs = errorPositions(e.error, file);
      if (errs.length) c.editor.showErrors(errs);
    }
    if (isFinal(e.phase)) {
      this.states.refreshSoon();
      // The result is what the user waits for: render it now rather than on
      // the next animation frame, so it lands in the very next paint.
      app.paint();
      // Release the reserved height once the final output has painted.
      requestAnimationFrame(() => {
        if (c.out) c.out.style.minHeight = "";
      });
      return;
    }
    this.update();
  }

  render(): TemplateResult {
    const pl = this.pipeline;
    if (this.error) return html`<main class="page"><div class="error-box">${this.error}</div></main>`;
    if (!pl) return html`<main class="page"><p class="muted">Loading ${this.id}…</p></main>`;
    const zone = app.zone();
    const cfg = pl.partitions;
    const listed = pl.order.length ? pl.order : pl.blocks.map((b) => b.id);
    const order = [...listed, ...[...this.cells.values()].filter((c) => c.unlisted).map((c) => c.block.id)];
    const flags = new Map(pl.blocks.map((b) => [b.id, b.dynamic ? " *" : b.reduce ? " Σ" : ""]));
    const latest = latestCell(cfg, Date.now(), this.partition);
    return html`<main class="page pipeline-page">
      <section class="page-head" ${ref((el) => this.head.stick(el as HTMLElement | undefined))}>
        <div>
          <h1>${pl.id}</h1>
          <p class="muted">${pl.description} <span class="mono small">${pl.file}</span></p>
        </div>
        <div class="partition-picker" data-testid="partition-picker">
          <label>Partition
            <button class="icon" title="previous partition" @click=${() => this.head.setPartition(shiftCell(cfg, this.partition, -1) ?? this.partition)}>‹</button>
            <input data-testid="partition-input" size=${dimensional(cfg) ? 22 : 12} .value=${this.partition} placeholder=${keyExample(cfg)} @change=${(e: Event) => this.head.setPartition((e.target as HTMLInputElement).value)} />
            <button class="icon" title="next partition" @click=${() => this.head.setPartition(shiftCell(cfg, this.partition, 1) ?? this.partition)}>›</button>
          </label>
          ${dimensional(cfg) ? this.head.dimPicker(cfg) : nothing}
          <button class="link" ?disabled=${this.partition === latest} @click=${() => this.head.setPartition(latest)}>latest</button>
          <div class="muted small">${cfg.interval} partitions in <b>${cfg.timezone}</b>${this.partition === latest ? " · the latest complete one" : ""}</div>
          ${this.partitionError ? html`<div class="error-text small">${this.partitionError}</div>` : nothing}
        </div>
        <div class="head-actions">
          <button data-testid="run-pipeline" ?disabled=${this.runBusy || !pl.runnable} @click=${() => this.runs.start()} title="run the saved pipeline for the chosen partition and publish it">${this.runBusy ? "Running pipeline…" : `Run pipeline for ${this.partition}`}</button>
          ${this.startedRun ? html`<a class="small" data-testid="started-run" href=${runHref(this.startedRun)} title=${this.startedRun}>${this.runBusy ? "follow the run ▸" : "the run you started ▸"}</a>` : nothing}
          <button data-testid="run-all-stale" ?disabled=${this.states.busy()} @click=${() => void this.states.runAllStale(order.filter((id) => !this.cells.get(id)?.unlisted))} title="run every cell whose output is not up to date, in DAG order, in this session (each draft feeds the next); nothing is published">Run all stale</button>
          <button data-testid="open-backfill" @click=${() => ((this.backfillDialog = new BackfillDialog(pl, this.update, () => ((this.backfillDialog = undefined), this.update()))), this.update())}>Backfill…</button>
          <button data-testid="restart-kernel" title="kill this tab's kernel (stopping a running cell) and start a fresh one" @click=${() => {
            this.kernelNote = ws.restart() ? "restarting the kernel…" : "not connected";
            this.update();
          }}>Restart kernel</button>
          <label class="small" title="Go cells are saved as gofmt prints them"><input type="checkbox" data-testid="gofmt-on-save" .checked=${settings.gofmtOnSave} @change=${(e: Event) => (settings.gofmtOnSave = (e.target as HTMLInputElement).checked)} /> gofmt on save</label>
          ${this.kernelNote ? html`<div class="muted small" data-testid="kernel-note">${this.kernelNote}</div>` : nothing}
        </div>
      </section>
      ${this.states.progress("")}
      ${pl.problems.length
        ? html`<div class="error-box" data-testid="pipeline-problems">
            <b>${pl.problems.length} problem(s):</b>
            <ul>${pl.problems.map((p) => html`<li><span class="mono">${p.file}${p.line ? `:${p.line}` : ""}</span>${p.field ? html` <i>${p.field}</i>` : nothing}: ${p.message}</li>`)}</ul>
          </div>`
        : nothing}
      ${this.backfillDialog ? this.backfillDialog.render() : nothing}
      <div class="notebook">
        <div class="cells">
          ${this.yamlCells ? this.yamlCells.render(pl) : nothing}
          ${order.map((id) => this.cells.get(id)).filter((c): c is Cell => !!c).map((c, i, all) => html`${c.unlisted ? nothing : this.structure.insertBar(c.block.id, all[i - 1]?.block.id)}${this.structure.noteCell(c.block)}${this.view.cell(c, zone)}`)}
          ${this.structure.insertBar("", listed.at(-1))}${this.structure.endNoteCell()}
          ${this.edits.addBlockForm()}
          <p class="muted small" data-testid="keys-help">Keys: Shift+Enter runs a cell and moves on; Esc leaves the editor and selects the cell, then A / B add a block above / below, D D removes it (asks first), ↑ ↓ select, Alt+↑ ↓ move it, M writes a note above, Enter edits.</p>
        </div>
        <aside class="side">
          ${this.triggers.render(zone)}
          <div class="side-box">
            <h3>DAG</h3>
            ${this.dag.render(listed, pl.edges, this.runStates, (id) => {
              this.dagPicked = id;
              this.update();
              this.cells.get(id)?.host.closest(".cell")?.scrollIntoView({ behavior: "smooth", block: "start" });
            }, flags, this.dagPicked, (from, to) => void this.structure.wire(from, to))}
            ${this.dagPicked ? this.runs.pickedLine() : nothing}
            <p class="muted small">Drag a block onto another to make it read it. * dynamic fan-out · Σ reduce. Colors: the last run${this.lastRun ? html` (<a href=${runHref(this.lastRun.run_id)} data-testid="last-run-link">${this.lastRun.partition}, ${this.lastRun.state}</a>)` : nothing}.</p>
          </div>
          ${this.lastRun
            ? html`<div class="side-box">
                <h3><a href=${runHref(this.lastRun.run_id)} data-testid="last-run-open" title="open the run">Last run · ${this.lastRun.partition}</a> <span class=${"tag " + this.lastRun.state}>${this.lastRun.state}</span>${this.lastRun.engine ? html` <span class="tag" data-testid="run-engine" title="how the Go blocks ran">${this.lastRun.engine}</span>` : nothing}</h3>
                ${ganttView(this.lastRun.blocks, zone, 380)}
                ${this.lastRun.error ? html`<div class="error-text small">${this.lastRun.error}</div>` : nothing}
              </div>`
            : nothing}
        </aside>
      </div>
    </main>`;
  }
}
