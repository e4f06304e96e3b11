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
