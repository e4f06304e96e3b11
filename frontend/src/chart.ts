// Series and scales for the hand-rolled SVG line chart of a numeric column
// over time (views/chart_view.ts draws it). Pure.

import type { Aggregation, Preview } from "./types";

export type Agg = "sum" | "avg" | "min" | "max" | "count";

export interface Point {
  x: number; // ms since epoch, or an ordinal for partition keys
  label: string;
  y: number;
}

export function numericColumns(p: Preview): string[] {
  return p.columns.filter((c) => ["int64", "float64", "uint64", "int128", "decimal"].includes(c.type)).map((c) => c.name);
}

/** Columns usable as the x axis: the window's _partition first, then time columns. */
export function xColumns(p: Preview): string[] {
  const names = p.columns.filter((c) => c.name === "_partition").map((c) => c.name);
  for (const c of p.columns) if (c.type === "time") names.push(c.name);
  for (const c of p.columns) if (c.type === "string" && c.name !== "_partition" && /^(day|date|partition|partition_key|week|month)$/.test(c.name)) names.push(c.name);
  return names;
}

/**
 * Groups rows by the x column and aggregates y. Time values are grouped by
 * instant; strings (partition keys) sort as text, which orders keys of one
 * interval by time.
 */
export function series(p: Preview, xName: string, yName: string, agg: Agg): Point[] {
  const xi = p.columns.findIndex((c) => c.name === xName);
  const yi = p.columns.findIndex((c) => c.name === yName);
  if (xi < 0 || (yi < 0 && agg !== "count")) return [];
  const isTime = p.columns[xi].type === "time";
  const groups = new Map<string, { x: number; n: number; sum: number; min: number; max: number }>();
  for (const row of p.rows) {
    const xv = row[xi];
    if (xv == null) continue;
    const label = String(xv);
    const yv = agg === "count" ? 1 : Number(row[yi]);
    if (agg !== "count" && (row[yi] == null || !Number.isFinite(yv))) continue;
    let g = groups.get(label);
    if (!g) {
      g = { x: isTime ? Date.parse(label) : 0, n: 0, sum: 0, min: Infinity, max: -Infinity };
      groups.set(label, g);
    }
    g.n++;
    g.sum += yv;
    g.min = Math.min(g.min, yv);
    g.max = Math.max(g.max, yv);
  }
  const pts = [...groups.entries()].map(([label, g]) => ({
    label,
    x: g.x,
    y: agg === "sum" ? g.sum : agg === "avg" ? g.sum / g.n : agg === "min" ? g.min : agg === "max" ? g.max : g.n,
  }));
  if (isTime) pts.sort((a, b) => a.x - b.x);
  else {
    pts.sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
    pts.forEach((p, i) => (p.x = i));
  }
  return pts;
}

/** About n round tick values covering [lo, hi]. */
export function niceTicks(lo: number, hi: number, n = 5): number[] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  if (lo === hi) {
    const d = Math.abs(lo) || 1;
    lo -= d / 2;
    hi += d / 2;
  }
  const raw = (hi - lo) / Math.max(1, n);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const stepv = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  const end = Math.ceil(hi / stepv - 1e-9) * stepv;
  for (let v = Math.floor(lo / stepv) * stepv; v <= end + stepv * 1e-9; v += stepv) out.push(+v.toPrecision(12));
  return out;
}

/** Linear scale from [d0, d1] to [r0, r1]. */
export function scale(d0: number, d1: number, r0: number, r1: number): (v: number) => number {
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  return (v) => (d1 === d0 ? (r0 + r1) / 2 : r0 + (v - d0) * k);
}

/** Compact number labels: 1.2k, 3.4M, 0.25. */
export function shortNumber(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e9) return (v / 1e9).toFixed(1).replace(/\.0$/, "") + "G";
  if (a >= 1e6) return (v / 1e6).toFixed(1).replace(/\.0$/, "") + "M";
  if (a >= 1e4) return (v / 1e3).toFixed(1).replace(/\.0$/, "") + "k";
  if (a >= 100 || a === 0) return String(Math.round(v));
  return String(+v.toPrecision(3));
}

/** The points of a server aggregation: x is the bucket's start instant (or the bin's low end), labels as the server wrote them. */
export function aggPoints(a: Aggregation): Point[] {
  const out: Point[] = [];
  a.buckets.forEach((b, i) => {
    if (b.value === null || b.value === undefined) return;
    const x = a.kind === "histogram" ? (b.lo ?? i) : b.start ? Date.parse(b.start) : i;
    out.push({ x: Number.isFinite(x) ? x : i, label: b.label, y: b.value });
  });
  return out;
}

/** X columns the server can bucket: _partition first, then time columns. */
export function serverXColumns(p: Preview): string[] {
  const names = p.columns.some((c) => c.name === "_partition") ? ["_partition"] : [];
  for (const c of p.columns) if (c.type === "time" || c.type === "date" || c.type === "timestamp") names.push(c.name);
  return names.length ? names : ["_partition"];
}
