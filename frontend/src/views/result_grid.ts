// The result table of a cell or a product preview: sort by clicking a
// header (shift adds a key), filter rows (any cell, or per column in the box
// under its header: text, null, !null, >v, <=v …), read each column's summary
// over the whole result in its header (nulls; min … max or distinct), resize columns by dragging a
// header's edge, page past the first 100 rows, copy a selection (click,
// shift-click; Ctrl+C) or the page as TSV, and export the whole result as
// CSV. Paging, sorting and filtering run on the server over the whole
// result (a cell's output kept in the session, or the product window), so
// a sort is never of the rows that happened to be fetched.

import { html, nothing, type TemplateResult } from "lit-html";
import { errorText } from "../api";
import { columnsParam, histHeights, inSelection, nextSort, selectionTSV, sortParam, summaryLine, type ColumnSummary, type Selection, type SortKey } from "../table_state";
import type { Preview } from "../types";
import { formatCell, NUMERIC, typeLabel } from "./table";

export const PAGE_ROWS = 100;

export interface PageQuery {
  offset: number;
  limit: number;
  sort: string;
  filter: string;
  columns: string; // per-column filters as JSON ({"amount": ">100"}), "" for none
}

/** Where a grid's rows come from. */
export interface GridSource {
  page(q: PageQuery): Promise<Preview>;
  csvURL(q: { sort: string; filter: string; columns: string }): string;
  /** Each column's summary over the whole result, when the source has one. */
  summary?(): Promise<ColumnSummary[]>;
}

export class ResultGrid {
  page: Preview;
  offset = 0;
  sort: SortKey[] = [];
  filter = "";
  /** The boxes under the headers: column → filter text. */
  colFilters = new Map<string, string>();
  summary = new Map<string, ColumnSummary>();
  widths = new Map<string, number>();
  sel?: Selection;
  loading = false;
  error = "";
  copied = "";
  private seq = 0;
  private filterTimer?: ReturnType<typeof setTimeout>;

  constructor(
    first: Preview,
    private src: GridSource,
    private readonly update: () => void,
  ) {
    this.page = first;
    void this.loadSummary();
  }

  private async loadSummary(): Promise<void> {
    const src = this.src;
    if (!src.summary) return;
    try {
      const cols = await src.summary();
      if (src !== this.src) return; // a newer result
      this.summary = new Map(cols.map((c) => [c.name, c]));
      this.update();
    } catch {
      /* the summary is a convenience: headers without it */
    }
  }

  /** A new result for the same place (a re-run): keep sort, filter and widths, start at the top. */
  reset(first: Preview, src: GridSource): void {
    this.src = src;
    this.page = first;
    this.offset = 0;
    this.sel = undefined;
    this.error = "";
    this.summary = new Map();
    void this.loadSummary();
    if (this.sort.length || this.filter || columnsParam(this.colFilters)) void this.load(0);
  }

  private query(offset: number): PageQuery {
    return { offset, limit: PAGE_ROWS, sort: sortParam(this.sort), filter: this.filter, columns: columnsParam(this.colFilters) };
  }

  async load(offset: number): Promise<void> {
    const seq = ++this.seq;
    this.loading = true;
    this.update();
    try {
      const p = await this.src.page(this.query(offset));
      if (seq !== this.seq) return; // a later request won
      this.page = p;
      this.offset = offset;
      this.sel = undefined;
      this.error = "";
    } catch (e) {
      if (seq === this.seq) this.error = errorText(e);
    } finally {
      if (seq === this.seq) {
        this.loading = false;
        this.update();
      }
    }
  }

  private clickHeader(e: MouseEvent, name: string): void {
    if ((e.target as HTMLElement).classList.contains("col-resize")) return;
    this.sort = nextSort(this.sort, name, e.shiftKey);
    void this.load(0);
  }

  private setFilter(v: string): void {
    this.filter = v;
    clearTimeout(this.filterTimer);
    this.filterTimer = setTimeout(() => void this.load(0), 250);
  }

  private setColFilter(name: string, v: string): void {
    this.colFilters.set(name, v);
    clearTimeout(this.filterTimer);
    this.filterTimer = setTimeout(() => void this.load(0), 250);
  }

