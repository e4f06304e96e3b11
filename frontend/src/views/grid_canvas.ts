// The partition grid on a <canvas>: one cell per partition, colored by
// state, oldest first. Only the rows in view are drawn, one fill color at a
// time, so 100,000 partitions scroll as smoothly as 10. Cells are picked
// with the mouse or the arrow keys (Enter opens one).

import { cellAt, cellRect, gridLayout, stateCode, STATES, visibleRange, type GridLayout, type GridState } from "../grid";

const COLORS: Record<string, string> = {
  queued: "#d9dde3",
  running: "#3b82f6",
  succeeded: "#22a06b",
  failed: "#d93f3f",
  skipped: "#b8a46a",
  cancelled: "#8a8f98",
  paused: "#c9a227",
  conflict: "#e07b1a",
};

export const stateColor = (s: string) => COLORS[s] ?? COLORS.queued;

/** The color of a cell a dimension filter hides. */
export const HIDDEN_COLOR = "#eef0f3";

export class PartitionGrid {
  readonly el: HTMLDivElement;
  readonly canvas: HTMLCanvasElement;
  private spacer: HTMLDivElement;
  private ctx: CanvasRenderingContext2D;
  private layout: GridLayout = gridLayout(0, 600);
  /** State codes by cell; change them only through setCount, fill and setState, which keep the counts. */
  states = new Uint8Array(0);
  /** How many cells hold each state code, kept in step with states. */
  private tally = new Array<number>(STATES.length).fill(0);
  keys: string[] = [];
  private index = new Map<string, number>();
  private pending = false;
  private viewH = 0;
  selected = -1;
  hovered = -1;
  /** Called with a cell index when the user picks one. */
  onPick: (i: number) => void = () => {};
  /** Called when the hovered cell changes (-1: none). */
  onHover: (i: number) => void = () => {};
  /** Called with the range of cells [first, end) each draw shows: a grid larger than one page reads the pages in view. */
  onView: (first: number, end: number) => void = () => {};
  /** Frame times of recent draws, in ms (for the benchmark). */
  drawTimes: number[] = [];
  /** Cells a filter hides (1), drawn faint: a filter by dimension keeps every cell in place (cells.ts). */
  private hidden = new Uint8Array(0);
  private hiding: ((key: string) => boolean) | undefined;
  private filled = false;

  constructor(private readonly maxHeight = 360) {
    this.el = document.createElement("div");
    this.el.className = "grid-wrap";
    this.el.setAttribute("data-testid", "partition-grid");
    this.canvas = document.createElement("canvas");
    this.canvas.tabIndex = 0;
    this.canvas.setAttribute("aria-label", "partition grid: arrow keys move, Enter opens a partition");
    this.spacer = document.createElement("div");
    this.el.append(this.canvas, this.spacer);
    this.ctx = this.canvas.getContext("2d", { alpha: false })!;
    this.el.addEventListener("scroll", () => this.schedule(), { passive: true });
    this.canvas.addEventListener("mousemove", (e) => this.hover(this.pick(e)));
    this.canvas.addEventListener("mouseleave", () => this.hover(-1));
    this.canvas.addEventListener("click", (e) => {
      const i = this.pick(e);
      if (i >= 0) this.select(i, true);
    });
    this.canvas.addEventListener("keydown", (e) => this.key(e));
    new ResizeObserver(() => this.relayout()).observe(this.el);
  }

  /** Sets the number of partitions; states reset to queued. */
  setCount(n: number): void {
    if (n === this.states.length) return;
    const old = this.states;
    for (let i = n; i < old.length; i++) this.tally[old[i]]--;
    if (n > old.length) this.tally[0] += n - old.length;
    this.states = new Uint8Array(n);
    this.states.set(old.subarray(0, Math.min(n, old.length)));
    const hid = this.hidden;
    this.hidden = new Uint8Array(n);
    this.hidden.set(hid.subarray(0, Math.min(n, hid.length)));
    this.keys.length = n;
    this.relayout();
  }

  /** Fills keys and states from offset on (a page of GET /backfills/:id/partitions). */
  fill(offset: number, rows: { key: string; state: string }[]): void {
    this.filled ||= rows.length > 0;
    if (offset + rows.length > this.states.length) this.setCount(offset + rows.length);
    for (let j = 0; j < rows.length; j++) {
      const i = offset + j;
      const old = this.keys[i];
      if (old !== undefined && old !== rows[j].key) this.index.delete(old);
      this.keys[i] = rows[j].key;
      this.index.set(rows[j].key, i);
      if (this.hiding && i < this.hidden.length) this.hidden[i] = this.hiding(rows[j].key) ? 1 : 0;
      this.put(i, stateCode(rows[j].state));
    }
    this.schedule();
  }

  /** Hides the cells whose key hide answers true (undefined: none); the count hidden. */
  setFilter(hide: ((key: string) => boolean) | undefined): number {
    this.hiding = hide;
    this.hidden = new Uint8Array(this.states.length);
    let n = 0;
    if (hide)
      for (let i = 0; i < this.keys.length; i++) {
        const k = this.keys[i];
        if (k !== undefined && hide(k)) ((this.hidden[i] = 1), n++);
      }
    this.schedule();
    return n;
  }

