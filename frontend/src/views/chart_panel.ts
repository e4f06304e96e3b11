// The chart under a preview. For a stored product (source given) the
// numbers are aggregated by the server over the whole window, with time
// buckets (auto from the range, or chosen), as a line, bars or a
// histogram, and the chart says what it aggregated ("sum of revenue per
// day, 31 buckets over 44,000 rows"). For an editor run's output, which is
// not stored, the line is drawn from the rows the browser holds, and says so.

import { html, nothing, type TemplateResult } from "lit-html";
import { api, errorText } from "../api";
import { aggPoints, numericColumns, series, serverXColumns, xColumns, type Agg } from "../chart";
import type { Aggregation, Preview } from "../types";
import { barChart, lineChart } from "./chart_view";

const AGGS: Agg[] = ["sum", "avg", "min", "max", "count"];
const BUCKETS = ["auto", "none", "minute", "hour", "day", "week", "month", "quarter", "year"];
export type ChartKind = "line" | "bar" | "histogram";

/** The window of a stored product the server aggregates. */
export interface ChartSource {
  product: string;
  window: { partition?: string; last?: number; from?: string; to?: string; period?: string };
}

export class ChartPanel {
  x = "";
  y = "";
  agg: Agg = "sum";
  kind: ChartKind = "line";
  bucket = "auto";
  bins = 0;
  result?: Aggregation;
  loading = false;
  error = "";
  private seq = 0;

  constructor(
    public preview: Preview,
    private readonly update: () => void,
    public source?: ChartSource,
  ) {
    this.pickDefaults();
    void this.fetch();
  }

  setPreview(p: Preview, source?: ChartSource): void {
    this.preview = p;
    this.source = source;
    this.result = undefined;
    this.pickDefaults();
    void this.fetch();
  }

  private xs(): string[] {
    return this.source ? serverXColumns(this.preview) : xColumns(this.preview);
  }

  private pickDefaults(): void {
    const xs = this.xs(),
      ys = numericColumns(this.preview);
    if (!xs.includes(this.x)) this.x = xs[0] ?? "";
    if (!ys.includes(this.y)) this.y = ys.find((c) => !/(^id$|_id$|^_)/.test(c)) ?? ys[0] ?? "";
  }

  /** Asks the server for the numbers (stored products only); the newest answer wins. */
  async fetch(): Promise<void> {
    if (!this.source) return;
    const seq = ++this.seq;
    this.loading = true;
    this.error = "";
    this.update();
    try {
      const a =
        this.kind === "histogram"
          ? await api.aggregate(this.source.product, this.source.window, { kind: "histogram", y: this.y, bins: this.bins || undefined })
          : await api.aggregate(this.source.product, this.source.window, { kind: "series", x: this.x, y: this.agg === "count" ? undefined : this.y, agg: this.agg, bucket: this.bucket });
      if (seq !== this.seq) return;
      this.result = a;
    } catch (e) {
      if (seq !== this.seq) return;
      this.error = errorText(e);
      this.result = undefined;
    }
    this.loading = false;
    this.update();
  }

  render(zone: string): TemplateResult {
    const xs = this.xs(),
      ys = numericColumns(this.preview);
    if (!ys.length || (!xs.length && this.kind !== "histogram")) {
      return html`<div class="chart-panel muted">Nothing to chart: the preview needs a numeric column and a time column or _partition.</div>`;
    }
    const set = (f: (v: string) => void) => (e: Event) => {
      f((e.target as HTMLSelectElement).value);
      if (this.source) void this.fetch();
      else this.update();
    };
    const hist = this.kind === "histogram";
    const controls = html`<div class="controls">
      ${this.source
        ? html`<label>chart <select data-testid="chart-kind" @change=${set((v) => (this.kind = v as ChartKind))}>${(["line", "bar", "histogram"] as const).map((k) => html`<option ?selected=${k === this.kind}>${k}</option>`)}</select></label>`
        : nothing}
      ${hist ? html`<label>of` : html`<label>${this.agg} of`} <select data-testid="chart-y" @change=${set((v) => (this.y = v))}>${ys.map((c) => html`<option ?selected=${c === this.y}>${c}</option>`)}</select></label>
      ${hist
        ? html`<label>bins <select data-testid="chart-bins" @change=${set((v) => (this.bins = +v))}>${[0, 10, 20, 50].map((n) => html`<option value=${n} ?selected=${n === this.bins}>${n || "auto"}</option>`)}</select></label>`
        : html`<label>by <select data-testid="chart-x" @change=${set((v) => (this.x = v))}>${xs.map((c) => html`<option ?selected=${c === this.x}>${c}</option>`)}</select></label>
            <label>aggregate <select data-testid="chart-agg" @change=${set((v) => (this.agg = v as Agg))}>${AGGS.map((a) => html`<option ?selected=${a === this.agg}>${a}</option>`)}</select></label>
            ${this.source ? html`<label>per <select data-testid="chart-bucket" @change=${set((v) => (this.bucket = v))}>${BUCKETS.map((b) => html`<option ?selected=${b === this.bucket}>${b}</option>`)}</select></label>` : nothing}`}
    </div>`;
    if (!this.source) {
      const pts = series(this.preview, this.x, this.y, this.agg);
      const timeX = this.preview.columns.find((c) => c.name === this.x)?.type === "time";
      return html`<div class="chart-panel">
        ${controls}
        <div class="muted chart-describe" data-testid="chart-describe">${pts.length} point${pts.length === 1 ? "" : "s"} from the ${this.preview.rows.length.toLocaleString("en-US")} rows of this run's output held in the browser${this.preview.rows.length < this.preview.row_count ? ` (of ${this.preview.row_count.toLocaleString("en-US")})` : ""}</div>
        ${lineChart(pts, { yLabel: `${this.agg}(${this.y}) by ${this.x}`, timeX, zone })}
      </div>`;
    }
    const a = this.result;
    const pts = a ? aggPoints(a) : [];
    const label = hist ? `rows per range of ${this.y}` : a?.describe.split(",")[0] ?? "";
    return html`<div class="chart-panel">
      ${controls}
      ${this.error ? html`<div class="error-text small">${this.error}</div>` : nothing}
      ${a ? html`<div class="muted chart-describe" data-testid="chart-describe">${a.describe}${this.loading ? " · updating…" : ""}</div>` : this.loading ? html`<div class="muted small">aggregating…</div>` : nothing}
      ${a ? (this.kind === "line" ? lineChart(pts, { yLabel: label, timeX: false, zone }) : barChart(pts, { yLabel: label })) : nothing}
    </div>`;
  }
}
