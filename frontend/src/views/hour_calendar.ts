// A calendar of hour partitions on a canvas: each day is a row of 24 cells
// (hours 0–23 of the pipeline's wall clock) labeled with its weekday and
// date, days run down a month block with a gap after each Sunday (weeks
// visible), and month blocks flow four to a row, titled with month and
// year. An hour the clock skips (spring forward) has no partition and stays
// blank; an hour it repeats (fall back) has two, drawn as the top and
// bottom half of its cell. Cells are colored by a callback per partition
// key; a click picks the partition under it. One canvas draws it all: a
// year of hours is 8,760 cells and no DOM per cell.

import { civilDays, civilFromDays } from "../partitions";

const CELL = 10; // px, gap included
const LABEL_W = 46; // "Sa 09" before each day's row
const HOURS_W = 24 * CELL;
const MONTH_W = LABEL_W + HOURS_W + 16;
const PER_ROW = 4; // month blocks side by side
const TITLE_H = 14; // "2024 Mar"
const TICKS_H = 11; // hour ticks 0 6 12 18
const WEEK_GAP = 4; // after each Sunday
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const WEEKDAYS = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"];

const pad = (n: number) => String(n).padStart(2, "0");
/** Monday 0 … Sunday 6 (1970-01-01 was a Thursday). */
const weekday = (days: number) => (((days + 3) % 7) + 7) % 7;

/** An hour key's civil day (days since 1970-01-01) and wall hour, or null. */
export function parseHourKey(key: string): { days: number; hour: number } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})/.exec(key);
  if (!m || +m[4] > 23) return null;
  return { days: civilDays(+m[1], +m[2], +m[3]), hour: +m[4] };
}

/** Where one day's row of 24 cells is drawn. */
export interface DayRow {
  days: number;
  x: number; // the row's left edge (its label)
  y: number; // the top of its cells
}

/** A month block: its title and where it is. */
export interface MonthBlock {
  year: number;
  month: number;
  x: number;
  y: number;
}

/**
 * Lays out the days first..last (inclusive, civil day numbers): the month
 * blocks touching them, four to a row, each listing the range's days of
 * that month with a gap after every Sunday. Pure: the e2e and unit tests
 * check positions through it.
 */
export function layoutHours(first: number, last: number): { rows: DayRow[]; months: MonthBlock[]; width: number; height: number } {
  const rows: DayRow[] = [];
  const months: MonthBlock[] = [];
  let blockRowTop = 0;
  let blockRowH = 0;
  let d = first;
  while (d <= last) {
    const { y, m } = civilFromDays(d);
    const i = months.length;
    if (i > 0 && i % PER_ROW === 0) {
      blockRowTop += blockRowH + 10;
      blockRowH = 0;
    }
    const x = (i % PER_ROW) * MONTH_W;
    months.push({ year: y, month: m, x, y: blockRowTop });
    let top = blockRowTop + TITLE_H + TICKS_H;
    for (; d <= last && civilFromDays(d).m === m; d++) {
      rows.push({ days: d, x, y: top });
      top += CELL + (weekday(d) === 6 ? WEEK_GAP : 0);
    }
    blockRowH = Math.max(blockRowH, top - blockRowTop);
  }
  const width = Math.min(months.length, PER_ROW) * MONTH_W;
  return { rows, months, width, height: blockRowTop + blockRowH };
}

export class HourCalendarCanvas {
  readonly el: HTMLDivElement;
  private canvas: HTMLCanvasElement;
  /** Keys by day and hour (two for a repeated hour). */
  private cells = new Map<number, string[][]>();
  private layout: ReturnType<typeof layoutHours> = { rows: [], months: [], width: 0, height: 0 };
  private rowOf = new Map<number, DayRow>();
  picked: string | null = null;
  color: (key: string) => string | undefined = () => undefined;
  onPick?: (key: string) => void;
  /** Whether partitions were set (the calendar shows days). */
  shown = false;

  constructor(testId: string) {
    this.el = document.createElement("div");
    this.el.className = "calendar hour-calendar";
    this.el.dataset.testid = testId;
    // Tests find an hour's cell through the element.
    (this.el as HTMLDivElement & { calendar?: HourCalendarCanvas }).calendar = this;
    this.canvas = document.createElement("canvas");
    this.el.appendChild(this.canvas);
    this.canvas.addEventListener("click", (e) => {
      const r = this.canvas.getBoundingClientRect();
      const k = this.keyAt(e.clientX - r.left, e.clientY - r.top);
      if (k === null) return;
      this.picked = k;
      this.draw();
      this.onPick?.(k);
    });
  }