  indexOf(key: string): number {
    return this.index.get(key) ?? -1;
  }

  /** Sets one partition's state by key; false when the key is not loaded yet. */
  setState(key: string, state: string): boolean {
    const i = this.indexOf(key);
    if (i < 0) return false;
    this.put(i, stateCode(state));
    this.schedule();
    return true;
  }

  /** Counts of each state, for the legend: the same as countStates(states), without a pass over the grid. */
  counts(): Record<GridState, number> {
    return Object.fromEntries(STATES.map((s, i) => [s, this.tally[i]])) as Record<GridState, number>;
  }

  private put(i: number, code: number): void {
    // The index may still name a cell a shrinking setCount dropped: nothing to set.
    if (i >= this.states.length) return;
    this.tally[this.states[i]]--;
    this.tally[code]++;
    this.states[i] = code;
  }

  select(i: number, open: boolean): void {
    this.selected = i;
    this.schedule();
    if (open) this.onPick(i);
  }

  private hover(i: number): void {
    if (i === this.hovered) return;
    this.hovered = i;
    this.canvas.style.cursor = i >= 0 ? "pointer" : "default";
    this.onHover(i);
  }

  private pick(e: MouseEvent): number {
    const r = this.canvas.getBoundingClientRect();
    return cellAt(this.layout, e.clientX - r.left, e.clientY - r.top + this.el.scrollTop);
  }

  private key(e: KeyboardEvent): void {
    const n = this.states.length;
    if (!n) return;
    let i = this.selected < 0 ? 0 : this.selected;
    const cols = this.layout.cols;
    switch (e.key) {
      case "ArrowRight":
        i++;
        break;
      case "ArrowLeft":
        i--;
        break;
      case "ArrowDown":
        i += cols;
        break;
      case "ArrowUp":
        i -= cols;
        break;
      case "Home":
        i = 0;
        break;
      case "End":
        i = n - 1;
        break;
      case "Enter":
      case " ":
        e.preventDefault();
        if (this.selected >= 0) this.onPick(this.selected);
        return;
      default:
        return;
    }
    e.preventDefault();
    i = Math.max(0, Math.min(n - 1, i));
    this.select(i, false);
    this.onHover(i);
    const rc = cellRect(this.layout, i);
    if (rc.y < this.el.scrollTop) this.el.scrollTop = rc.y;
    else if (rc.y + rc.h > this.el.scrollTop + this.viewH) this.el.scrollTop = rc.y + rc.h - this.viewH;
  }

  relayout(): void {
    const width = this.el.clientWidth || 600;
    this.layout = gridLayout(this.states.length, width, { targetHeight: this.maxHeight });
    this.viewH = Math.max(this.layout.cell, Math.min(this.layout.height, this.maxHeight));
    this.el.style.height = `${this.viewH}px`;
    this.spacer.style.height = `${Math.max(0, this.layout.height - this.viewH)}px`;
    const dpr = globalThis.devicePixelRatio || 1;
    this.canvas.width = Math.round(width * dpr);
    this.canvas.height = Math.round(this.viewH * dpr);
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${this.viewH}px`;
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.draw();
  }

  schedule(): void {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.draw();
    });
  }

  draw(): void {
    const t0 = performance.now();
    const g = this.layout,
      ctx = this.ctx;
    const top = this.el.scrollTop;
    const w = this.canvas.width / (globalThis.devicePixelRatio || 1);
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, w, this.viewH);
    const [first, end] = visibleRange(g, top, this.viewH);
    this.onView(first, end);
    const pitch = g.cell + g.gap;
    for (let s = 0; s < STATES.length; s++) {
      ctx.fillStyle = COLORS[STATES[s]];
      ctx.beginPath();
      for (let i = first; i < end; i++) {
        if (this.states[i] !== s || this.hidden[i]) continue;
        const r = (i / g.cols) | 0;
        ctx.rect((i - r * g.cols) * pitch, r * pitch - top, g.cell, g.cell);
      }
      ctx.fill();
    }
    if (this.hiding) {
      ctx.fillStyle = HIDDEN_COLOR;
      ctx.beginPath();
      for (let i = first; i < end; i++) {
        if (!this.hidden[i]) continue;
        const r = (i / g.cols) | 0;
        ctx.rect((i - r * g.cols) * pitch, r * pitch - top, g.cell, g.cell);
      }
      ctx.fill();
    }
    if (this.selected >= first && this.selected < end) {
      const rc = cellRect(g, this.selected);
      ctx.strokeStyle = "#111";
      ctx.lineWidth = 2;
      ctx.strokeRect(rc.x - 1, rc.y - top - 1, rc.w + 2, rc.h + 2);
    }
    this.drawTimes.push(performance.now() - t0);
    // Drawn with partitions read: what the benchmark waits for (first paint).
    if (this.filled && !this.el.dataset.painted) this.el.dataset.painted = "1";
    if (this.drawTimes.length > 240) this.drawTimes.shift();
  }
}
