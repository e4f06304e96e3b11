// One pipeline run: what launched it, its state, the error with its block
// and line (linking to the cell), the per-block timeline (dynamic children
// included), the block runs, searchable logs, and Cancel while it runs.
// While the run is live the page follows its events over the websocket.

import { html, nothing, type TemplateResult } from "lit-html";
import { api, ApiError, errorText } from "../api";
import { app, type Page } from "../app";
import { failures, runsHref } from "../runs";
import { formatDuration, formatInstant } from "../time";
import { FINAL_STATES, type RunDetail } from "../types";
import { ganttView } from "../views/gantt";
import { allLogs, blockTable, logsView } from "../views/run_blocks";
import { ws } from "../ws";

/** The product versions the run wrote, each linking to its product's partition. */
function versionsView(r: RunDetail): TemplateResult {
  const vs = r.versions ?? [];
  if (!vs.length) return html`<p class="muted small" data-testid="run-versions-none">${FINAL_STATES.has(r.state) ? "This run wrote no product version." : "None yet."}</p>`;
  return html`<table class="data" data-testid="run-versions">
    <thead><tr><th>product</th><th>partition</th><th>version</th><th class="num">rows</th></tr></thead>
    <tbody>
      ${vs.map(
        (v) => html`<tr>
          <td class="mono"><a data-testid="run-version-link" href=${`/products/${encodeURIComponent(v.product)}?partition=${encodeURIComponent(v.partition)}`}>${v.product}</a></td>
          <td class="mono">${v.partition}</td>
          <td>v${v.version}${v.current ? html` <span class="tag ok">current</span>` : nothing}</td>
          <td class="num">${v.rows.toLocaleString("en-US")}</td>
        </tr>`,
      )}
    </tbody>
  </table>`;
}

export class RunPage implements Page {
  title: string;
  run?: RunDetail;
  error = "";
  cancelError = "";
  cancelling = false;
  logView = allLogs();
  zonePipeline?: string;
  private off?: () => void;
  private refresh?: ReturnType<typeof setTimeout>;
  private destroyed = false;
  private misses = 0;

  constructor(
    readonly id: string,
    readonly focus: string,
  ) {
    this.title = "Run " + id;
    void this.load();
    this.off = ws.subscribe(`run:${id}`, () => this.soon());
  }

  destroy(): void {
    this.destroyed = true;
    this.off?.();
    clearTimeout(this.refresh);
  }

  pipelineZone(): string | undefined {
    return this.zonePipeline;
  }

  /** Events come in bursts (a block's stdout, its state): re-read once per burst. */
  private soon(): void {
    if (this.refresh) return;
    this.refresh = setTimeout(() => {
      this.refresh = undefined;
      void this.load();
    }, 150);
  }

  private async load(): Promise<void> {
    try {
      const r = await api.run(this.id);
      if (this.destroyed) return;
      this.run = r;
      this.error = "";
      if (!this.zonePipeline) {
        this.zonePipeline = (await api.pipeline(r.pipeline).catch(() => undefined))?.partitions.timezone;
      }
      // A run may end before the subscription took effect: poll while live.
      if (!FINAL_STATES.has(r.state)) {
        clearTimeout(this.refresh);
        this.refresh = setTimeout(() => ((this.refresh = undefined), void this.load()), 2000);
      }
    } catch (e) {
      this.error = errorText(e);
      // A run just started is not recorded until its first event (a build
      // may come first), and that event may come before this page listens:
      // ask again for a while rather than say "no such run" for good.
      if (e instanceof ApiError && e.status === 404 && this.misses < 60 && !this.destroyed) {
        this.misses++;
        clearTimeout(this.refresh);
        this.refresh = setTimeout(() => ((this.refresh = undefined), void this.load()), 500);
      }
    }
    app.update();
  }

  private async cancel(): Promise<void> {
    this.cancelling = true;
    this.cancelError = "";
    app.update();
    try {
      await api.cancelRun(this.id);
    } catch (e) {
      this.cancelError = errorText(e);
    }
    this.cancelling = false;
    await this.load();
  }

  render(): TemplateResult {
    if (this.error) return html`<main class="page"><p><a href="/runs">← Runs</a></p><div class="error-box">${this.error}</div></main>`;
    const r = this.run;
    if (!r) return html`<main class="page"><p class="muted">Loading run ${this.id}…</p></main>`;
    const zone = app.zone();
    const live = !FINAL_STATES.has(r.state);
    const fails = failures(r);
    const cellHref = (block: string) => `/pipelines/${encodeURIComponent(r.pipeline)}?partition=${encodeURIComponent(r.partition)}#cell-${block}`;
    return html`<main class="page run-page" data-testid="run-page">
      <p class="small"><a href=${runsHref({ pipeline: r.pipeline })}>← Runs of ${r.pipeline}</a></p>
      <section class="page-head">
        <div>
          <h1>Run <span class="mono small">${r.run_id}</span></h1>
          <p class="muted">
            <a href=${`/pipelines/${encodeURIComponent(r.pipeline)}?partition=${encodeURIComponent(r.partition)}`}>${r.pipeline}</a>
            · partition <b class="mono">${r.partition}</b>
            · <span class=${"tag big " + r.state} data-testid="run-state">${r.state}</span>
            · launched by <b data-testid="run-launched">${r.launched || "unknown"}</b>${r.actor ? html` (<span data-testid="run-actor">${r.actor}</span>)` : nothing}${r.backfill_id ? html` (backfill <a href=${`/backfills/${encodeURIComponent(r.backfill_id)}`}>${r.backfill_id}</a>)` : nothing}${r.engine ? ` · ${r.engine}` : ""}
          </p>
          <p class="muted small">started ${formatInstant(r.started_at, zone, { ms: true })}${live ? " · running" : ` · took ${formatDuration(r.duration_ms)}`}</p>
        </div>
        <div class="head-actions">
          ${live ? html`<button class="danger" data-testid="cancel-run" ?disabled=${this.cancelling} @click=${() => this.cancel()} title="interrupt the running blocks and start no others">${this.cancelling ? "Cancelling…" : "Cancel run"}</button>` : nothing}
          ${this.cancelError ? html`<div class="error-text small">${this.cancelError}</div>` : nothing}
        </div>
      </section>
      ${fails.length
        ? html`<section class="error-box" data-testid="run-error">
            ${fails.map(
              (f) => html`<div>${f.block ? html`<a class="mono" href=${cellHref(f.blockId)}>${f.block}</a>${f.line ? html` <span data-testid="error-line">line ${f.line}</span>` : nothing}: ` : nothing}${f.message}</div>`,
            )}
          </section>`
        : nothing}
      <h3>Timeline</h3>
      ${ganttView(r.blocks, zone, 760, this.focus)}
      <h3>Blocks</h3>
      ${blockTable(r, zone, this.focus)}
      <h3>Versions written</h3>
      ${versionsView(r)}
      <h3>Logs</h3>
      ${logsView(r, this.logView, (v) => ((this.logView = v), app.update()))}
    </main>`;
  }
}