  private startResize(e: MouseEvent, name: string): void {
    e.preventDefault();
    e.stopPropagation();
    const th = (e.target as HTMLElement).closest("th") as HTMLElement;
    const x0 = e.clientX,
      w0 = th.getBoundingClientRect().width;
    const move = (m: MouseEvent) => {
      this.widths.set(name, Math.max(40, Math.round(w0 + m.clientX - x0)));
      this.update();
    };
    const up = () => {
      window.removeEventListener("mousemove", move);
      window.removeEventListener("mouseup", up);
    };
    window.addEventListener("mousemove", move);
    window.addEventListener("mouseup", up);
  }

  private clickCell(e: MouseEvent, row: number, col: number): void {
    const cell = { row, col };
    this.sel = e.shiftKey && this.sel ? { anchor: this.sel.anchor, focus: cell } : { anchor: cell, focus: cell };
    ((e.currentTarget as HTMLElement).closest(".table-scroll") as HTMLElement | null)?.focus({ preventScroll: true });
    this.update();
  }

  private texts(zone: string): string[][] {
    return this.page.rows.map((r) => this.page.columns.map((c, i) => (r[i] == null ? "" : formatCell(r[i], c.type, zone))));
  }

  /** The selection (or, with none, the whole page with its header) as TSV. */
  tsv(zone: string): string {
    const names = this.page.columns.map((c) => c.name);
    const text = this.texts(zone);
    if (this.sel) return selectionTSV(text, names, this.sel);
    if (!text.length || !names.length) return names.join("\t");
    return selectionTSV(text, names, { anchor: { row: 0, col: 0 }, focus: { row: text.length - 1, col: names.length - 1 } }, true);
  }

  private onCopy(e: ClipboardEvent, zone: string): void {
    if (!this.sel || !e.clipboardData) return;
    e.preventDefault();
    e.clipboardData.setData("text/plain", this.tsv(zone));
    this.flash(this.cellCount() === 1 ? "cell copied" : `${this.cellCount()} cells copied`);
  }

  private async copyButton(zone: string): Promise<void> {
    const n = this.sel ? this.cellCount() : this.page.rows.length;
    try {
      await navigator.clipboard.writeText(this.tsv(zone));
      this.flash(this.sel ? `${n} cell${n === 1 ? "" : "s"} copied` : `${n} rows copied`);
    } catch (err) {
      this.flash("copy failed: " + errorText(err));
    }
  }

  private cellCount(): number {
    if (!this.sel) return 0;
    const r = Math.abs(this.sel.anchor.row - this.sel.focus.row) + 1;
    const c = Math.abs(this.sel.anchor.col - this.sel.focus.col) + 1;
    return r * c;
  }

  private flash(msg: string): void {
    this.copied = msg;
    this.update();
    setTimeout(() => {
      if (this.copied === msg) {
        this.copied = "";
        this.update();
      }
    }, 2500);
  }

