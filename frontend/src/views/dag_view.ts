// The pipeline's DAG beside the cells: boxes in layers, edges as curves,
// colored by the latest state of each block. Boxes are as wide as the
// longest name (no truncation; each also has a tooltip), and the drawing
// zooms with the wheel or the buttons, fits its box, and scrolls to pan.
// Dragging from one box onto another wires an edge (the second reads the
// first), when the page passes onWire.

import { html, nothing, svg, type TemplateResult } from "lit-html";
import { ref } from "lit-html/directives/ref.js";
import { edgePath, fitScale, layoutDag, nodeWidthFor, scrollAfterZoom, zoomBy } from "../dag";
import type { Edge } from "../types";

/** The DAG drawing alone (also used where no zoom is wanted). */
export function dagView(nodes: string[], edges: Edge[], states: Map<string, string>, onClick: (id: string) => void, flags: Map<string, string> = new Map(), scale = 1, selected = ""): TemplateResult {
  const lay = layoutDag(nodes, edges, { nodeW: nodeWidthFor(nodes.map((n) => n + (flags.get(n) ?? ""))) });
  return html`<svg class="dag" data-testid="dag" viewBox="0 0 ${lay.width} ${lay.height}" width=${lay.width * scale} height=${lay.height * scale} role="img" aria-label="pipeline DAG">
    ${edges.map((e) => {
      const a = lay.nodes.get(e.from),
        b = lay.nodes.get(e.to);
      return a && b ? svg`<path class="edge" d=${edgePath(a, b, lay.nodeH)}></path>` : "";
    })}
    ${nodes.map((n) => {
      const b = lay.nodes.get(n)!;
      const st = states.get(n) ?? "";
      return svg`<g class=${"node " + st + (n === selected ? " selected" : "")} data-block=${n} transform=${`translate(${b.x - lay.nodeW / 2},${b.y - lay.nodeH / 2})`} @click=${() => onClick(n)} tabindex="0" @keydown=${(e: KeyboardEvent) => e.key === "Enter" && onClick(n)}>
        <rect width=${lay.nodeW} height=${lay.nodeH} rx="4"></rect>
        <text x=${lay.nodeW / 2} y=${lay.nodeH / 2 + 4} text-anchor="middle">${n}${flags.get(n) ?? ""}</text>
        <title>${n}${st ? ` (${st} in the last run)` : ""}</title>
      </g>`;
    })}
  </svg>`;
}

/** The DAG with its zoom: owns the scale and the scrolled viewport. */
export class DagPanel {
  scale = 1;
  /** The block a drag started on, while the pointer is down. */
  dragFrom = "";
  private fitted = false;
  private viewport?: HTMLElement;
  private size = { w: 0, h: 0 };

  constructor(private readonly update: () => void) {}

  private zoom(factor: number, cx?: number, cy?: number): void {
    const v = this.viewport;
    const s0 = this.scale;
    const s1 = zoomBy(s0, factor);
    if (s1 === s0) return;
    this.scale = s1;
    this.fitted = false;
    this.update();
    if (!v) return;
    const x = cx ?? v.clientWidth / 2,
      y = cy ?? v.clientHeight / 2;
    const left = scrollAfterZoom(v.scrollLeft, x, s0, s1),
      top = scrollAfterZoom(v.scrollTop, y, s0, s1);
    requestAnimationFrame(() => v.scrollTo(left, top));
  }

  fit(): void {
    const v = this.viewport;
    if (!v) return;
    this.scale = fitScale(this.size.w, this.size.h, v.clientWidth - 4, 420);
    this.fitted = true;
    this.update();
  }

  /** Starts a drag on a box: released over another box, it asks onWire to wire them. */
  private dragStart(e: PointerEvent, onWire?: (from: string, to: string) => void): void {
    const from = (e.target as Element).closest?.("g.node")?.getAttribute("data-block");
    if (!from || !onWire || e.button !== 0) return;
    this.dragFrom = from;
    this.update();
    const up = (ev: PointerEvent) => {
      removeEventListener("pointerup", up);
      const to = document.elementFromPoint(ev.clientX, ev.clientY)?.closest("g.node")?.getAttribute("data-block");
      this.dragFrom = "";
      this.update();
      if (to && to !== from) onWire(from, to);
    };
    addEventListener("pointerup", up);
  }

  render(nodes: string[], edges: Edge[], states: Map<string, string>, onClick: (id: string) => void, flags: Map<string, string>, selected: string, onWire?: (from: string, to: string) => void): TemplateResult {
    const lay = layoutDag(nodes, edges, { nodeW: nodeWidthFor(nodes.map((n) => n + (flags.get(n) ?? ""))) });
    this.size = { w: lay.width, h: lay.height };
    // First paint: fit once the viewport has a size.
    if (!this.fitted && !this.viewport) requestAnimationFrame(() => this.viewport && !this.fitted && this.fit());
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const r = (e.currentTarget as HTMLElement).getBoundingClientRect();
      this.zoom(e.deltaY < 0 ? 1.15 : 1 / 1.15, e.clientX - r.left, e.clientY - r.top);
    };
    return html`<div class="dag-tools">
        <button class="icon" data-testid="dag-zoom-in" title="zoom in (or the mouse wheel over the DAG)" @click=${() => this.zoom(1.25)}>+</button>
        <button class="icon" data-testid="dag-zoom-out" title="zoom out" @click=${() => this.zoom(0.8)}>−</button>
        <button class="icon" data-testid="dag-fit" title="fit the whole DAG in the box" @click=${() => this.fit()}>fit</button>
        <span class="muted small" data-testid="dag-scale">${Math.round(this.scale * 100)}%</span>
        ${this.dragFrom ? html`<span class="muted small drag-hint" data-testid="dag-drag-hint">· release over a block to make it read <b>${this.dragFrom}</b></span>` : nothing}
      </div>
      <div class=${"dag-viewport" + (onWire ? " wirable" : "")} data-testid="dag-viewport" @wheel=${onWheel} @pointerdown=${(e: PointerEvent) => this.dragStart(e, onWire)} ${ref((el) => (this.viewport = el as HTMLElement | undefined))}>
        ${dagView(nodes, edges, states, onClick, flags, this.scale, selected)}
      </div>`;
  }
}

