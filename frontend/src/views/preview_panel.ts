// Reads a stored product without running anything: one partition, the last
// N partitions, a range of partitions or a past version of one partition.
// Used by the cells of the pipeline page and by the products page.

import { html, nothing, type TemplateResult } from "lit-html";
import { api, errorText } from "../api";
import { keyExample } from "../partitions";
import { runHref } from "../runs";
import { formatInstant } from "../time";
import type { PartitionsConfig, PreviewResponse, ProductPartition } from "../types";
import { ChartPanel, type ChartSource } from "./chart_panel";
import { ResultGrid, type GridSource } from "./result_grid";

export type WindowMode = "partition" | "last" | "range" | "period" | "version";

export interface PreviewWindow {
  partition?: string;
  last?: number;
  from?: string;
  to?: string;
  period?: string;
  version?: number;
}

/** What a window reads, in words: "partition 2024-01-02", "last 7 partitions", "v2 of 2024-01-02". */
export function describeWindow(w: PreviewWindow): string {
  if (w.version) return `version ${w.version} of ${w.partition}`;
  if (w.partition) return `partition ${w.partition}`;
  if (w.last) return `last ${w.last} partition${w.last === 1 ? "" : "s"}`;
  if (w.from || w.to) return `${w.from || "…"} to ${w.to || "…"}`;
  if (w.period) return `period ${w.period}`;
  return "latest";
}

export class PreviewPanel {
  mode: WindowMode = "partition";
  partition = "";
  last = 7;
  from = "";
  to = "";
  version = 0;
  period = "";
  versions: ProductPartition | null = null;
  result?: PreviewResponse;
  shown?: PreviewWindow;
  loading = false;
  error = "";
  chart?: ChartPanel;
  grid?: ResultGrid;

  constructor(
    public product: string,
    public cfg: PartitionsConfig,
    private readonly update: () => void,
  ) {}

  window(): PreviewWindow {
    switch (this.mode) {
      case "last":
        return { last: this.last };
      case "range":
        return { from: this.from, to: this.to };
      case "period":
        return { period: this.period };
      case "version":
        return { partition: this.partition, version: this.version || undefined };
    }
    return { partition: this.partition };
  }

  async load(w: PreviewWindow = this.window(), limit = 100): Promise<void> {
    this.loading = true;
    this.error = "";
    this.update();
    try {
      this.result = await api.preview(this.product, { ...w, limit });
      this.shown = w;
      const src: GridSource = {
        page: async (p) => (await api.preview(this.product, { ...w, ...p })).preview,
        csvURL: (p) => api.previewCSV(this.product, { ...(w as Record<string, string | number | undefined>), ...p }),
      };
      if (this.grid) this.grid.reset(this.result.preview, src);
      else this.grid = new ResultGrid(this.result.preview, src, this.update);
      if (this.chart) this.chart.setPreview(this.result.preview, this.chartSource());
    } catch (e) {
      this.error = errorText(e);
      this.result = undefined;
    } finally {
      this.loading = false;
      this.update();
    }
  }

  /** The chart is aggregated by the server over the whole shown window (a past version is one partition: its rows, as shown). */
  async toggleChart(): Promise<void> {
    if (this.chart) {
      this.chart = undefined;
      this.update();
      return;
    }
    if (!this.result || !this.shown) return;
    this.chart = new ChartPanel(this.result.preview, this.update, this.chartSource());
    this.update();
  }

  private chartSource(): ChartSource | undefined {
    const w = this.shown;
    if (!w || w.version) return undefined; // a past version is not in the current window the server aggregates
    return { product: this.product, window: { partition: w.partition, last: w.last, from: w.from, to: w.to, period: w.period } };
  }

  async loadVersions(): Promise<void> {
    if (!this.partition) return;
    try {
      const ps = await api.productPartitions(this.product);
      this.versions = ps.partitions.find((p) => p.key === this.partition) ?? null;
      if (this.versions && !this.versions.versions.some((v) => v.version === this.version)) this.version = this.versions.current || this.versions.versions[0]?.version || 0;
    } catch (e) {
      this.error = errorText(e);
    }
    this.update();
  }

