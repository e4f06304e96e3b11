// The pipeline page: the blocks as notebook cells in DAG order, the DAG
// beside them, a partition picker for runs, and per cell: run the editor's
// text (Ctrl+Enter), save, stored previews and charts, upstream edits.

import { html, nothing, type TemplateResult } from "lit-html";
import { ref } from "lit-html/directives/ref.js";
import { live } from "lit-html/directives/live.js";
import { api, ApiError, errorText } from "../api";
import { DraftStore, draftKey, shouldRestore } from "../drafts";
import { compactDiff, lineDiff } from "../line_diff";
import { app, type Page } from "../app";
import { createEditor, type CellEditor } from "../editor";
import { cellKey, errorPositions, isFinal, MAX_STDOUT, type Exec } from "../exec_state";
import { cycleVia, editUpstream } from "../edge_edit";
import { describeOrigin } from "../input_origin";
import { BackfillDialog } from "../views/backfill_dialog";
import { blockStates } from "../run_states";
import { KEY_EXAMPLES, latestPartition, mapKey } from "../partitions";
import { cellLayout, dimensional, isValidCell, joinCell, latestCell, shiftCell, splitCell } from "../cells";
import { formatAgo, formatDuration, formatInstant } from "../time";
import { FINAL_STATES, type BlockDetail, type BlockView, type PartitionsConfig, type PipelineView, type RunDetail, type RunSummary } from "../types";
import { setUpstream } from "../yaml_edit";
import { DagPanel } from "../views/dag_view";
import { runHref } from "../runs";
import { ganttView } from "../views/gantt";
import { PreviewPanel } from "../views/preview_panel";
import { ChartPanel } from "../views/chart_panel";
import { TriggerPanel } from "../views/trigger_panel";
import { ResultGrid, type GridSource } from "../views/result_grid";
import { ws } from "../ws";
import { settings } from "../settings";
import { CellStates } from "../views/cell_state";
import { YamlCells } from "../views/yaml_cell";
import { NotebookStructure, removeBlockText } from "../views/notebook_structure";
import { CommandKeys, moveTarget } from "../cell_keys";
import { can } from "../role";
import { ReplayPanel } from "../views/replay_panel";

