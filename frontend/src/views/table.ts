// The preview table: column names and types, the row count, the first rows
// in a scroll box; numbers right-aligned, times in the chosen zone.

import { html, nothing, type TemplateResult } from "lit-html";
import { formatInstant } from "../time";
import type { Preview } from "../types";

const NUMERIC = new Set(["int64", "float64", "int32", "float32", "uint64"]);

export function formatCell(v: unknown, type: string, zone: string): string {
  if (v === null || v === undefined) return "null";
  if (type === "time" && typeof v === "string") return formatInstant(v, zone, { seconds: true });
  if (type === "float64" && typeof v === "number") {
    return Number.isInteger(v) ? v.toFixed(1) : String(+v.toPrecision(12));
  }
  if (type === "int64" && typeof v === "number") return String(v);
  return typeof v === "string" ? v : JSON.stringify(v);
}

export function previewTable(p: Preview, zone: string, opts: { caption?: string | TemplateResult; maxRows?: number } = {}): TemplateResult {
  const shown = p.rows.slice(0, opts.maxRows ?? 200);
  return html`<div class="preview">
    <div class="preview-meta">
      ${opts.caption ?? nothing}
      <span class="rowcount" data-testid="row-count"
        >${p.row_count.toLocaleString("en-US")} row${p.row_count === 1 ? "" : "s"}${shown.length < p.row_count ? html`, first ${shown.length.toLocaleString("en-US")} shown` : nothing}</span
      >
      <span class="muted">· ${p.columns.length} column${p.columns.length === 1 ? "" : "s"} · times in ${zone}</span>
    </div>
    <div class="table-scroll">
      <table class="data" data-testid="preview-table">
        <thead>
          <tr>
            ${p.columns.map(
              (c) => html`<th class=${NUMERIC.has(c.type) ? "num" : ""}><span class="colname">${c.name}</span><span class="coltype">${c.type}</span></th>`,
            )}
          </tr>
        </thead>
        <tbody>
          ${shown.map(
            (r) =>
              html`<tr>
                ${p.columns.map((c, i) => {
                  const v = r[i];
                  const cls = (NUMERIC.has(c.type) ? "num" : "") + (v == null ? " null" : "");
                  return html`<td class=${cls}>${formatCell(v, c.type, zone)}</td>`;
                })}
              </tr>`,
          )}
        </tbody>
      </table>
      ${p.rows.length === 0 ? html`<div class="empty">no rows</div>` : nothing}
    </div>
  </div>`;
}