  controls(): TemplateResult {
    const ex = keyExample(this.cfg);
    const val = (f: (v: string) => void) => (e: Event) => {
      f((e.target as HTMLInputElement).value);
      this.update();
    };
    const submit = (e: Event) => {
      e.preventDefault();
      void this.load();
    };
    return html`<form class="window-form" data-testid="window-form" @submit=${submit}>
      <select aria-label="window" data-testid="window-mode" @change=${val((v) => {
        this.mode = v as WindowMode;
        if (this.mode === "version") void this.loadVersions();
      })}>
        ${(["partition", "last", "range", "period", "version"] as WindowMode[]).map((m) => html`<option value=${m} ?selected=${m === this.mode}>${{ partition: "one partition", last: "last N partitions", range: "range", period: "calendar period", version: "past version" }[m]}</option>`)}
      </select>
      ${this.mode === "partition" || this.mode === "version"
        ? html`<input aria-label="partition" size="11" placeholder=${ex} .value=${this.partition} @change=${val((v) => {
            this.partition = v.trim();
            if (this.mode === "version") void this.loadVersions();
          })} />`
        : nothing}
      ${this.mode === "last" ? html`<input aria-label="how many partitions" data-testid="window-last" type="number" min="1" max="1000" style="width:5em" .value=${String(this.last)} @change=${val((v) => (this.last = Math.max(1, +v || 1)))} />` : nothing}
      ${this.mode === "range"
        ? html`<input aria-label="from partition" size="11" placeholder=${"from " + ex} .value=${this.from} @change=${val((v) => (this.from = v.trim()))} /><input aria-label="to partition (inclusive)" size="11" placeholder=${"to " + ex} .value=${this.to} @change=${val((v) => (this.to = v.trim()))} />`
        : nothing}
      ${this.mode === "period" ? html`<input aria-label="calendar period" size="10" placeholder="2024-Q1, 2024-03, 2024-W10, 2024" .value=${this.period} @change=${val((v) => (this.period = v.trim()))} />` : nothing}
      ${this.mode === "version"
        ? html`<select aria-label="version" @change=${val((v) => (this.version = +v))}>
            ${(this.versions?.versions ?? []).map((v) => html`<option value=${v.version} ?selected=${v.version === this.version}>v${v.version}${v.current ? " (current)" : ""} · ${v.rows} rows</option>`)}
            ${!this.versions?.versions.length ? html`<option value="0">no versions</option>` : nothing}
          </select>`
        : nothing}
      <button type="submit" data-testid="window-load" ?disabled=${this.loading}>${this.loading ? "Reading…" : "Preview"}</button>
      <span class="muted small">keys like ${ex}, partitions in ${this.cfg.timezone}</span>
    </form>`;
  }

  body(zone: string): TemplateResult {
    if (this.error) return html`<div class="error-box">${this.error}</div>`;
    if (!this.result) return html`${nothing}`;
    const w = this.shown ?? {};
    const caption = html`<span class="tag stored">stored</span> <b>${this.product}</b> · ${describeWindow(w)}
      <button class="link" data-testid="chart-toggle" @click=${() => this.toggleChart()}>${this.chart ? "hide chart" : "chart ▸"}</button>`;
    return html`${this.grid ? this.grid.render(zone, { caption }) : nothing}${this.chart ? this.chart.render(zone) : nothing}`;
  }

  versionList(zone: string, onRollback: (v: number) => void): TemplateResult {
    if (!this.versions) return html`${nothing}`;
    return html`<table class="data versions" data-testid="versions">
      <thead><tr><th>version</th><th>rows</th><th>written</th><th>run</th><th>code</th><th></th></tr></thead>
      <tbody>
        ${this.versions.versions.map(
          (v) => html`<tr class=${v.current ? "current" : ""}>
            <td>v${v.version}${v.current ? html` <span class="tag ok">current</span>` : nothing}</td>
            <td class="num">${v.rows.toLocaleString("en-US")}</td>
            <td>${formatInstant(v.created_at, zone)}</td>
            <td class="mono small"><a data-testid="version-run" href=${runHref(v.run_id)} title="the run that wrote this version">${v.run_id}</a></td>
            <td class="mono small">${v.code_hash.slice(0, 8)}</td>
            <td>
              <button class="link" @click=${() => {
                this.mode = "version";
                this.version = v.version;
                void this.load({ partition: this.versions!.key, version: v.version });
              }}>preview</button>
              ${v.current
                ? nothing
                : html`<button class="link danger" data-testid="rollback" @click=${() => onRollback(v.version)}>
                    ${v.version < (this.versions!.current ?? 0) ? `roll back to v${v.version}` : `make v${v.version} current`}
                  </button>`}
            </td>
          </tr>`,
        )}
      </tbody>
    </table>`;
  }
}
