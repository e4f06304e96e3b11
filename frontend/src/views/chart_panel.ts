// The chart under a preview: pick a numeric column, the time axis and an
// aggregate; the line is drawn from the preview's rows (or a larger read of
// the same window, when the panel was given one).

import { html, nothing, type TemplateResult } from "lit-html";
import { numericColumns, series, xColumns, type Agg } from "../chart";
import type { Preview } from "../types";
import { lineChart } from "./chart_view";

const AGGS: Agg[] = ["sum", "avg", "min", "max", "count"];

export class ChartPanel {
  x = "";
  y = "";
  agg: Agg = "sum";

  constructor(
    public preview: Preview,
    private readonly update: () => void,
  ) {
    this.pickDefaults();
  }

  setPreview(p: Preview): void {
    this.preview = p;
    this.pickDefaults();
  }

  private pickDefaults(): void {
    const xs = xColumns(this.preview),
      ys = numericColumns(this.preview);
    if (!xs.includes(this.x)) this.x = xs[0] ?? "";
    if (!ys.includes(this.y)) this.y = ys.find((c) => !/(^id$|_id$|^_)/.test(c)) ?? ys[0] ?? "";
  }

  render(zone: string): TemplateResult {
    const xs = xColumns(this.preview),
      ys = numericColumns(this.preview);
    if (!xs.length || !ys.length) {
      return html`<div class="chart-panel muted">Nothing to chart: the preview needs a numeric column and a time column or _partition.</div>`;
    }
    const pts = series(this.preview, this.x, this.y, this.agg);
    const timeX = this.preview.columns.find((c) => c.name === this.x)?.type === "time";
    const set = (f: (v: string) => void) => (e: Event) => {
      f((e.target as HTMLSelectElement).value);
      this.update();
    };
    return html`<div class="chart-panel">
      <div class="controls">
        <label>${this.agg} of <select data-testid="chart-y" @change=${set((v) => (this.y = v))}>${ys.map((c) => html`<option ?selected=${c === this.y}>${c}</option>`)}</select></label>
        <label>by <select @change=${set((v) => (this.x = v))}>${xs.map((c) => html`<option ?selected=${c === this.x}>${c}</option>`)}</select></label>
        <label>aggregate <select @change=${set((v) => (this.agg = v as Agg))}>${AGGS.map((a) => html`<option ?selected=${a === this.agg}>${a}</option>`)}</select></label>
        <span class="muted">${pts.length} point${pts.length === 1 ? "" : "s"} from ${this.preview.rows.length.toLocaleString("en-US")} rows${this.preview.rows.length < this.preview.row_count ? html` (of ${this.preview.row_count.toLocaleString("en-US")})` : nothing}</span>
      </div>
      ${lineChart(pts, { yLabel: `${this.agg}(${this.y}) by ${this.x}`, timeX, zone })}
    </div>`;
  }
}
