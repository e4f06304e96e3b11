// The line chart of a numeric column over time: a hand-rolled SVG with
// axes, round ticks and a hover title per point.

import { html, svg, type TemplateResult } from "lit-html";
import { niceTicks, scale, shortNumber, type Point } from "../chart";
import { formatInstant } from "../time";

export function lineChart(points: Point[], opts: { width?: number; height?: number; yLabel: string; timeX: boolean; zone: string }): TemplateResult {
  const W = opts.width ?? 640,
    H = opts.height ?? 220,
    L = 52,
    R = 12,
    T = 12,
    B = 40;
  if (points.length === 0) return html`<div class="chart empty">nothing to chart</div>`;
  const ys = points.map((p) => p.y);
  const yt = niceTicks(Math.min(0, ...ys), Math.max(...ys), 4);
  const x0 = points[0].x,
    x1 = points[points.length - 1].x;
  const sx = scale(x0, x1, L, W - R);
  const sy = scale(yt[0], yt[yt.length - 1], H - B, T);
  const d = points.map((p, i) => `${i ? "L" : "M"}${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`).join(" ");
  const labelOf = (p: Point) => (opts.timeX ? formatInstant(p.label, opts.zone, { seconds: false }) : p.label);
  const every = Math.max(1, Math.ceil(points.length / 6));
  const xt = points.filter((_, i) => i % every === 0 || i === points.length - 1);
  return html`<svg class="chart" data-testid="chart" viewBox="0 0 ${W} ${H}" width="100%" style="max-width:${W}px" role="img" aria-label=${`${opts.yLabel} over time`}>
    ${yt.map((v) => svg`<line class="grid" x1=${L} x2=${W - R} y1=${sy(v)} y2=${sy(v)}></line><text class="tick" x=${L - 6} y=${sy(v) + 4} text-anchor="end">${shortNumber(v)}</text>`)}
    ${xt.map((p) => svg`<text class="tick" x=${sx(p.x)} y=${H - B + 16} text-anchor="middle">${labelOf(p).slice(0, 16)}</text>`)}
    <path class="line" d=${d}></path>
    ${points.length <= 400 ? points.map((p) => svg`<circle class="pt" cx=${sx(p.x)} cy=${sy(p.y)} r="2.5"><title>${labelOf(p)}: ${shortNumber(p.y)}</title></circle>`) : ""}
    <text class="axis-label" x=${L} y=${H - 4}>${opts.yLabel}</text>
  </svg>`;
}

/** Bars, one per point in order (time buckets or histogram bins), with a hover title each. */
export function barChart(points: Point[], opts: { width?: number; height?: number; yLabel: string }): TemplateResult {
  const W = opts.width ?? 640,
    H = opts.height ?? 220,
    L = 52,
    R = 12,
    T = 12,
    B = 40;
  if (points.length === 0) return html`<div class="chart empty">nothing to chart</div>`;
  const ys = points.map((p) => p.y);
  const yt = niceTicks(Math.min(0, ...ys), Math.max(0, ...ys), 4);
  const sy = scale(yt[0], yt[yt.length - 1], H - B, T);
  const slot = (W - L - R) / points.length;
  const bw = Math.max(1, slot * 0.8);
  const every = Math.max(1, Math.ceil(points.length / 6));
  return html`<svg class="chart bars" data-testid="chart" viewBox="0 0 ${W} ${H}" width="100%" style="max-width:${W}px" role="img" aria-label=${opts.yLabel}>
    ${yt.map((v) => svg`<line class="grid" x1=${L} x2=${W - R} y1=${sy(v)} y2=${sy(v)}></line><text class="tick" x=${L - 6} y=${sy(v) + 4} text-anchor="end">${shortNumber(v)}</text>`)}
    ${points.map((p, i) => {
      const x = L + i * slot + (slot - bw) / 2,
        y0 = sy(0),
        y1 = sy(p.y);
      return svg`<rect class="bar" x=${x} y=${Math.min(y0, y1)} width=${bw} height=${Math.max(0.5, Math.abs(y0 - y1))}><title>${p.label}: ${shortNumber(p.y)}</title></rect>`;
    })}
    ${points.map((p, i) => (i % every === 0 || i === points.length - 1 ? svg`<text class="tick" x=${L + i * slot + slot / 2} y=${H - B + 16} text-anchor="middle">${p.label.slice(0, 16)}</text>` : ""))}
    <text class="axis-label" x=${L} y=${H - 4}>${opts.yLabel}</text>
  </svg>`;
}