  render(zone: string, opts: { caption?: string | TemplateResult } = {}): TemplateResult {
    const p = this.page;
    const total = p.row_count;
    const from = total ? this.offset + 1 : 0;
    const to = this.offset + p.rows.length;
    const texts = this.texts(zone);
    const width = (name: string) => {
      const w = this.widths.get(name);
      return w ? `width:${w}px;min-width:${w}px;max-width:${w}px` : "";
    };
    const sortOf = (name: string) => this.sort.findIndex((k) => k.column === name);
    const columns = columnsParam(this.colFilters);
    const csv = this.src.csvURL({ sort: sortParam(this.sort), filter: this.filter, columns });
    return html`<div class="preview result-grid" data-testid="result-grid">
      <div class="preview-meta">
        ${opts.caption ?? nothing}
        <span class="rowcount" data-testid="row-count">${total.toLocaleString("en-US")} row${total === 1 ? "" : "s"}${this.filter || columns ? " matching" : ""}</span>
        ${total > p.rows.length || this.offset > 0 ? html`<span class="muted" data-testid="page-range">· ${from.toLocaleString("en-US")}–${to.toLocaleString("en-US")} shown</span>` : nothing}
        <span class="muted">· ${p.columns.length} column${p.columns.length === 1 ? "" : "s"} · times in ${zone}</span>
        <span class="spacer"></span>
        <input class="grid-filter" data-testid="grid-filter" type="search" placeholder="filter rows…" aria-label="filter rows" .value=${this.filter} @input=${(e: Event) => this.setFilter((e.target as HTMLInputElement).value)} />
        <button class="link" data-testid="page-prev" ?disabled=${this.offset === 0 || this.loading} @click=${() => this.load(Math.max(0, this.offset - PAGE_ROWS))}>‹ prev</button>
        <button class="link" data-testid="page-next" ?disabled=${to >= total || this.loading} @click=${() => this.load(this.offset + PAGE_ROWS)}>next ›</button>
        <button class="link" data-testid="grid-copy" title="copy the selected cells (or this page) as TSV" @click=${() => this.copyButton(zone)}>copy</button>
        <a class="link" data-testid="grid-csv" href=${csv} download title="the whole result as CSV, sorted and filtered as shown">CSV ↓</a>
        ${this.copied ? html`<span class="muted small" data-testid="grid-copied">${this.copied}</span>` : nothing}
        ${this.loading ? html`<span class="spinner" aria-hidden="true"></span>` : nothing}
      </div>
      ${this.error ? html`<div class="error-box" data-testid="grid-error">${this.error}</div>` : nothing}
      <div class="table-scroll" tabindex="0" @copy=${(e: ClipboardEvent) => this.onCopy(e, zone)}>
        <table class="data" data-testid="preview-table">
          <thead>
            <tr>
              ${p.columns.map((c) => {
                const si = sortOf(c.name);
                const k = si >= 0 ? this.sort[si] : undefined;
                return html`<th
                  class=${(NUMERIC.has(c.type) ? "num " : "") + "sortable"}
                  style=${width(c.name)}
                  data-col=${c.name}
                  aria-sort=${k ? (k.desc ? "descending" : "ascending") : "none"}
                  title="click to sort, shift-click to add a key; drag the edge to resize"
                  @click=${(e: MouseEvent) => this.clickHeader(e, c.name)}
                  ><span class="colname">${c.name}</span><span class="coltype">${typeLabel(c)}</span>${this.summary.has(c.name)
                    ? html`<span class="colsum" data-testid="col-summary" title=${`over all ${this.summary.get(c.name)!.rows.toLocaleString("en-US")} rows`}>${summaryLine(this.summary.get(c.name)!)}</span>${histView(this.summary.get(c.name)!)}`
                    : nothing}${k
                    ? html`<span class="sort-mark" data-testid="sort-mark">${k.desc ? "▼" : "▲"}${this.sort.length > 1 ? si + 1 : ""}</span>`
                    : nothing}<span class="col-resize" data-testid="col-resize" @mousedown=${(e: MouseEvent) => this.startResize(e, c.name)}></span
                ></th>`;
              })}
            </tr>
            <tr class="col-filters">
              ${p.columns.map(
                (c) => html`<th style=${width(c.name)}>
                  <input
                    type="search"
                    data-testid="col-filter"
                    data-col=${c.name}
                    aria-label=${"filter " + c.name}
                    placeholder=${NUMERIC.has(c.type) ? ">0, null…" : "contains…"}
                    title="contains text; null, !null; or >v >=v <v <=v =v !=v compared as the column's type"
                    .value=${this.colFilters.get(c.name) ?? ""}
                    @input=${(e: Event) => this.setColFilter(c.name, (e.target as HTMLInputElement).value)}
                  />
                </th>`,
              )}
            </tr>
          </thead>
          <tbody>
            ${p.rows.map(
              (r, ri) =>
                html`<tr>
                  ${p.columns.map((c, i) => {
                    const v = r[i];
                    const cls = (NUMERIC.has(c.type) ? "num" : "") + (v == null ? " null" : "") + (inSelection(this.sel, ri, i) ? " selected" : "");
                    return html`<td class=${cls} style=${width(c.name)} @mousedown=${(e: MouseEvent) => this.clickCell(e, ri, i)}>${v == null ? "null" : texts[ri][i]}</td>`;
                  })}
                </tr>`,
            )}
          </tbody>
        </table>
        ${p.rows.length === 0 ? html`<div class="empty">no rows</div>` : nothing}
      </div>
    </div>`;
  }
}

/** The small histogram under a numeric or time column's header (as marimo shows), from the server's bins. */
function histView(s: ColumnSummary): TemplateResult | typeof nothing {
  if (!s.hist?.length) return nothing;
  const hs = histHeights(s.hist);
  return html`<span class="colhist" data-testid="col-hist" aria-label=${`distribution of ${s.name}: ${s.hist.length} bins from ${s.min} to ${s.max}`}
    >${hs.map((h, i) => html`<i style=${`height:${h}%`} title=${`${s.hist![i].toLocaleString("en-US")} rows`}></i>`)}</span>`;
}
