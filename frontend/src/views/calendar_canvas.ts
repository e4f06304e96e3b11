// A calendar of days on a canvas: one row per year, twelve month blocks in
// it, each month a grid of its weeks (columns, Monday first) by weekday
// (rows), with year and month labels. Cells are colored by a callback per
// day key (YYYY-MM-DD). Dragging over days selects a range (the backfill
// dialog), a click picks one day (the review heat map). Seven years of days
// are 2,557 cells: one canvas draws them at once, with no DOM per cell.

import { civilDays, civilFromDays } from "../partitions";

const CELL = 10; // px, gap included
const MONTH_W = 6 * CELL + 6; // up to six week columns, then a gap
const LABEL_W = 38;
const HEAD_H = 12; // month labels
const YEAR_H = 7 * CELL + HEAD_H + 6;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

const pad = (n: number) => String(n).padStart(2, "0");
export const dayKey = (days: number) => {
  const { y, m, d } = civilFromDays(days);
  return `${y}-${pad(m)}-${pad(d)}`;
};
export function keyDays(key: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(key);
  return m ? civilDays(+m[1], +m[2], +m[3]) : null;
}
/** Monday 0 … Sunday 6 (1970-01-01 was a Thursday). */
const weekday = (days: number) => (((days + 3) % 7) + 7) % 7;

export class CalendarCanvas {
  readonly el: HTMLDivElement;
  private canvas: HTMLCanvasElement;
  private first = 0; // days of the first and last day shown
  private last = 0;
  private anchor: number | null = null;
  /** The selected range (days, inclusive), drawn outlined. */
  selection: [number, number] | null = null;
  /** A picked day, drawn with a thick outline. */
  picked: number | null = null;
  color: (key: string) => string | undefined = () => undefined;
  /** Called while dragging and at the end (done). */
  onSelect?: (from: string, to: string, done: boolean) => void;
  onPick?: (key: string) => void;
  onHover?: (key: string | null) => void;

  constructor(testId: string, readonly selectable = true) {
    this.el = document.createElement("div");
    this.el.className = "calendar";
    this.el.dataset.testid = testId;
    // Tests find a day's cell through the element (e2e drags over days).
    (this.el as HTMLDivElement & { calendar?: CalendarCanvas }).calendar = this;
    this.canvas = document.createElement("canvas");
    this.el.appendChild(this.canvas);
    this.canvas.addEventListener("mousedown", (e) => {
      const d = this.dayAt(e);
      if (d === null) return;
      e.preventDefault();
      if (this.selectable) {
        this.anchor = d;
        this.selection = [d, d];
        this.draw();
        this.onSelect?.(dayKey(d), dayKey(d), false);
      }
    });
    this.canvas.addEventListener("mousemove", (e) => {
      const d = this.dayAt(e);
      this.onHover?.(d === null ? null : dayKey(d));
      if (this.anchor === null || d === null) return;
      this.selection = [Math.min(this.anchor, d), Math.max(this.anchor, d)];
      this.draw();
      this.onSelect?.(dayKey(this.selection[0]), dayKey(this.selection[1]), false);
    });
    window.addEventListener("mouseup", () => {
      if (this.anchor === null || !this.selection) return;
      this.anchor = null;
      this.onSelect?.(dayKey(this.selection[0]), dayKey(this.selection[1]), true);
    });
    this.canvas.addEventListener("click", (e) => {
      const d = this.dayAt(e);
      if (d === null || this.selectable) return;
      this.picked = d;
      this.draw();
      this.onPick?.(dayKey(d));
    });
  }

  /** Whether a range was set (the calendar shows days). */
  shown = false;

  /** Shows whole years from first's to last's (day keys). */
  setRange(first: string, last: string): void {
    const a = keyDays(first);
    const b = keyDays(last);
    if (a === null || b === null) return;
    this.shown = true;
    this.first = a;
    this.last = Math.max(a, b);
    this.draw();
  }

  select(from: string, to: string): void {
    const a = keyDays(from);
    const b = keyDays(to);
    this.selection = a === null || b === null ? null : [Math.min(a, b), Math.max(a, b)];
    this.draw();
  }

  private years(): [number, number] {
    return [civilFromDays(this.first).y, civilFromDays(this.last).y];
  }

  /** The cell of a day: its top-left corner. */
  private pos(days: number): { x: number; y: number } {
    const { y, m } = civilFromDays(days);
    const first = civilDays(y, m, 1);
    const col = Math.floor((days - first + weekday(first)) / 7);
    return { x: LABEL_W + (m - 1) * MONTH_W + col * CELL, y: (y - this.years()[0]) * YEAR_H + HEAD_H + weekday(days) * CELL };
  }

  private dayAt(e: MouseEvent): number | null {
    const r = this.canvas.getBoundingClientRect();
    const x = e.clientX - r.left;
    const yy = e.clientY - r.top;
    const row = Math.floor(yy / YEAR_H);
    const wd = Math.floor((yy - row * YEAR_H - HEAD_H) / CELL);
    const m = Math.floor((x - LABEL_W) / MONTH_W);
    if (wd < 0 || wd > 6 || m < 0 || m > 11) return null;
    const year = this.years()[0] + row;
    const first = civilDays(year, m + 1, 1);
    const col = Math.floor((x - LABEL_W - m * MONTH_W) / CELL);
    const d = first + col * 7 + wd - weekday(first);
    if (civilFromDays(d).m !== m + 1 || d < this.first || d > this.last) return null;
    return d;
  }

  draw(): void {
    const [y0, y1] = this.years();
    const w = LABEL_W + 12 * MONTH_W;
    const h = (y1 - y0 + 1) * YEAR_H;
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = w * dpr;
    this.canvas.height = h * dpr;
    this.canvas.style.width = `${w}px`;
    this.canvas.style.height = `${h}px`;
    const g = this.canvas.getContext("2d");
    if (!g) return;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, w, h);
    g.font = "10px system-ui, sans-serif";
    g.textBaseline = "top";
    for (let y = y0; y <= y1; y++) {
      const top = (y - y0) * YEAR_H;
      g.fillStyle = "#4a5260";
      g.fillText(String(y), 0, top + HEAD_H + 2 * CELL);
      MONTHS.forEach((name, i) => g.fillText(name, LABEL_W + i * MONTH_W, top));
    }
    const sel = this.selection;
    for (let d = this.first; d <= this.last; d++) {
      const { x, y } = this.pos(d);
      g.fillStyle = this.color(dayKey(d)) ?? "#eef0f3";
      g.fillRect(x, y, CELL - 1, CELL - 1);
      if (sel && d >= sel[0] && d <= sel[1]) {
        g.strokeStyle = "#1d4ed8";
        g.lineWidth = 1.5;
        g.strokeRect(x + 0.5, y + 0.5, CELL - 2, CELL - 2);
      }
      if (this.picked === d) {
        g.strokeStyle = "#111";
        g.lineWidth = 2;
        g.strokeRect(x, y, CELL - 1, CELL - 1);
      }
    }
  }

  /** The center of a day's cell relative to the canvas (tests drag over it). */
  cellCenter(key: string): { x: number; y: number } | null {
    const d = keyDays(key);
    if (d === null) return null;
    const { x, y } = this.pos(d);
    return { x: x + CELL / 2, y: y + CELL / 2 };
  }
}
