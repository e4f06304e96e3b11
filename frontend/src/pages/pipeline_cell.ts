// A block's cell on the pipeline page: its head (state, tags, status, the
// run and save buttons, the ⋯ menu), the editor, the run output (status,
// inputs, stdout and logs, the result grid and chart, the error with its
// "run compiled" offer), the conflict banner and the upstream editor.
// PipelinePage owns the cells; this draws one.

import { html, nothing, type TemplateResult } from "lit-html";
import { ref } from "lit-html/directives/ref.js";
import { api } from "../api";
import { app } from "../app";
import type { CellEditor } from "../editor";
import { isFinal, MAX_STDOUT, type Exec } from "../exec_state";
import { editUpstream } from "../edge_edit";
import { describeOrigin } from "../input_origin";
import { compactDiff, lineDiff } from "../line_diff";
import { runHref } from "../runs";
import { formatAgo, formatDuration, formatInstant } from "../time";
import type { BlockDetail, BlockView } from "../types";
import { ChartPanel } from "../views/chart_panel";
import type { PreviewPanel } from "../views/preview_panel";
import { ReplayPanel } from "../views/replay_panel";
import { ResultGrid, type GridSource } from "../views/result_grid";
import { ws } from "../ws";
import type { PipelinePage } from "./pipeline";

export interface Cell {
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

export class CellView {
  private tick?: ReturnType<typeof setTimeout>;

  constructor(private readonly p: PipelinePage) {}

