// The pipeline runs the page shows: the last run of the chosen partition
// (the Last run panel, the DAG's colours, each cell's link), the run the
// Run pipeline button starts, followed live, and the DAG-picked block's line.

import { html, type TemplateResult } from "lit-html";
import { api, errorText } from "../api";
import { app } from "../app";
import { blockStates } from "../run_states";
import { runHref } from "../runs";
import { formatDuration } from "../time";
import { FINAL_STATES } from "../types";
import { ws } from "../ws";
import type { PipelinePage } from "./pipeline";

export class PipelineRuns {
  constructor(private readonly p: PipelinePage) {}

  /**
   * The last run of the chosen partition, for the Last run panel and the
   * DAG's colours: the page is about that partition, so another
   * partition's run would tell the wrong story.
   */
  async loadLast(): Promise<void> {
    const key = this.p.partition;
    try {
      const r = (await api.runs({ pipeline: this.p.id, partition: key, limit: 1 })).runs[0];
      if (this.p.destroyed || key !== this.p.partition) return;
      this.p.partitionRun = r;
      const d = r ? await api.run(r.run_id) : undefined;
      if (this.p.destroyed || key !== this.p.partition) return;
      this.p.lastRun = d;
      this.p.runStates = d ? blockStates(d.blocks) : new Map();
      this.p.states.refreshSoon();
      this.p.update();
    } catch {
      /* no runs yet */
    }
  }

  async start(): Promise<void> {
    this.p.runBusy = true;
    this.p.update();
    try {
      const r = await api.startRun(this.p.id, this.p.partition);
      this.p.startedRun = r.run_id;
      this.p.runStates = new Map();
      this.p.lastRun = undefined;
      this.p.runSub?.();
      this.p.runSub = ws.subscribe(`run:${r.run_id}`, (n) => {
        const ev = n.event;
        if (!ev) return;
        if (ev.block && !ev.child) this.p.runStates.set(ev.block, ev.state);
        if (!ev.block && FINAL_STATES.has(ev.state)) {
          this.p.runBusy = false;
          this.p.states.refreshSoon();
          // Events of blocks that ended before the subscription took effect
          // (and dynamic children) come from the run's record.
          void api.run(r.run_id).then((d) => {
            this.p.lastRun = d;
            this.p.runStates = blockStates(d.blocks);
            this.p.update();
          });
          void this.loadLast();
        }
        this.p.update();
      });
      // The run may finish before the subscription is in place: read it once it should be done.
      setTimeout(() => void api.run(r.run_id).then((d) => {
        if (this.p.runBusy && d.state !== "running") {
          this.p.runBusy = false;
          this.p.lastRun = d;
          this.p.runStates = blockStates(d.blocks);
          this.p.update();
        }
      }).catch(() => {}), 3000);
    } catch (e) {
      this.p.runBusy = false;
      app.notice = errorText(e);
    }
    this.p.update();
  }

  /** The block picked in the DAG: its state in the last run, with a link to that run focused on it. */
  pickedLine(): TemplateResult {
    const id = this.p.dagPicked;
    const r = this.p.lastRun;
    const st = this.p.runStates.get(id);
    const own = r?.blocks.filter((b) => b.block === id) ?? [];
    const ms = own.reduce((a, b) => Math.max(a, b.duration_ms || 0), 0);
    return html`<div class="small" data-testid="dag-picked"><b class="mono">${id}</b>
      ${r && st
        ? html`· <span class=${"tag " + st}>${st}</span> in the last run (${r.partition})${own.length > 1 ? ` · ${own.length} children` : ms ? ` · ${formatDuration(ms)}` : ""}
            · <a data-testid="dag-open-run" href=${runHref(r.run_id, id)}>open in the run ▸</a>`
        : html`<span class="muted">· not in the last run</span>`}</div>`;
  }
}
