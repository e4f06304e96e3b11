// A replay test started from a cell ("Replay…": how many of the last stored
// days, and whether the cell's block must stay unchanged, a gate as
// `strata test --expect-unchanged` is): the pipeline's saved code run again
// over the last stored days, each block on the inputs its stored version
// recorded, compared with what is stored; nothing is published (POST /pipelines/:id/replays, polled through GET
// /replays/:id). The result is drawn on the backfill calendar, a day per
// cell colored by the cell's block (unchanged, changed, failed), with the
// counts, the changed and failed days as links, and a picked day's block
// results with their changed rows (old above new, as a review shows them).

import { html, nothing, type TemplateResult } from "lit-html";
import { api, errorText } from "../api";
import type { BlockReplay, PartitionReplay, ReplayJob } from "../types";
import { CalendarCanvas } from "./calendar_canvas";
import { formatDiffValue } from "./table";

const COLORS: Record<string, string> = { unchanged: "#9fd8b4", changed: "#f2b84b", failed: "#e0605a" };
const n = (x: number) => x.toLocaleString("en-US");

export class ReplayPanel {
  job?: ReplayJob;
  error = "";
  picked = "";
  /** False until the form is submitted: the panel asks for days and the gate first. */
  started = false;
  /** Whether the cell's block must stay unchanged (the report's gate). */
  expect = false;
  readonly calendar = new CalendarCanvas("replay-calendar", false);
  private timer?: number;

  constructor(
    readonly pipeline: string,
    readonly block: string,
    public days: number,
    private readonly update: () => void,
    private readonly zone: () => string,
  ) {
    this.calendar.color = (k) => {
      const s = this.dayStatus(k);
      return s ? COLORS[s] : undefined;
    };
    this.calendar.onPick = (k) => this.pick(k);
  }

  /** Starts the replay and polls it until it ends. */
  async start(): Promise<void> {
    if (!Number.isInteger(this.days) || this.days < 1) {
      this.error = `days: want a whole number of 1 or more, got ${this.days}`;
      this.update();
      return;
    }
    this.started = true;
    this.error = "";
    this.job = undefined;
    this.picked = "";
    this.update();
    try {
      this.job = await api.startReplay(this.pipeline, { last: this.days, ...(this.expect ? { expect_unchanged: [this.block] } : {}) });
    } catch (e) {
      this.error = errorText(e);
      this.update();
      return;
    }
    this.update();
    this.poll();
  }

  private poll(): void {
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(async () => {
      if (!this.job) return;
      try {
        this.job = await api.replay(this.job.id);
      } catch (e) {
        this.error = errorText(e);
        this.update();
        return;
      }
      if (this.job.state === "running") this.poll();
      else this.showCalendar();
      this.update();
    }, 300);
  }

  close(): void {
    window.clearTimeout(this.timer);
  }

  /** The day partitions of the report, by key. */
  private days_(): PartitionReplay[] {
    return (this.job?.report?.partitions ?? []).filter((p) => /^\d{4}-\d{2}-\d{2}$/.test(p.partition));
  }

  /** This cell's block outcome in a partition (the partition's status when the block is not in it). */
  private dayStatus(key: string): string | undefined {
    const p = this.days_().find((x) => x.partition === key);
    if (!p) return undefined;
    return p.blocks.find((b) => b.block === this.block)?.status ?? p.status;
  }

  private showCalendar(): void {
    const days = this.days_();
    if (days.length) this.calendar.setRange(days[0].partition, days[days.length - 1].partition);
  }

  private pick(key: string): void {
    this.picked = key;
    this.update();
  }

  render(): TemplateResult {
    const j = this.job;
    if (!this.started) return this.form();
    const head = html`<h3>Replay on the last ${this.days} days <span class="muted small">the saved code, each block on the inputs its stored version read; nothing is published</span>
      <button class="link" data-testid="replay-close" @click=${() => this.onClose?.()}>close</button></h3>`;
    if (this.error) return html`<section class="replay" data-testid="replay-panel">${head}<div class="error-box" data-testid="replay-error">${this.error}</div></section>`;
    if (!j || j.state === "running")
      return html`<section class="replay" data-testid="replay-panel">${head}<p class="muted" data-testid="replay-progress"><span class="spinner" aria-hidden="true"></span> replaying${j?.total ? ` ${j.done} of ${j.total} partitions` : "…"}</p></section>`;
    if (j.state === "error" || !j.report) return html`<section class="replay" data-testid="replay-panel">${head}<div class="error-box" data-testid="replay-error">${j.error ?? "the replay failed"}</div></section>`;
    const r = j.report;
    const mine = (p: PartitionReplay) => p.blocks.find((b) => b.block === this.block);
    const notable = r.partitions.filter((p) => (mine(p)?.status ?? p.status) !== "unchanged");
    return html`<section class="replay" data-testid="replay-panel">
      ${head}
      <p data-testid="replay-counts">${r.partitions.length} partitions: <b>${r.counts.unchanged}</b> unchanged · <b>${r.counts.changed}</b> changed · <b>${r.counts.failed}</b> failed
        <span class="muted small">· working tree ${r.snapshot.slice(0, 7)} · engine ${r.engine}</span></p>
      <p class="small">${Object.entries(COLORS).map(([k, c]) => html`<span class="swatch" style=${`background:${c}`}></span> ${k} `)} <span class="muted">(${this.block} on each day)</span></p>
      ${r.gates.map(
        (g) => html`<p class=${"small " + (g.passed ? "" : "error-text")} data-testid="replay-gate">expect ${this.block} unchanged: <b>${g.passed ? "passed" : "FAILED"}</b>${g.passed ? "" : ` (changed in ${g.changed.length}, failed in ${g.failed.length} partitions)`}</p>`,
      )}
      ${this.calendar.el}
      ${notable.length
        ? html`<p class="small" data-testid="replay-notable">${this.block} differs on: ${notable.map((p) => html`<button class="link" data-testid=${"replay-day-" + p.partition} @click=${() => this.pick(p.partition)}>${p.partition} (${mine(p)?.status ?? p.status})</button> `)}</p>`
        : html`<p class="small" data-testid="replay-notable">${this.block} is unchanged on every replayed partition.</p>`}
      ${this.picked ? this.dayView(r.partitions.find((p) => p.partition === this.picked)) : nothing}
    </section>`;
  }