  cell(c: Cell, zone: string): TemplateResult {
    const b = c.block;
    const e = ws.execs.forCell(this.p.id, b.id);
    const running = !!e && !isFinal(e.phase);
    const pl = this.p.pipeline!;
    return html`<section
      class=${"cell" + (running ? " busy" : "")}
      id=${"cell-" + b.id}
      data-testid=${"cell-" + b.id}
      data-block=${b.id}
      tabindex="-1"
      @keydown=${(e: KeyboardEvent) => this.p.commands.key(e, c)}
    >
      <header class="cell-head">
        <span class=${"state-dot " + (running ? "running" : (this.p.runStates.get(b.id) ?? ""))}></span>
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
        ${this.p.partitionRun && this.p.lastRun?.run_id === this.p.partitionRun.run_id && this.p.lastRun.blocks.some((x) => x.block === b.id)
          ? // Only a block that ran in it: a block added since never ran there.
            html`<a class="small" data-testid="cell-last-run" href=${runHref(this.p.partitionRun.run_id, b.id)} title=${`the last pipeline run of ${this.p.partitionRun.partition} (${this.p.partitionRun.state}), focused on ${b.id}`}>last run ▸</a>` : nothing}
        <button data-testid="run" class="primary" ?disabled=${running} @click=${() => this.p.run(c)} title="run the editor's text for the partition (Ctrl+Enter)">${running ? "Running…" : "Run ▸"}</button>
        ${this.p.states.chooser(b.id)}
        <button data-testid="run-upstream" ?disabled=${running || this.p.states.busy()} @click=${() => void this.p.states.runWithUpstream(b.id)} title="run the stale cells above this one first, in DAG order, then this one, in this session">Run with upstream</button>
        <button data-testid="replay" ?disabled=${c.replay?.job?.state === "running"} @click=${() => this.startReplay(c)} title="replay the pipeline's saved code over the last stored days (30 unless you choose), each block on the inputs its stored version read, and compare with what is stored; nothing is published">Replay…</button>
        ${running && e ? html`<button @click=${() => ws.interrupt(e.id)} title="interrupt the running block">Stop</button>` : nothing}
        <button data-testid="save" ?disabled=${!c.dirty} @click=${() => this.p.edits.save(c)} title="write the file (Ctrl+S)">Save</button>
        <details class="menu">
          <summary aria-label="more actions">⋯</summary>
          <div class="menu-body">
            <button class="link" ?disabled=${!c.dirty} @click=${menu(() => this.p.edits.revert(c))}>Revert to saved</button>
            <button class="link" @click=${menu(() => ((c.editEdges = !c.editEdges), (c.edgeDraft = new Set(b.upstream)), this.p.update()))}>Edit upstream…</button>
            ${this.p.structure.menuItems(b, menu)}
            <button class="link danger" data-testid="remove-block" @click=${menu(() => this.p.edits.removeBlock(c))}>Remove block…</button>
          </div>
        </details>
      </header>
      ${this.p.states.badges(b.id, zone)}
      ${this.p.states.progress(b.id)}
      ${c.editEdges ? this.edgesEditor(c) : nothing}
      ${c.restored
        ? html`<div class="banner-inline" data-testid="restored">Restored your unsaved edits from ${formatInstant(c.restored.at, zone, { seconds: false })}${c.restored.fileChanged ? html` — <b>the file changed since</b>` : nothing}.
            <button class="link" @click=${() => this.p.edits.revert(c)}>discard them</button> <button class="link" @click=${() => ((c.restored = undefined), this.p.update())}>keep</button></div>`
        : nothing}
      ${c.conflict ? this.conflictBanner(c) : nothing}
      ${c.host}
      <div class="cell-tabs">
        <button class=${"tab" + (c.view === "run" ? " active" : "")} @click=${() => ((c.view = "run"), this.p.update())}>Run output</button>
        <button class=${"tab" + (c.view === "stored" ? " active" : "")} data-testid="stored-tab" @click=${() => {
          c.view = "stored";
          if (!c.stored.result && !c.stored.loading) void c.stored.load();
          this.p.update();
        }}>Stored data</button>
        <span class="muted small">for ${this.p.partitionFor(b)} (${b.partitions.interval}, ${b.partitions.timezone})</span>
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
    const p = new ReplayPanel(this.p.id, c.block.id, 30, this.p.update, () => app.zone());
    p.onClose = () => {
      p.close();
      c.replay = undefined;
      this.p.update();
    };
    c.replay = p;
    this.p.update();
  }

  private conflictBanner(c: Cell): TemplateResult {
    const d = compactDiff(lineDiff(c.editor?.text() ?? "", c.conflict!.theirs));
    return html`<div class="error-box conflict" data-testid="conflict">
      <b>${c.block.file} changed elsewhere</b> since you opened it (another tab, an editor, git). Your edits are kept here and were not written.
      <pre class="diff" data-testid="conflict-diff">${d.map((l) => (l ? html`<span class=${l.op === "+" ? "add" : l.op === "-" ? "del" : ""}>${l.op === "+" ? "+ on disk: " : l.op === "-" ? "- yours:   " : "           "}${l.text}
</span>` : html`<span class="muted">…
</span>`))}</pre>
      <button data-testid="conflict-reload" @click=${() => this.p.edits.takeTheirs(c)}>Reload from disk (drop my edits)</button>
      <button data-testid="conflict-overwrite" @click=${() => this.p.edits.save(c, true)}>Overwrite with mine</button>
    </div>`;
  }

  private edgesEditor(c: Cell): TemplateResult {
    const others = (this.p.pipeline?.order ?? []).filter((id) => id !== c.block.id);
    return html`<div class="edges-editor">
      <span>Upstream of <b>${c.block.id}</b> (in parameter order):</span>
      ${others.map(
        (id) => html`<label><input type="checkbox" .checked=${c.edgeDraft.has(id)} @change=${(e: Event) => {
          if ((e.target as HTMLInputElement).checked) c.edgeDraft.add(id);
          else c.edgeDraft.delete(id);
          this.p.update();
        }} /> ${id}</label>`,
      )}
      <span class="muted small" data-testid="edge-order">order: ${editUpstream(c.block.upstream, [...c.edgeDraft]).join(", ") || "none"}</span>
      <button @click=${() => this.p.edits.saveEdges(c)}>Save edges</button>
      <button class="link" @click=${() => ((c.editEdges = false), this.p.update())}>cancel</button>
      <div class="muted small">Writes <span class="mono">${this.p.pipeline?.file}</span>; a Go block's entry function takes one table per upstream.</div>
    </div>`;
  }

  private runOutput(c: Cell, e: Exec | undefined, zone: string): TemplateResult {
    if (!e) return html`<div class="muted placeholder">Ctrl+Enter runs this cell's text for ${this.p.partitionFor(c.block)} without saving it. Nothing is published.</div>`;
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
              c.runChart = c.runChart ? undefined : new ChartPanel(e.preview!, this.p.update);
              this.p.update();
            }}>${c.runChart ? "hide chart" : "chart ▸"}</button>`,
          })}${c.runChart ? c.runChart.render(zone) : nothing}`
        : nothing}
      ${e.error ? html`<div class="error-box" data-testid="run-error"><pre>${e.error.file && e.error.line ? `${e.error.file}:${e.error.line}${e.error.column ? ":" + e.error.column : ""}: ` : ""}${e.error.message}</pre>
            ${(e.error.diagnostics ?? []).length > 1 ? html`<ul>${e.error.diagnostics!.map((d) => html`<li>line ${d.line}:${d.column}: ${d.message}</li>`)}</ul>` : nothing}
            ${e.error.offer === "compiled"
              ? html`<button data-testid="run-compiled" title="build this cell's text as native Go and run it once more, on a compiled worker" @click=${() => this.p.run(c, "compiled")}>Run compiled</button>`
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
    if (!c.grid) c.grid = new ResultGrid(e.preview!, src, this.p.update);
    else if (c.gridExec !== e.id) c.grid.reset(e.preview!, src);
    c.gridExec = e.id;
    return c.grid;
  }

  /** The running cell's elapsed time; re-renders itself while the cell runs. */
  private timer(e: Exec): string {
    clearTimeout(this.tick);
    this.tick = setTimeout(() => {
      if (!isFinal(e.phase) && !this.p.destroyed) this.p.update();
    }, 100);
    return formatDuration(performance.now() - e.startedAt);
  }
}

/** A menu item's handler: closes its <details> menu, then acts. */
function menu(act: () => unknown): (e: Event) => void {
  return (e) => {
    (e.currentTarget as Element).closest("details")?.removeAttribute("open");
    act();
  };
}