interface Cell {
  block: BlockView;
  detail?: BlockDetail;
  host: HTMLDivElement;
  out: HTMLDivElement | null;
  editor?: CellEditor;
  dirty: boolean;
  status: string; // the outcome of the cell's last save, edge edit or remove, or why a run could not start
  statusError: boolean;
  view: "run" | "stored";
  stored: PreviewPanel;
  runChart?: ChartPanel;
  /** The result table of the cell's last run, and which execution it shows. */
  grid?: ResultGrid;
  gridExec?: string;
  editEdges: boolean;
  edgeDraft: Set<string>;
  shownExec?: string;
  /** The file version the editor's text started from (If-Match on save). */
  etag?: string;
  /** Unsaved text restored from the browser's drafts on load. */
  restored?: { at: number; fileChanged: boolean };
  /** A save refused because the file changed elsewhere: the text on disk now. */
  conflict?: { theirs: string; etag: string };
  /** Kept from an earlier load: the pipeline file, now broken, does not list it. */
  unlisted?: boolean;
  /** A replay test started from this cell, and its result on the calendar. */
  replay?: ReplayPanel;
}

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
  private tick?: ReturnType<typeof setTimeout>;
  private offs: (() => void)[] = [];
  private drafts = new DraftStore();
  private runSub?: () => void;
  private destroyed = false;
  private triggers: TriggerPanel;
  /** Command mode's key state (D D). */
  private keys = new CommandKeys();
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
    this.offs.push(ws.onReconnect(() => void this.loadLastRun()));
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
    this.headObserver?.disconnect();
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

  private draftKeyOf(c: Cell): string {
    return draftKey(location.host, this.id, c.block.id);
  }

  private update = () => app.update();

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
      void this.loadLastRun();
      this.states.refreshSoon(0);
      // A link to a cell (#cell-<block>, from the products page) scrolls to it once drawn.
      if (location.hash.startsWith("#cell-")) setTimeout(() => document.getElementById(location.hash.slice(1))?.scrollIntoView({ block: "start" }), 100);
    } catch (e) {
      this.error = errorText(e);
    }
    this.update();
  }

  /** Selects a cell for command mode: the cell takes the focus (the editor's cursor leaves it). */
  selectCell(block: string): void {
    this.keys.reset();
    const el = document.getElementById("cell-" + block);
    if (!el) return;
    el.focus({ preventScroll: true });
    el.scrollIntoView({ block: "nearest" });
  }

  /** A key on a selected cell (command mode, cell_keys.ts); keys typed in its editor or forms are theirs. */
  private cellKey(e: KeyboardEvent, c: Cell): void {
    if (e.target !== e.currentTarget) return;
    const cmd = this.keys.key(e);
    if (cmd.kind === "none") return;
    e.preventDefault();
    const order = this.pipeline?.order ?? [];
    const id = c.block.id;
    const i = order.indexOf(id);
    const edits = can("edit");
    switch (cmd.kind) {
      case "edit":
        c.editor?.view.focus();
        break;
      case "add":
        if (!edits) break;
        if (cmd.where === "above") this.structure.open(id, order[i - 1], "go");
        else this.structure.open(order[i + 1] ?? "", id, "go");
        break;
      case "delete":
        c.status = "";
        if (edits) void this.removeBlock(c).then((gone) => (gone ? this.selectCell(order[i + 1] ?? order[i - 1] ?? "") : this.selectCell(id)));
        break;
      case "pending":
        c.status = edits ? "press D again to remove this block" : "";
        c.statusError = false;
        this.update();
        break;
      case "select": {
        const to = order[i + cmd.delta];
        if (to) this.selectCell(to);
        break;
      }
      case "move": {
        const before = moveTarget(order, id, cmd.delta);
        if (edits && before !== undefined) void this.structure.move(c.block, before).then(() => requestAnimationFrame(() => this.selectCell(id)));
        break;
      }
      case "run":
        void this.run(c);
        if (cmd.next && order[i + 1]) this.selectCell(order[i + 1]);
        break;
      case "note":
        if (edits) this.structure.noteAbove(id);
        break;
    }
  }

  /** Puts the cursor in the cell after block (DAG order), as Jupyter's Shift+Enter does. */
  private focusNext(block: string): void {
    const order = this.pipeline?.order ?? [];
    const next = this.cells.get(order[order.indexOf(block) + 1] ?? "");
    if (!next?.editor) return;
    next.host.closest(".cell")?.scrollIntoView({ block: "nearest" });
    next.editor.view.focus();
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
          this.focusNext(c.block.id);
        },
        escape: () => this.selectCell(c.block.id),
        save: () => void this.save(c),
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
  private partitionFor(b: BlockView): string {
    const pl = this.pipeline;
    if (!pl || b.partitions.interval === pl.partitions.interval) return this.partition;
    // A cell maps its time part; its values stay (a week × region block of a day × region pipeline).
    const c = splitCell(pl.partitions, this.partition);
    const time = c ? mapKey(pl.partitions, c.time, b.partitions) : null;
    return time !== null && c ? joinCell(b.partitions, time, c.values) : latestCell(b.partitions, Date.now(), this.partition);
  }

  /**
   * The last run of the chosen partition, for the Last run panel and the
   * DAG's colours: the page is about that partition, so another
   * partition's run would tell the wrong story.
   */
  private async loadLastRun(): Promise<void> {
    const key = this.partition;
    try {
      const r = (await api.runs({ pipeline: this.id, partition: key, limit: 1 })).runs[0];
      if (this.destroyed || key !== this.partition) return;
      this.partitionRun = r;
      const d = r ? await api.run(r.run_id) : undefined;
      if (this.destroyed || key !== this.partition) return;
      this.lastRun = d;
      this.runStates = d ? blockStates(d.blocks) : new Map();
      this.states.refreshSoon();
      this.update();
    } catch {
      /* no runs yet */
    }
  }

  // dimPicker picks each value dimension of the cell: a static one among
  // its values, a dynamic one typed (its key set lives in a product).
  private dimPicker(cfg: PartitionsConfig): TemplateResult {
    const c = splitCell(cfg, this.partition) ?? { time: "", values: [] };
    const set = (i: number, v: string) => {
      const values = (cfg.dims ?? []).map((_, j) => (j === i ? v : (c.values[j] ?? "")));
      this.setPartition(joinCell(cfg, c.time || latestPartition(cfg, Date.now()), values));
    };
    return html`<div class="dim-picker small" data-testid="dim-picker">
      ${(cfg.dims ?? []).map((d, i) =>
        d.kind === "static"
          ? html`<label>${d.name} <select data-testid=${`dim-pick-${d.name}`} @change=${(e: Event) => set(i, (e.target as HTMLSelectElement).value)}>
              ${(d.values ?? []).map((v) => html`<option value=${v} ?selected=${c.values[i] === v}>${v}</option>`)}
            </select></label>`
          : html`<label title=${`a key of column ${d.column} of ${d.product}`}>${d.name} <input data-testid=${`dim-pick-${d.name}`} size="8" .value=${c.values[i] ?? ""} @change=${(e: Event) => set(i, (e.target as HTMLInputElement).value.trim())} /></label>`,
      )}
    </div>`;
  }

  private setPartition(key: string): void {
    const pl = this.pipeline;
    if (!pl) return;
    key = key.trim();
    if (!isValidCell(pl.partitions, key)) {
      this.partitionError = dimensional(pl.partitions)
        ? `not a cell of ${cellLayout(pl.partitions)}: want e.g. ${joinCell(pl.partitions, KEY_EXAMPLES[pl.partitions.interval] ?? "", (pl.partitions.dims ?? []).map((d) => d.values?.[0] ?? d.name))}`
        : `not a ${pl.partitions.interval} key: want e.g. ${KEY_EXAMPLES[pl.partitions.interval]}`;
      this.update();
      return;
    }
    this.partitionError = "";
    this.partition = key;
    for (const c of this.cells.values()) c.stored.partition = this.partitionFor(c.block);
    this.states.refreshSoon(0);
    history.replaceState(null, "", `/pipelines/${encodeURIComponent(this.id)}?partition=${encodeURIComponent(key)}`);
    this.partitionRun = undefined;
    this.lastRun = undefined;
    this.runStates = new Map();
    void this.loadLastRun();
    this.update();
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

  async save(c: Cell, overwrite = false): Promise<void> {
    if (!c.editor) return;
    const text = c.editor.text();
    c.status = "saving…";
    c.statusError = false;
    this.update();
    try {
      const gofmt = settings.gofmtOnSave && (c.detail?.kind || c.block.kind) === "go";
      const d = await api.saveBlock(this.id, c.block.id, text, overwrite ? c.conflict?.etag : c.etag, gofmt);
      // gofmt on save: the editor takes the formatted text the server wrote.
      if (gofmt && d.source !== text && c.editor.text() === text) c.editor.setText(d.source);
      c.editor.markSaved(gofmt ? d.source : text);
      this.drafts.drop(this.draftKeyOf(c));
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
      this.states.refreshSoon();
    } catch (e) {
      if (e instanceof ApiError && e.code === "changed_elsewhere") {
        const det = e.details as { current?: string; etag?: string } | undefined;
        c.conflict = { theirs: det?.current ?? "", etag: det?.etag ?? "" };
        c.status = "not saved: changed elsewhere";
      } else c.status = errorText(e);
      c.statusError = true;
    }
    this.update();
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
    this.drafts.drop(this.draftKeyOf(c));
    this.update();
  }

  /** Re-reads the pipeline (problems, order) without touching editors. */
  private refreshPipeline(): void {
    void api.pipeline(this.id).then((pl) => {
      this.pipeline = pl;
      this.update();
    });
  }

  revert(c: Cell): void {
    if (!c.editor || !c.detail) return;
    c.editor.setText(c.detail.source);
    c.editor.markSaved(c.detail.source);
    c.editor.clearErrors();
    c.restored = undefined;
    this.drafts.drop(this.draftKeyOf(c));
    this.update();
  }

  async saveEdges(c: Cell): Promise<void> {
    const pl = this.pipeline;
    if (!pl) return;
    // The upstream list is the Transform's parameter order: keep the user's.
    const ordered = editUpstream(c.block.upstream, [...c.edgeDraft]);
    const loop = cycleVia(c.block.id, ordered, new Map(pl.blocks.map((b) => [b.id, b.upstream])));
    if (loop) {
      c.status = `refused: that edge would make a cycle ${loop}`;
      c.statusError = true;
      this.update();
      return;
    }
    try {
      const yaml = setUpstream(pl.yaml, c.block.id, ordered);
      const res = await api.savePipeline(this.id, yaml, pl.etag);
      c.editEdges = false;
      c.status = res.problems.length ? `edges saved; the pipeline has ${res.problems.length} problem(s)` : "edges saved";
      c.statusError = res.problems.length > 0;
      await this.load();
    } catch (e) {
      c.status = errorText(e);
      c.statusError = true;
      this.update();
    }
  }

  /** Removes a block after the confirmation listing what goes; true when it went. */
  async removeBlock(c: Cell): Promise<boolean> {
    if (!confirm(removeBlockText(this.pipeline?.file ?? "the pipeline file", c.block))) return false;
    try {
      await api.deleteBlock(this.id, c.block.id);
      await this.load();
      return true;
    } catch (e) {
      c.status = errorText(e);
      c.statusError = true;
      this.update();
      return false;
    }
  }

  async addBlock(ev: Event): Promise<void> {
    ev.preventDefault();
    const f = this.addForm;
    try {
      await api.createBlock(this.id, { id: f.id.trim(), kind: f.kind, upstream: (this.pipeline?.order ?? []).filter((b) => f.upstream.has(b)) });
      f.id = "";
      f.upstream.clear();
      f.error = "";
      await this.load();
      const c = [...this.cells.values()].pop();
      c?.host.scrollIntoView({ block: "center" });
    } catch (e) {
      f.error = errorText(e);
      this.update();
    }
  }

  async runPipeline(): Promise<void> {
    this.runBusy = true;
    this.update();
    try {
      const r = await api.startRun(this.id, this.partition);
      this.startedRun = r.run_id;
      this.runStates = new Map();
      this.lastRun = undefined;
      this.runSub?.();
      this.runSub = ws.subscribe(`run:${r.run_id}`, (n) => {
        const ev = n.event;
        if (!ev) return;
        if (ev.block && !ev.child) this.runStates.set(ev.block, ev.state);
        if (!ev.block && FINAL_STATES.has(ev.state)) {
          this.runBusy = false;
          this.states.refreshSoon();
          // Events of blocks that ended before the subscription took effect
          // (and dynamic children) come from the run's record.
          void api.run(r.run_id).then((d) => {
            this.lastRun = d;
            this.runStates = blockStates(d.blocks);
            this.update();
          });
          void this.loadLastRun();
        }
        this.update();
      });
      // The run may finish before the subscription is in place: read it once it should be done.
      setTimeout(() => void api.run(r.run_id).then((d) => {
        if (this.runBusy && d.state !== "running") {
          this.runBusy = false;
          this.lastRun = d;
          this.runStates = blockStates(d.blocks);
          this.update();
        }
      }).catch(() => {}), 3000);
    } catch (e) {
      this.runBusy = false;
      app.notice = errorText(e);
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
      <section class="page-head" ${ref((el) => this.stickHead(el as HTMLElement | undefined))}>
        <div>
          <h1>${pl.id}</h1>
          <p class="muted">${pl.description} <span class="mono small">${pl.file}</span></p>
        </div>
        <div class="partition-picker" data-testid="partition-picker">
          <label>Partition
            <button class="icon" title="previous partition" @click=${() => this.setPartition(shiftCell(cfg, this.partition, -1) ?? this.partition)}>‹</button>
            <input data-testid="partition-input" size=${dimensional(cfg) ? 22 : 12} .value=${this.partition} placeholder=${KEY_EXAMPLES[cfg.interval]} @change=${(e: Event) => this.setPartition((e.target as HTMLInputElement).value)} />
            <button class="icon" title="next partition" @click=${() => this.setPartition(shiftCell(cfg, this.partition, 1) ?? this.partition)}>›</button>
          </label>
          ${dimensional(cfg) ? this.dimPicker(cfg) : nothing}
          <button class="link" ?disabled=${this.partition === latest} @click=${() => this.setPartition(latest)}>latest</button>
          <div class="muted small">${cfg.interval} partitions in <b>${cfg.timezone}</b>${this.partition === latest ? " · the latest complete one" : ""}</div>
          ${this.partitionError ? html`<div class="error-text small">${this.partitionError}</div>` : nothing}
        </div>
        <div class="head-actions">
          <button data-testid="run-pipeline" ?disabled=${this.runBusy || !pl.runnable} @click=${() => this.runPipeline()} title="run the saved pipeline for the chosen partition and publish it">${this.runBusy ? "Running pipeline…" : `Run pipeline for ${this.partition}`}</button>
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
          ${order.map((id) => this.cells.get(id)).filter((c): c is Cell => !!c).map((c, i, all) => html`${c.unlisted ? nothing : this.structure.insertBar(c.block.id, all[i - 1]?.block.id)}${this.structure.noteCell(c.block)}${this.cell(c, zone)}`)}
          ${this.structure.insertBar("", listed.at(-1))}${this.structure.endNoteCell()}
          ${this.addBlockForm()}
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
            ${this.dagPicked ? this.dagPickedLine() : nothing}
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

  /** The block picked in the DAG: its state in the last run, with a link to that run focused on it. */
  private dagPickedLine(): TemplateResult {
    const id = this.dagPicked;
    const r = this.lastRun;
    const st = this.runStates.get(id);
    const own = r?.blocks.filter((b) => b.block === id) ?? [];
    const ms = own.reduce((a, b) => Math.max(a, b.duration_ms || 0), 0);
    return html`<div class="small" data-testid="dag-picked"><b class="mono">${id}</b>
      ${r && st
        ? html`· <span class=${"tag " + st}>${st}</span> in the last run (${r.partition})${own.length > 1 ? ` · ${own.length} children` : ms ? ` · ${formatDuration(ms)}` : ""}
            · <a data-testid="dag-open-run" href=${runHref(r.run_id, id)}>open in the run ▸</a>`
        : html`<span class="muted">· not in the last run</span>`}</div>`;
  }

  private cell(c: Cell, zone: string): TemplateResult {
    const b = c.block;
    const e = ws.execs.forCell(this.id, b.id);
    const running = !!e && !isFinal(e.phase);
    const pl = this.pipeline!;
    return html`<section
      class=${"cell" + (running ? " busy" : "")}
      id=${"cell-" + b.id}
      data-testid=${"cell-" + b.id}
      data-block=${b.id}
      tabindex="-1"
      @keydown=${(e: KeyboardEvent) => this.cellKey(e, c)}
    >
      <header class="cell-head">
        <span class=${"state-dot " + (running ? "running" : (this.runStates.get(b.id) ?? ""))}></span>
        <h2>${b.id}</h2>
        <span class=${"tag kind-" + b.kind}>${b.kind || "no file"}</span>
        ${b.dynamic ? html`<span class="tag">dynamic</span>` : nothing}
        ${b.reduce ? html`<span class="tag">reduce</span>` : nothing}
        ${b.fan_out ? html`<span class="tag" title="runs once per row of ${b.fan_out}">per ${b.fan_out} row</span>` : nothing}
        ${b.partitions.interval !== pl.partitions.interval ? html`<span class="tag">${b.partitions.interval}ly</span>` : nothing}
        <span class="muted small">${b.upstream.length ? html`← ${b.upstream.join(", ")}` : "source"} · writes <span class="mono">${b.writes}</span></span>
        ${c.unlisted ? html`<span class="tag failed" data-testid="unlisted" title="the pipeline file has problems and does not list this block now">not in ${pl.file} now</span>` : nothing}
        ${c.dirty ? html`<span class="tag dirty" data-testid="dirty" title="unsaved changes">● unsaved</span>` : nothing}
        <span class="spacer"></span>
        <span class=${"small " + (c.statusError ? "error-text" : "muted")} data-testid="cell-status">${c.status}</span>
        ${this.partitionRun && this.lastRun?.run_id === this.partitionRun.run_id && this.lastRun.blocks.some((x) => x.block === b.id)
          ? // Only a block that ran in it: a block added since never ran there.
            html`<a class="small" data-testid="cell-last-run" href=${runHref(this.partitionRun.run_id, b.id)} title=${`the last pipeline run of ${this.partitionRun.partition} (${this.partitionRun.state}), focused on ${b.id}`}>last run ▸</a>` : nothing}
        <button data-testid="run" class="primary" ?disabled=${running} @click=${() => this.run(c)} title="run the editor's text for the partition (Ctrl+Enter)">${running ? "Running…" : "Run ▸"}</button>
        ${this.states.chooser(b.id)}
        <button data-testid="run-upstream" ?disabled=${running || this.states.busy()} @click=${() => void this.states.runWithUpstream(b.id)} title="run the stale cells above this one first, in DAG order, then this one, in this session">Run with upstream</button>
        <button data-testid="replay" ?disabled=${c.replay?.job?.state === "running"} @click=${() => this.startReplay(c)} title="replay the pipeline's saved code over the last stored days (30 unless you choose), each block on the inputs its stored version read, and compare with what is stored; nothing is published">Replay…</button>
        ${running && e ? html`<button @click=${() => ws.interrupt(e.id)} title="interrupt the running block">Stop</button>` : nothing}
        <button data-testid="save" ?disabled=${!c.dirty} @click=${() => this.save(c)} title="write the file (Ctrl+S)">Save</button>
        <details class="menu">
          <summary aria-label="more actions">⋯</summary>
          <div class="menu-body">
            <button class="link" ?disabled=${!c.dirty} @click=${menu(() => this.revert(c))}>Revert to saved</button>
            <button class="link" @click=${menu(() => ((c.editEdges = !c.editEdges), (c.edgeDraft = new Set(b.upstream)), this.update()))}>Edit upstream…</button>
            ${this.structure.menuItems(b, menu)}
            <button class="link danger" data-testid="remove-block" @click=${menu(() => this.removeBlock(c))}>Remove block…</button>
          </div>
        </details>
      </header>
      ${this.states.badges(b.id, zone)}
      ${this.states.progress(b.id)}
      ${c.editEdges ? this.edgesEditor(c) : nothing}
      ${c.restored
        ? html`<div class="banner-inline" data-testid="restored">Restored your unsaved edits from ${formatInstant(c.restored.at, zone, { seconds: false })}${c.restored.fileChanged ? html` — <b>the file changed since</b>` : nothing}.
            <button class="link" @click=${() => this.revert(c)}>discard them</button> <button class="link" @click=${() => ((c.restored = undefined), this.update())}>keep</button></div>`
        : nothing}
      ${c.conflict ? this.conflictBanner(c) : nothing}
      ${c.host}
      <div class="cell-tabs">
        <button class=${"tab" + (c.view === "run" ? " active" : "")} @click=${() => ((c.view = "run"), this.update())}>Run output</button>
        <button class=${"tab" + (c.view === "stored" ? " active" : "")} data-testid="stored-tab" @click=${() => {
          c.view = "stored";
          if (!c.stored.result && !c.stored.loading) void c.stored.load();
          this.update();
        }}>Stored data</button>
        <span class="muted small">for ${this.partitionFor(b)} (${b.partitions.interval}, ${b.partitions.timezone})</span>
      </div>
      <div class="output" data-testid="output" ${ref((el) => (c.out = (el as HTMLDivElement) ?? null))}>
        ${c.view === "run" ? this.runOutput(c, e, zone) : html`${c.stored.controls()}${c.stored.body(zone)}`}
      </div>
      ${c.replay ? c.replay.render() : nothing}
    </section>`;
  }

  /** Opens the replay form under the cell (days, the gate); the cell shows the result on a calendar. */
  private startReplay(c: Cell): void {
    c.replay?.close();
    const p = new ReplayPanel(this.id, c.block.id, 30, this.update, () => app.zone());
    p.onClose = () => {
      p.close();
      c.replay = undefined;
      this.update();
    };
    c.replay = p;
    this.update();
  }

  private conflictBanner(c: Cell): TemplateResult {
    const d = compactDiff(lineDiff(c.editor?.text() ?? "", c.conflict!.theirs));
    return html`<div class="error-box conflict" data-testid="conflict">
      <b>${c.block.file} changed elsewhere</b> since you opened it (another tab, an editor, git). Your edits are kept here and were not written.
      <pre class="diff" data-testid="conflict-diff">${d.map((l) => (l ? html`<span class=${l.op === "+" ? "add" : l.op === "-" ? "del" : ""}>${l.op === "+" ? "+ on disk: " : l.op === "-" ? "- yours:   " : "           "}${l.text}
</span>` : html`<span class="muted">…
</span>`))}</pre>
      <button data-testid="conflict-reload" @click=${() => this.takeTheirs(c)}>Reload from disk (drop my edits)</button>
      <button data-testid="conflict-overwrite" @click=${() => this.save(c, true)}>Overwrite with mine</button>
    </div>`;
  }

  private edgesEditor(c: Cell): TemplateResult {
    const others = (this.pipeline?.order ?? []).filter((id) => id !== c.block.id);
    return html`<div class="edges-editor">
      <span>Upstream of <b>${c.block.id}</b> (in parameter order):</span>
      ${others.map(
        (id) => html`<label><input type="checkbox" .checked=${c.edgeDraft.has(id)} @change=${(e: Event) => {
          if ((e.target as HTMLInputElement).checked) c.edgeDraft.add(id);
          else c.edgeDraft.delete(id);
          this.update();
        }} /> ${id}</label>`,
      )}
      <span class="muted small" data-testid="edge-order">order: ${editUpstream(c.block.upstream, [...c.edgeDraft]).join(", ") || "none"}</span>
      <button @click=${() => this.saveEdges(c)}>Save edges</button>
      <button class="link" @click=${() => ((c.editEdges = false), this.update())}>cancel</button>
      <div class="muted small">Writes <span class="mono">${this.pipeline?.file}</span>; a Go block's entry function takes one table per upstream.</div>
    </div>`;
  }

  private runOutput(c: Cell, e: Exec | undefined, zone: string): TemplateResult {
    if (!e) return html`<div class="muted placeholder">Ctrl+Enter runs this cell's text for ${this.partitionFor(c.block)} without saving it. Nothing is published.</div>`;
    const running = !isFinal(e.phase);
    const log = e.logs.map((l) => `${l.level.padEnd(5)} ${l.msg}`).join("\n");
    const rows = e.preview?.row_count;
    return html`<div class="run-status" data-testid="run-status" data-phase=${e.phase}>
        ${running
          ? html`<span class="spinner" aria-hidden="true"></span> <b>running</b> ${c.block.id} for ${e.partition}… <span class="mono" data-testid="run-timer">${this.timer(e)}</span>`
          : e.phase === "done"
            ? html`<span class="ok">✓</span> ${e.entry ?? ""} for ${e.partition}${this.ranAt(e, zone)}${e.item ? html` as item <b data-testid="run-item">${e.item}</b>` : nothing} · ${rows?.toLocaleString("en-US")} row${rows === 1 ? "" : "s"} · ${formatDuration(e.durationMs)}${e.engine ? html` · <span class="tag" data-testid="cell-engine" title="the interpreter cannot run this block, so it ran as compiled Go">${e.engine}</span>` : nothing}`
            : html`<span class="bad">✗</span> ${e.error?.kind ?? e.error?.code ?? "failed"}${e.error?.line ? ` at line ${e.error.line}` : ""}${e.partition ? ` for ${e.partition}` : ""}${this.ranAt(e, zone)}${e.durationMs != null ? ` · ${formatDuration(e.durationMs)}` : ""}${e.engine ? html` · <span class="tag" data-testid="cell-engine">${e.engine}</span>` : nothing}`}
      </div>
      ${e.inputs?.length
        ? html`<div class="run-inputs small" data-testid="run-inputs">read ${e.inputs.map((o) => html`<span class=${"tag " + (o.draft ? "draft" : "published")} data-testid=${"input-" + o.block}>${describeOrigin(o, zone)}</span> `)}</div>`
        : nothing}
      ${e.stdout || log ? html`<pre class="stdout" data-testid="stdout">${e.stdoutCut ? html`<span class="muted" data-testid="stdout-cut">… ${e.stdoutCut.toLocaleString("en-US")} earlier characters of output not shown: the cell keeps the last ${MAX_STDOUT / 1024} KiB\n</span>` : nothing}${e.stdout}${e.stdout && log ? "\n" : ""}${log ? html`<span class="log">${log}</span>` : nothing}</pre>` : nothing}
      ${e.phase === "done" && e.preview
        ? html`${this.resultGrid(c, e).render(zone, {
            caption: html`<span class="tag">editor run</span> <button class="link" data-testid="run-chart" @click=${() => {
              c.runChart = c.runChart ? undefined : new ChartPanel(e.preview!, this.update);
              this.update();
            }}>${c.runChart ? "hide chart" : "chart ▸"}</button>`,
          })}${c.runChart ? c.runChart.render(zone) : nothing}`
        : nothing}
      ${e.error ? html`<div class="error-box" data-testid="run-error"><pre>${e.error.file && e.error.line ? `${e.error.file}:${e.error.line}${e.error.column ? ":" + e.error.column : ""}: ` : ""}${e.error.message}</pre>
            ${(e.error.diagnostics ?? []).length > 1 ? html`<ul>${e.error.diagnostics!.map((d) => html`<li>line ${d.line}:${d.column}: ${d.message}</li>`)}</ul>` : nothing}
            ${e.error.offer === "compiled"
              ? html`<button data-testid="run-compiled" title="build this cell's text as native Go and run it once more, on a compiled worker" @click=${() => this.run(c, "compiled")}>Run compiled</button>`
              : nothing}
          </div>` : nothing}`;
  }

  /** When a finished execution ended, as an age; "restored" after a reload. */
  private ranAt(e: Exec, zone: string): TemplateResult | typeof nothing {
    if (!e.endedAt) return nothing;
    return html` · <span class="muted" data-testid="run-age" title=${`ended ${formatInstant(e.endedAt, zone)} (${zone})`}>${formatAgo(e.endedAt, Date.now())}</span>${e.restored ? html` <span class="tag" data-testid="run-restored" title="this session's last output of the cell, kept by the server across the reload">restored</span>` : nothing}`;
  }

  /** The grid of a finished run: its pages come from the cell's output the session keeps. */
  private resultGrid(c: Cell, e: Exec): ResultGrid {
    const session = ws.sessionId;
    const src: GridSource = {
      page: async (p) => (await api.draftRows(session, e.pipeline, e.block, { partition: e.partition, ...p })).preview,
      csvURL: (p) => api.draftCSV(session, e.pipeline, e.block, { partition: e.partition, ...p }),
      summary: async () => (await api.draftSummary(session, e.pipeline, e.block, e.partition)).columns,
    };
    if (!c.grid) c.grid = new ResultGrid(e.preview!, src, this.update);
    else if (c.gridExec !== e.id) c.grid.reset(e.preview!, src);
    c.gridExec = e.id;
    return c.grid;
  }

  private headObserver?: ResizeObserver;
  /**
   * The page head (partition, run, restart) and each cell's head stay in
   * view while a long cell scrolls: the cells' heads stick below the page
   * head, whose height is measured as it wraps.
   */
  private stickHead(el: HTMLElement | undefined): void {
    if (!el || this.headObserver) return;
    const set = () => {
      const bar = document.querySelector(".topbar") as HTMLElement | null;
      const main = el.closest(".pipeline-page") as HTMLElement | null;
      main?.style.setProperty("--topbar-h", `${bar?.offsetHeight ?? 0}px`);
      main?.style.setProperty("--head-h", `${el.offsetHeight}px`);
    };
    this.headObserver = new ResizeObserver(set);
    this.headObserver.observe(el);
    set();
  }

  /** The running cell's elapsed time; re-renders itself while the cell runs. */
  private timer(e: Exec): string {
    clearTimeout(this.tick);
    this.tick = setTimeout(() => {
      if (!isFinal(e.phase) && !this.destroyed) this.update();
    }, 100);
    return formatDuration(performance.now() - e.startedAt);
  }

  private addBlockForm(): TemplateResult {
    const f = this.addForm;
    const order = this.pipeline?.order ?? [];
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


/** A menu item's handler: closes its <details> menu, then acts. */
function menu(act: () => unknown): (e: Event) => void {
  return (e) => {
    (e.currentTarget as Element).closest("details")?.removeAttribute("open");
    act();
  };
}
