// The review's per-column statistics (the API's columns: before and after
// of each column over the partitions that differ) as table cells: one
// "before → after" per statistic, marked when it moved, with the relative
// change of a mean and of a total. Pure; the view is review_panel.ts.

import type { ColumnChange, ColumnSummary } from "./types";

export interface StatCell {
  text: string; // "12 → 15", or one value when it did not move
  moved: boolean;
  delta?: string; // "+1.23%" for means and totals
}

export interface ColumnRow {
  name: string;
  type: string;
  changed: boolean;
  side: "both" | "added" | "removed";
  nulls: StatCell;
  distinct: StatCell;
  min: StatCell;
  max: StatCell;
  mean?: StatCell;
  total?: StatCell;
}

const num = (v: number) => v.toLocaleString("en-US", { maximumFractionDigits: 6 });

function pct(a: number, b: number): string | undefined {
  if (!Number.isFinite(a) || !Number.isFinite(b) || a === b) return undefined;
  if (a === 0) return "new";
  const p = ((b - a) / Math.abs(a)) * 100;
  return (p > 0 ? "+" : "") + (Math.abs(p) < 0.01 ? p.toPrecision(2) : p.toFixed(2)) + "%";
}

function cell(a: string | undefined, b: string | undefined, delta?: string): StatCell {
  if (a === undefined) return { text: b ?? "", moved: false };
  if (b === undefined) return { text: a, moved: false };
  return a === b ? { text: a, moved: false } : { text: `${a} → ${b}`, moved: true, delta };
}

const txt = (s: ColumnSummary | null, f: (s: ColumnSummary) => string | null | undefined): string | undefined => {
  if (!s) return undefined;
  const v = f(s);
  return v === null || v === undefined ? "null" : v;
};

/** The rows of the column table, changed columns first (then in the API's order). */
export function columnRows(cols: ColumnChange[]): ColumnRow[] {
  const rows = cols.map((c): ColumnRow => {
    const b = c.before,
      a = c.after;
    const r: ColumnRow = {
      name: c.name,
      type: c.type,
      changed: c.changed,
      side: b && a ? "both" : a ? "added" : "removed",
      nulls: cell(txt(b, (s) => num(s.nulls)), txt(a, (s) => num(s.nulls))),
      distinct: cell(txt(b, (s) => num(s.distinct)), txt(a, (s) => num(s.distinct))),
      min: cell(txt(b, (s) => s.min), txt(a, (s) => s.min)),
      max: cell(txt(b, (s) => s.max), txt(a, (s) => s.max)),
    };
    if (b?.mean !== undefined || a?.mean !== undefined) {
      r.mean = cell(b?.mean !== undefined ? num(b.mean) : undefined, a?.mean !== undefined ? num(a.mean) : undefined, b?.mean !== undefined && a?.mean !== undefined ? pct(b.mean, a.mean) : undefined);
    }
    if (b?.total !== undefined || a?.total !== undefined) {
      r.total = cell(b?.total, a?.total, b?.total !== undefined && a?.total !== undefined ? pct(Number(b.total), Number(a.total)) : undefined);
    }
    return r;
  });
  return [...rows.filter((r) => r.changed), ...rows.filter((r) => !r.changed)];
}
