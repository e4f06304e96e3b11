// The pipeline page's head: the partition it is about (picked by key, by
// ‹ › and latest, and each value dimension's own picker), and the sticky
// layout that keeps it and each cell's head in view while a cell scrolls.

import { html, type TemplateResult } from "lit-html";
import { cellLayout, dimensional, isValidCell, joinCell, splitCell } from "../cells";
import { keyExample, latestPartition } from "../partitions";
import type { PartitionsConfig } from "../types";
import type { PipelinePage } from "./pipeline";

export class PageHead {
  constructor(private readonly p: PipelinePage) {}

  // dimPicker picks each value dimension of the cell: a static one among
  // its values, a dynamic one typed (its key set lives in a product).
  dimPicker(cfg: PartitionsConfig): TemplateResult {
    const c = splitCell(cfg, this.p.partition) ?? { time: "", values: [] };
    const set = (i: number, v: string) => {
      const values = (cfg.dims ?? []).map((_, j) => (j === i ? v : (c.values[j] ?? "")));
      this.setPartition(joinCell(cfg, c.time || latestPartition(cfg, Date.now()), values));
    };
    return html`<div class="dim-picker small" data-testid="dim-picker">
      ${(cfg.dims ?? []).map((d, i) =>
        d.kind === "static"
          ? html`<label>${d.name} <select data-testid=${`dim-pick-${d.name}`} @change=${(e: Event) => set(i, (e.target as HTMLSelectElement).value)}>
              ${(d.values ?? []).map((v) => html`<option value=${v} ?selected=${c.values[i] === v}>${v}</option>`)}
            </select></label>`
          : html`<label title=${`a key of column ${d.column} of ${d.product}`}>${d.name} <input data-testid=${`dim-pick-${d.name}`} size="8" .value=${c.values[i] ?? ""} @change=${(e: Event) => set(i, (e.target as HTMLInputElement).value.trim())} /></label>`,
      )}
    </div>`;
  }

  setPartition(key: string): void {
    const pl = this.p.pipeline;
    if (!pl) return;
    key = key.trim();
    if (!isValidCell(pl.partitions, key)) {
      this.p.partitionError = dimensional(pl.partitions)
        ? `not a cell of ${cellLayout(pl.partitions)}: want e.g. ${joinCell(pl.partitions, keyExample(pl.partitions), (pl.partitions.dims ?? []).map((d) => d.values?.[0] ?? d.name))}`
        : `not a ${pl.partitions.interval} key: want e.g. ${keyExample(pl.partitions)}`;
      this.p.update();
      return;
    }
    this.p.partitionError = "";
    this.p.partition = key;
    for (const c of this.p.cells.values()) c.stored.partition = this.p.partitionFor(c.block);
    this.p.states.refreshSoon(0);
    history.replaceState(null, "", `/pipelines/${encodeURIComponent(this.p.id)}?partition=${encodeURIComponent(key)}`);
    this.p.partitionRun = undefined;
    this.p.lastRun = undefined;
    this.p.runStates = new Map();
    void this.p.runs.loadLast();
    this.p.update();
  }

  headObserver?: ResizeObserver;
  /**
   * The page head (partition, run, restart) and each cell's head stay in
   * view while a long cell scrolls: the cells' heads stick below the page
   * head, whose height is measured as it wraps.
   */
  stick(el: HTMLElement | undefined): void {
    if (!el || this.headObserver) return;
    const set = () => {
      const bar = document.querySelector(".topbar") as HTMLElement | null;
      const main = el.closest(".pipeline-page") as HTMLElement | null;
      main?.style.setProperty("--topbar-h", `${bar?.offsetHeight ?? 0}px`);
      main?.style.setProperty("--head-h", `${el.offsetHeight}px`);
    };
    this.headObserver = new ResizeObserver(set);
    this.headObserver.observe(el);
    set();
  }
}
