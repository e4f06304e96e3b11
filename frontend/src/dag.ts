// A small layered layout for the pipeline's DAG: each block sits one layer
// below its deepest upstream (longest path), blocks within a layer keep the
// pipeline's order and are then nudged toward their parents (one barycenter
// pass). Pure math; views/dag_view.ts draws it.

import type { Edge } from "./types";

/** layerOf[id] = length of the longest upstream chain ending at id. Cycles are cut at the revisited edge. */
export function layers(nodes: string[], edges: Edge[]): Map<string, number> {
  const ups = new Map<string, string[]>();
  for (const n of nodes) ups.set(n, []);
  for (const e of edges) if (ups.has(e.to) && ups.has(e.from)) ups.get(e.to)!.push(e.from);
  const out = new Map<string, number>();
  const visiting = new Set<string>();
  const visit = (n: string): number => {
    const known = out.get(n);
    if (known !== undefined) return known;
    if (visiting.has(n)) return 0;
    visiting.add(n);
    let l = 0;
    for (const u of ups.get(n) ?? []) l = Math.max(l, visit(u) + 1);
    visiting.delete(n);
    out.set(n, l);
    return l;
  };
  for (const n of nodes) visit(n);
  return out;
}

export interface NodeBox {
  id: string;
  layer: number;
  x: number; // center
  y: number; // center
}

export interface DagLayout {
  nodes: Map<string, NodeBox>;
  width: number;
  height: number;
  nodeW: number;
  nodeH: number;
}

export interface LayoutOptions {
  nodeW?: number;
  nodeH?: number;
  gapX?: number;
  gapY?: number;
}

/** Positions top to bottom: layer 0 at the top. */
export function layoutDag(nodes: string[], edges: Edge[], opt: LayoutOptions = {}): DagLayout {
  const nodeW = opt.nodeW ?? 132,
    nodeH = opt.nodeH ?? 26,
    gapX = opt.gapX ?? 14,
    gapY = opt.gapY ?? 30;
  const layerOf = layers(nodes, edges);
  const rows: string[][] = [];
  for (const n of nodes) {
    const l = layerOf.get(n) ?? 0;
    (rows[l] ??= []).push(n);
  }
  const ups = new Map<string, string[]>();
  for (const e of edges) (ups.get(e.to) ?? ups.set(e.to, []).get(e.to)!).push(e.from);
  // Barycenter pass: order each layer by the mean index of its parents.
  const index = new Map<string, number>();
  rows.forEach((row) => row?.forEach((n, i) => index.set(n, i)));
  for (let l = 1; l < rows.length; l++) {
    const row = rows[l];
    if (!row) continue;
    const bary = (n: string) => {
      const ps = (ups.get(n) ?? []).map((p) => index.get(p) ?? 0);
      return ps.length ? ps.reduce((a, b) => a + b, 0) / ps.length : (index.get(n) ?? 0);
    };
    const orig = new Map(row.map((n, i) => [n, i]));
    row.sort((a, b) => bary(a) - bary(b) || orig.get(a)! - orig.get(b)!);
    row.forEach((n, i) => index.set(n, i));
  }
  const widest = Math.max(1, ...rows.map((r) => r?.length ?? 0));
  const width = widest * nodeW + (widest - 1) * gapX + 8;
  const out = new Map<string, NodeBox>();
  rows.forEach((row, l) => {
    if (!row) return;
    const rowW = row.length * nodeW + (row.length - 1) * gapX;
    const x0 = (width - rowW) / 2 + nodeW / 2;
    row.forEach((n, i) => out.set(n, { id: n, layer: l, x: x0 + i * (nodeW + gapX), y: 4 + nodeH / 2 + l * (nodeH + gapY) }));
  });
  const height = rows.length * nodeH + Math.max(0, rows.length - 1) * gapY + 8;
  return { nodes: out, width, height, nodeW, nodeH };
}

/** The SVG path of an edge: from the bottom of a to the top of b, a gentle S. */
export function edgePath(a: NodeBox, b: NodeBox, nodeH: number): string {
  const x1 = a.x,
    y1 = a.y + nodeH / 2,
    x2 = b.x,
    y2 = b.y - nodeH / 2;
  const my = (y1 + y2) / 2;
  return `M${x1},${y1} C${x1},${my} ${x2},${my} ${x2},${y2}`;
}

/**
 * The node width that shows every name in full: the widest label at
 * charW pixels a character (the DAG's monospace font) plus padding, never
 * narrower than the default.
 */
export function nodeWidthFor(labels: string[], charW = 6.7, pad = 18, min = 132): number {
  const longest = Math.max(0, ...labels.map((l) => l.length));
  return Math.max(min, Math.ceil(longest * charW + pad));
}

export const MIN_ZOOM = 0.2;
export const MAX_ZOOM = 4;

/** A zoom factor applied to scale, kept within [MIN_ZOOM, MAX_ZOOM]. */
export function zoomBy(scale: number, factor: number): number {
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, scale * factor));
}

/** The scale at which a w×h drawing fits a box of boxW×boxH (never above 1: fit does not blow a small DAG up). */
export function fitScale(w: number, h: number, boxW: number, boxH: number): number {
  if (w <= 0 || h <= 0 || boxW <= 0) return 1;
  const s = Math.min(boxW / w, boxH > 0 ? boxH / h : Infinity, 1);
  return Math.max(MIN_ZOOM, s);
}

/**
 * The scroll offset that keeps the drawing point under the cursor in place
 * when the scale changes from s0 to s1: cursor is the pointer's position in
 * the viewport, scroll the viewport's offset before.
 */
export function scrollAfterZoom(scroll: number, cursor: number, s0: number, s1: number): number {
  return Math.max(0, ((scroll + cursor) / s0) * s1 - cursor);
}