  /** Shows the days from the first to the last of these hour keys. */
  setKeys(keys: string[]): void {
    const cells = new Map<number, string[][]>();
    let lo = Infinity;
    let hi = -Infinity;
    for (const k of keys) {
      const p = parseHourKey(k);
      if (!p) continue;
      let day = cells.get(p.days);
      if (!day) cells.set(p.days, (day = Array.from({ length: 24 }, () => [])));
      if (!day[p.hour].includes(k)) day[p.hour].push(k);
      lo = Math.min(lo, p.days);
      hi = Math.max(hi, p.days);
    }
    for (const day of cells.values()) for (const h of day) h.sort(); // -04:00 (first) before -05:00
    this.cells = cells;
    this.shown = lo <= hi;
    this.layout = this.shown ? layoutHours(lo, hi) : { rows: [], months: [], width: 0, height: 0 };
    this.rowOf = new Map(this.layout.rows.map((r) => [r.days, r]));
    this.draw();
  }

  /** The number of days drawn (rows of 24 cells). */
  get days(): number {
    return this.layout.rows.length;
  }

  /** The label drawn before a day's row ("Su 10"), for tests. */
  dayLabel(days: number): string {
    return `${WEEKDAYS[weekday(days)]} ${pad(civilFromDays(days).d)}`;
  }

  private keyAt(x: number, y: number): string | null {
    for (const r of this.layout.rows) {
      if (y < r.y || y >= r.y + CELL) continue;
      const hx = x - r.x - LABEL_W;
      if (hx < 0 || hx >= HOURS_W) continue;
      const ks = this.cells.get(r.days)?.[Math.floor(hx / CELL)] ?? [];
      if (!ks.length) return null;
      return ks.length > 1 && y - r.y >= CELL / 2 ? ks[1] : ks[0];
    }
    return null;
  }

  draw(): void {
    const { width, height, rows, months } = this.layout;
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.max(1, width) * dpr;
    this.canvas.height = Math.max(1, height) * dpr;
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    const g = this.canvas.getContext("2d");
    if (!g) return;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, width, height);
    g.textBaseline = "top";
    for (const mb of months) {
      g.fillStyle = "#4a5260";
      g.font = "bold 11px system-ui, sans-serif";
      g.fillText(`${mb.year} ${MONTHS[mb.month - 1]}`, mb.x, mb.y);
      g.font = "9px system-ui, sans-serif";
      for (const h of [0, 6, 12, 18]) g.fillText(String(h), mb.x + LABEL_W + h * CELL, mb.y + TITLE_H);
    }
    g.font = "9px ui-monospace, monospace";
    for (const r of rows) {
      g.fillStyle = weekday(r.days) >= 5 ? "#8a93a3" : "#4a5260";
      g.fillText(this.dayLabel(r.days), r.x, r.y);
      const day = this.cells.get(r.days);
      for (let h = 0; h < 24; h++) {
        const x = r.x + LABEL_W + h * CELL;
        const ks = day?.[h] ?? [];
        if (!ks.length) {
          // No partition: an hour the clock skips, or outside the range.
          g.strokeStyle = "#d5d9e0";
          g.lineWidth = 1;
          g.strokeRect(x + 0.5, r.y + 0.5, CELL - 2, CELL - 2);
          continue;
        }
        const part = (CELL - 1) / ks.length;
        ks.forEach((k, i) => {
          g.fillStyle = this.color(k) ?? "#eef0f3";
          g.fillRect(x, r.y + i * part, CELL - 1, ks.length > 1 ? part - 0.5 : part);
          if (this.picked === k) {
            g.strokeStyle = "#111";
            g.lineWidth = 2;
            g.strokeRect(x, r.y, CELL - 1, CELL - 1);
          }
        });
      }
    }
  }

  /** The center of an hour's cell relative to the canvas (tests click it); null when not drawn. */
  cellCenter(key: string): { x: number; y: number } | null {
    const p = parseHourKey(key);
    const r = p && this.rowOf.get(p.days);
    if (!p || !r) return null;
    const ks = this.cells.get(p.days)?.[p.hour] ?? [];
    const i = ks.indexOf(key);
    if (i < 0) return null;
    const part = (CELL - 1) / ks.length;
    return { x: r.x + LABEL_W + p.hour * CELL + CELL / 2, y: r.y + i * part + part / 2 };
  }
}