  onClose?: () => void;

  /** The replay's options: how many of the last stored days, and the gate. */
  private form(): TemplateResult {
    const submit = (e: Event) => {
      e.preventDefault();
      void this.start();
    };
    return html`<section class="replay" data-testid="replay-panel">
      <h3>Replay ${this.block} <span class="muted small">the saved code over stored days, each block on the inputs its stored version read; nothing is published</span>
        <button class="link" data-testid="replay-close" @click=${() => this.onClose?.()}>close</button></h3>
      <form class="replay-form small" novalidate @submit=${submit}>
        <label>the last <input type="number" min="1" step="1" data-testid="replay-days" .value=${String(this.days)}
          @input=${(e: Event) => (this.days = Number((e.target as HTMLInputElement).value))} /> stored days</label>
        <label title="the report fails when this block's output differs on any replayed partition (strata test --expect-unchanged)">
          <input type="checkbox" data-testid="replay-expect" .checked=${this.expect} @change=${(e: Event) => (this.expect = (e.target as HTMLInputElement).checked)} />
          expect ${this.block} unchanged</label>
        <button class="primary" type="submit" data-testid="replay-start">Replay</button>
      </form>
      ${this.error ? html`<div class="error-box" data-testid="replay-error">${this.error}</div>` : nothing}
    </section>`;
  }

  private dayView(p: PartitionReplay | undefined): TemplateResult {
    if (!p) return html`<p class="muted">${this.picked} was not replayed.</p>`;
    return html`<div class="replay-day" data-testid="replay-day">
      <h4>${p.partition} · ${p.status}</h4>
      ${p.blocks.map((b) => this.blockView(b))}
    </div>`;
  }

  private blockView(b: BlockReplay): TemplateResult {
    const d = b.diff;
    const zone = this.zone();
    const cell = (v: unknown) => (v === null || v === undefined ? html`<span class="muted">NULL</span>` : formatDiffValue(v, zone));
    return html`<div class=${"replay-block " + b.status} data-testid=${"replay-block-" + b.block}>
      <b class="mono">${b.block}</b> <span class=${"tag " + (b.status === "failed" ? "failed" : b.status === "changed" ? "dirty" : "succeeded")}>${b.status}</span>
      ${d && !d.unchanged ? html`<span class="small">${n(d.counts.changed)} changed, ${n(d.counts.added)} added, ${n(d.counts.removed)} removed · rows ${n(d.rows_before)} → ${n(d.rows_after)} · ${d.keys.length ? `key ${d.keys.join(", ")}` : "whole rows"}</span>` : nothing}
      ${b.error ? html`<pre class="error-text small">${b.error_file && b.error_line ? `${b.error_file}:${b.error_line}: ` : ""}${b.error}</pre>` : nothing}
      ${d && d.rows.length
        ? html`<div class="table-scroll"><table class="data diff-table" data-testid="replay-rows">
            <thead><tr><th></th>${d.row_columns.map((c) => html`<th>${c}</th>`)}</tr></thead>
            <tbody>
              ${d.rows.map(
                (r) => html`${r.old ? html`<tr class="old ${r.kind}"><td class="small">− stored</td>${r.old.map((v, i) => html`<td class=${r.new && String(r.new[i]) !== String(v) ? "differs" : ""}>${cell(v)}</td>`)}</tr>` : nothing}
                  ${r.new ? html`<tr class="new ${r.kind}"><td class="small">+ replayed</td>${r.new.map((v, i) => html`<td class=${r.old && String(r.old[i]) !== String(v) ? "differs" : ""}>${cell(v)}</td>`)}</tr>` : nothing}`,
              )}
            </tbody>
          </table></div>`
        : nothing}
    </div>`;
  }
}
