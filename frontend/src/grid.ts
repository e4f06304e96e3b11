// Layout math of the partition grid: cells in rows, oldest first, sized so a
// handful of partitions get large cells and 100,000 still fit in a
// scrollable canvas. The canvas draws only the rows in view
// (views/grid_canvas.ts); this file is pure and unit-tested.

export interface GridLayout {
  count: number;
  cols: number;
  rows: number;
  cell: number; // px, square
  gap: number; // px
  width: number;
  height: number;
}

/** Picks the cell size: the largest from maxCell down to minCell for which the whole grid fits in targetHeight. */
export function gridLayout(count: number, width: number, opt: { minCell?: number; maxCell?: number; gap?: number; targetHeight?: number } = {}): GridLayout {
  const minCell = opt.minCell ?? 5,
    maxCell = opt.maxCell ?? 22,
    targetHeight = opt.targetHeight ?? 320;
  width = Math.max(width, 40);
  let cell = maxCell;
  let gap = opt.gap ?? (cell >= 10 ? 2 : 1);
  for (; cell > minCell; cell--) {
    gap = opt.gap ?? (cell >= 10 ? 2 : 1);
    const cols = Math.max(1, Math.floor((width + gap) / (cell + gap)));
    if (Math.ceil(count / cols) * (cell + gap) <= targetHeight) break;
  }
  gap = opt.gap ?? (cell >= 10 ? 2 : 1);
  const cols = Math.max(1, Math.floor((width + gap) / (cell + gap)));
  const rows = Math.ceil(count / cols);
  return { count, cols, rows, cell, gap, width: cols * (cell + gap) - gap, height: Math.max(0, rows * (cell + gap) - gap) };
}

/** The index of the cell under (x, y) in grid coordinates, or -1 for a gap or outside. */
export function cellAt(g: GridLayout, x: number, y: number): number {
  if (x < 0 || y < 0) return -1;
  const pitch = g.cell + g.gap;
  const c = Math.floor(x / pitch),
    r = Math.floor(y / pitch);
  if (c >= g.cols || x - c * pitch >= g.cell || y - r * pitch >= g.cell) return -1;
  const i = r * g.cols + c;
  return i < g.count ? i : -1;
}

export function cellRect(g: GridLayout, i: number): { x: number; y: number; w: number; h: number } {
  const pitch = g.cell + g.gap;
  const r = Math.floor(i / g.cols),
    c = i - r * g.cols;
  return { x: c * pitch, y: r * pitch, w: g.cell, h: g.cell };
}

/** Cells [first, end) whose rows intersect [scrollTop, scrollTop + viewport). */
export function visibleRange(g: GridLayout, scrollTop: number, viewport: number): [number, number] {
  const pitch = g.cell + g.gap;
  const r0 = Math.max(0, Math.floor(scrollTop / pitch));
  const r1 = Math.min(g.rows, Math.ceil((scrollTop + viewport) / pitch));
  return [Math.min(g.count, r0 * g.cols), Math.min(g.count, r1 * g.cols)];
}

/** State codes of the grid's Uint8Array. */
export const STATES = ["queued", "running", "succeeded", "failed", "skipped", "cancelled", "paused", "conflict"] as const;
export type GridState = (typeof STATES)[number];

export function stateCode(s: string): number {
  const i = (STATES as readonly string[]).indexOf(s);
  return i < 0 ? 0 : i;
}

/** Counts of each state in a grid, for the legend. */
export function countStates(states: Uint8Array, count = states.length): Record<GridState, number> {
  const c = new Array<number>(STATES.length).fill(0);
  for (let i = 0; i < count; i++) c[states[i]]++;
  return Object.fromEntries(STATES.map((s, i) => [s, c[i]])) as Record<GridState, number>;
}

/** The counts a backfill's status gives (the server's one tally of each partition's latest state). */
export interface StatusCounts {
  succeeded: number;
  failed: number;
  running: number;
  skipped: number;
  cancelled: number;
  conflicts?: number;
}

/**
 * The legend's counts, from the backfill's status rather than from the grid's
 * cells: the header and the legend read the same numbers (they disagreed, "0
 * failed" above "failed 122", when each counted its own way). Queued is what
 * is left of total.
 */
export function legendCounts(p: StatusCounts, total: number): Record<GridState, number> {
  const conflict = p.conflicts ?? 0;
  const known = p.succeeded + p.failed + p.running + p.skipped + p.cancelled + conflict;
  return { queued: Math.max(0, total - known), running: p.running, succeeded: p.succeeded, failed: p.failed, skipped: p.skipped, cancelled: p.cancelled, paused: 0, conflict };
}
