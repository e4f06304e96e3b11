// The pipeline's DAG beside the cells: boxes in layers, edges as curves,
// colored by the latest state of each block.

import { html, svg, type TemplateResult } from "lit-html";
import { edgePath, layoutDag } from "../dag";
import type { Edge } from "../types";

export function dagView(nodes: string[], edges: Edge[], states: Map<string, string>, onClick: (id: string) => void, flags: Map<string, string> = new Map()): TemplateResult {
  const lay = layoutDag(nodes, edges);
  return html`<svg class="dag" data-testid="dag" viewBox="0 0 ${lay.width} ${lay.height}" width=${lay.width} height=${lay.height} role="img" aria-label="pipeline DAG">
    ${edges.map((e) => {
      const a = lay.nodes.get(e.from),
        b = lay.nodes.get(e.to);
      return a && b ? svg`<path class="edge" d=${edgePath(a, b, lay.nodeH)}></path>` : "";
    })}
    ${nodes.map((n) => {
      const b = lay.nodes.get(n)!;
      const st = states.get(n) ?? "";
      const label = n.length > 18 ? n.slice(0, 17) + "…" : n;
      return svg`<g class=${"node " + st} transform=${`translate(${b.x - lay.nodeW / 2},${b.y - lay.nodeH / 2})`} @click=${() => onClick(n)} tabindex="0" @keydown=${(e: KeyboardEvent) => e.key === "Enter" && onClick(n)}>
        <rect width=${lay.nodeW} height=${lay.nodeH} rx="4"></rect>
        <text x=${lay.nodeW / 2} y=${lay.nodeH / 2 + 4} text-anchor="middle">${label}${flags.get(n) ?? ""}</text>
        <title>${n}${st ? ` (${st})` : ""}</title>
      </g>`;
    })}
  </svg>`;
}
