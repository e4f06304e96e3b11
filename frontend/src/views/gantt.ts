// A run's timeline: one bar per block (or dynamic child) from its start to
// its end, colored by state.

import { html, svg, type TemplateResult } from "lit-html";
import { formatClock, formatDuration } from "../time";
import type { BlockRun } from "../types";

export interface Bar {
  label: string;
  block: string;
  state: string;
  start: number;
  end: number;
}

export function bars(runs: BlockRun[]): Bar[] {
  return runs
    .map((r) => {
      const start = Date.parse(r.started_at);
      let end = Date.parse(r.ended_at);
      if (!Number.isFinite(end) || end < start) end = start;
      if (r.state !== "running" && r.duration_ms && end - start < r.duration_ms) end = start + r.duration_ms;
      return { label: r.child ? `${r.block}[${r.child}]` : r.block, block: r.block, state: r.state, start, end };
    })
    .filter((b) => Number.isFinite(b.start))
    .sort((a, b) => a.start - b.start || a.label.localeCompare(b.label));
}

/** focus, a block id, highlights that block's bars (the run page opened from a cell or the DAG). */
export function ganttView(runs: BlockRun[], zone: string, width = 560, focus = ""): TemplateResult {
  const bs = bars(runs);
  if (bs.length === 0) return html`<div class="muted">no block runs yet</div>`;
  const t0 = Math.min(...bs.map((b) => b.start)),
    t1 = Math.max(...bs.map((b) => b.end), t0 + 1);
  const L = 170,
    R = 60,
    rowH = 18;
  const sx = (t: number) => L + ((t - t0) / (t1 - t0)) * (width - L - R);
  const H = bs.length * rowH + 22;
  return html`<svg class="gantt" data-testid="gantt" viewBox="0 0 ${width} ${H}" width="100%" style="max-width:${width}px">
    ${bs.map(
      (b, i) => svg`<g class=${"bar " + b.state + (focus && b.block === focus ? " focus" : "")} data-label=${b.label}>
        <text class="label" x=${L - 6} y=${i * rowH + 13} text-anchor="end">${b.label.length > 26 ? b.label.slice(0, 25) + "…" : b.label}<title>${b.label}</title></text>
        <rect x=${sx(b.start)} y=${i * rowH + 3} width=${Math.max(2, sx(b.end) - sx(b.start))} height=${rowH - 6} rx="2"><title>${b.label}: ${b.state}, ${formatDuration(b.end - b.start)}</title></rect>
        <text class="dur" x=${Math.max(2, sx(b.end)) + 4} y=${i * rowH + 13}>${formatDuration(b.end - b.start)}</text>
      </g>`,
    )}
    <text class="tick" x=${L} y=${H - 4}>${formatClock(new Date(t0), zone)}</text>
    <text class="tick" x=${width - R} y=${H - 4} text-anchor="end">+${formatDuration(t1 - t0)}</text>
  </svg>`;
}
