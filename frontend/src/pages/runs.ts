// The Runs page: every pipeline run, newest first, filtered by pipeline,
// state and what launched it (editor, CLI, API, backfill, trigger), paged
// on the server. The filters live in the URL, so a filtered list is a link.
// It re-reads itself while a listed run is running.

import { html, nothing, type TemplateResult } from "lit-html";
import { api, errorText, type RunQuery } from "../api";
import { app, type Page } from "../app";
import { ORIGINS, RUN_STATES, RUNS_PAGE, runHref, runsHref } from "../runs";
import { formatDuration, formatInstant } from "../time";
import { FINAL_STATES, type RunSummary } from "../types";

export class RunsPage implements Page {
  title = "Runs";
  runs: RunSummary[] = [];
  more = false;
  pipelines: string[] = [];
  error = "";
  loading = true;
  private timer?: ReturnType<typeof setInterval>;
  private seq = 0;

  constructor(readonly q: RunQuery) {
    void this.load();
    void api.pipelines().then((r) => ((this.pipelines = r.pipelines.map((p) => p.id)), app.update())).catch(() => {});
    this.timer = setInterval(() => {
      if (this.runs.some((r) => !FINAL_STATES.has(r.state))) void this.load();
    }, 3000);
  }

  destroy(): void {
    clearInterval(this.timer);
  }

  private async load(): Promise<void> {
    const seq = ++this.seq;
    try {
      const r = await api.runs(this.q);
      if (seq !== this.seq) return;
      this.runs = r.runs;
      this.more = !!r.more;
      this.error = "";
    } catch (e) {
      this.error = errorText(e);
    }
    this.loading = false;
    app.update();
  }

  /** A filter change starts again at the first page. */
  private set(k: keyof RunQuery, v: string): void {
    app.go(runsHref({ ...this.q, [k]: v, offset: 0 }));
  }

  private select(k: "pipeline" | "state" | "origin", label: string, options: readonly string[]): TemplateResult {
    return html`<label>${label}
      <select data-testid=${"runs-filter-" + k} @change=${(e: Event) => this.set(k, (e.target as HTMLSelectElement).value)}>
        <option value="" ?selected=${!this.q[k]}>all</option>
        ${options.map((o) => html`<option value=${o} ?selected=${this.q[k] === o}>${o}</option>`)}
        ${this.q[k] && !options.includes(this.q[k]!) ? html`<option value=${this.q[k]!} selected>${this.q[k]}</option>` : nothing}
      </select></label>`;
  }

  render(): TemplateResult {
    const zone = app.zone();
    const off = this.q.offset ?? 0;
    return html`<main class="page runs-page" data-testid="runs-page">
      <h1>Runs</h1>
      <div class="filters">
        ${this.select("pipeline", "Pipeline", this.pipelines)}
        ${this.select("state", "State", RUN_STATES)}
        ${this.select("origin", "Launched by", ORIGINS)}
        ${this.q.partition ? html`<span class="tag">partition ${this.q.partition} <a href=${runsHref({ ...this.q, partition: "", offset: 0 })} title="clear">×</a></span>` : nothing}
        ${this.q.backfill ? html`<span class="tag">backfill ${this.q.backfill} <a href=${runsHref({ ...this.q, backfill: "", offset: 0 })} title="clear">×</a></span>` : nothing}
      </div>
      ${this.error ? html`<div class="error-box">${this.error}</div>` : nothing}
      ${this.loading
        ? html`<p class="muted">Loading…</p>`
        : !this.runs.length
          ? html`<p class="muted" data-testid="runs-empty">No runs${off ? " on this page" : " match"}.</p>`
          : html`<table class="data runs" data-testid="runs-table">
              <thead><tr><th>started</th><th>pipeline</th><th>partition</th><th>state</th><th>launched by</th><th class="num">duration</th><th>error</th></tr></thead>
              <tbody>
                ${this.runs.map(
                  (r) => html`<tr data-testid="run-row" data-run=${r.run_id}>
                    <td class="small"><a href=${runHref(r.run_id)}>${formatInstant(r.started_at, zone)}</a></td>
                    <td>${r.pipeline}</td>
                    <td class="mono">${r.partition}${r.attempt && r.attempt > 1 ? html` <span class="small muted" data-testid="run-attempt" title="each retry of a backfill partition is a run of its own">attempt ${r.attempt}</span>` : nothing}</td>
                    <td><span class=${"tag " + r.state}>${r.state}</span></td>
                    <td>${r.launched ?? ""}${r.actor ? html` <span class="small" data-testid="run-actor">by ${r.actor}</span>` : nothing}${r.backfill_id ? html` <a class="small mono" href=${`/backfills/${encodeURIComponent(r.backfill_id)}`}>${r.backfill_id}</a>` : nothing}</td>
                    <td class="num">${r.state === "running" ? "…" : formatDuration(r.duration_ms)}</td>
                    <td class="small error-text">${r.error ?? ""}</td>
                  </tr>`,
                )}
              </tbody>
            </table>`}
      <div class="pager">
        ${off > 0 ? html`<a data-testid="runs-prev" href=${runsHref({ ...this.q, offset: Math.max(0, off - RUNS_PAGE) })}>‹ newer</a>` : nothing}
        <span class="muted small" data-testid="runs-range">${this.runs.length ? `runs ${off + 1}–${off + this.runs.length}` : ""}</span>
        ${this.more ? html`<a data-testid="runs-next" href=${runsHref({ ...this.q, offset: off + RUNS_PAGE })}>older ›</a>` : nothing}
      </div>
    </main>`;
  }
}
