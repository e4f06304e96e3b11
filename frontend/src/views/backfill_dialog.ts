// The "Backfill…" dialog of the pipeline page: the pipeline's history as a
// calendar colored by what exists today, one status strip per product for
// the chosen range, the range chosen by dragging over the calendar or by
// typing it, the reprocess policy and publish mode, the dry-run plan inline
// (re-planned on every change; launch needs the plan of exactly what is
// shown), and launch.

import { html, nothing, type TemplateResult } from "lit-html";
import { api, errorText } from "../api";
import { app } from "../app";
import { currentEnv } from "../env";
import { latestPartition, firstKey, keyExample } from "../partitions";
import { stateBucket, summarizePlan } from "../plan";
import { blockSubsetField } from "./block_subset";
import { dimensional, formatWhere, parseWhere, splitCell, whereProblem } from "../cells";
import type { BackfillSpec, PipelineView, Plan, PlannedPartition, PublishMode, Reprocess } from "../types";
import { CalendarCanvas } from "./calendar_canvas";

const STATE_COLORS: Record<string, string> = { missing: "#d5d9e0", failed: "#e05252", stale: "#e8b04b", current: "#3fae72" };
// The worst state of a partition across products colors its calendar day.
const WORST = ["failed", "missing", "stale", "current"];

export class BackfillDialog {
  spec: BackfillSpec;
  history?: Plan; // what exists today, over the whole calendar
  plan?: Plan;
  planFor = "";
  error = "";
  planning = false;
  launching = false;
  readonly calendar = new CalendarCanvas("bf-calendar");
  private byKey = new Map<string, PlannedPartition>();
  /** With value dimensions: the worst state of a day's cells, by time key, for the calendar. */
  private byTime = new Map<string, string>();
  /** A where-field's problem by dimension (a static dimension's unknown value), shown beside it; the plan is not asked. */
  private whereErrors: Record<string, string> = {};
  private strips = new Map<string, HTMLCanvasElement>();
  private seq = 0;

  constructor(
    readonly pl: PipelineView,
    private update: () => void,
    readonly close: () => void,
  ) {
    const latest = latestPartition(pl.partitions, Date.now());
    this.spec = { pipeline: pl.id, from: latest, to: latest, reprocess: "missing", publish: "review", concurrency: 0 };
    this.calendar.color = (k) => {
      if (dimensional(pl.partitions)) {
        const worst = this.byTime.get(k);
        return worst ? STATE_COLORS[worst] : undefined;
      }
      const p = this.byKey.get(k);
      if (!p) return undefined;
      const states = Object.values(p.products ?? {}).map(stateBucket);
      const worst = WORST.find((s) => states.includes(s)) ?? stateBucket(p.state);
      return STATE_COLORS[worst];
    };
    this.calendar.onSelect = (from, to, done) => {
      this.spec.from = from;
      this.spec.to = to;
      this.update();
      if (done) void this.dryRun();
    };
    void this.loadHistory();
  }

  get daily(): boolean {
    return this.pl.partitions.interval === "day";
  }

  private async loadHistory(): Promise<void> {
    const cfg = this.pl.partitions;
    const latest = latestPartition(cfg, Date.now());
    const first = cfg.start || firstKey(cfg) || latest;
    try {
      this.history = await api.plan({ pipeline: this.pl.id, from: first, to: latest, reprocess: "missing" }, 0, 100_000);
      this.byKey = new Map((this.history.partitions ?? []).map((p) => [p.key, p]));
      this.byTime = new Map();
      if (dimensional(cfg)) {
        // A day has a cell per value: the calendar shows the worst of them.
        for (const p of this.history.partitions ?? []) {
          const t = splitCell(cfg, p.key)?.time;
          if (!t) continue;
          const states = [...Object.values(p.products ?? {}).map(stateBucket), stateBucket(p.state)];
          const worst = WORST.find((s) => states.includes(s) || s === this.byTime.get(t));
          if (worst) this.byTime.set(t, worst);
        }
      }
      if (this.daily) {
        this.calendar.setRange(first, latest);
        this.calendar.select(this.spec.from, this.spec.to);
      }
    } catch (e) {
      this.error = errorText(e);
    }
    this.update();
    void this.dryRun();
  }

  private body(): BackfillSpec {
    const s = { ...this.spec };
    if (!s.concurrency) delete s.concurrency;
    return s;
  }

  async dryRun(): Promise<void> {
    if (Object.values(this.whereErrors).some((e) => e)) {
      this.plan = undefined;
      this.update();
      return;
    }
    const body = this.body();
    const key = JSON.stringify(body);
    const seq = ++this.seq;
    this.planning = true;
    this.error = "";
    this.update();
    try {
      const p = await api.plan(body, 0, 200);
      if (seq !== this.seq) return; // a newer range is being planned
      this.plan = p;
      this.planFor = key;
    } catch (e) {
      if (seq !== this.seq) return;
      this.plan = undefined;
      this.error = errorText(e);
    } finally {
      if (seq === this.seq) this.planning = false;
    }
    this.update();
  }

  private async launch(): Promise<void> {
    this.launching = true;
    this.update();
    try {
      // An environment stages everything (publish review is its only mode).
      const st = await api.launch(currentEnv() ? { ...this.body(), publish: "review" } : this.body());
      this.close();
      app.go(`/backfills/${encodeURIComponent(st.id)}`);
    } catch (e) {
      this.error = errorText(e);
      this.launching = false;
      this.update();
    }
  }

  /** One canvas strip per product: its state in each partition of the range. */
  private strip(product: string): HTMLCanvasElement {
    let c = this.strips.get(product);
    if (!c) {
      c = document.createElement("canvas");
      c.className = "status-strip";
      this.strips.set(product, c);
    }
    const parts = (this.history?.partitions ?? []).filter((p) => p.key >= this.spec.from && p.key <= this.spec.to);
    const w = 480;
    c.width = w;
    c.height = 10;
    const g = c.getContext("2d");
    if (g) {
      g.clearRect(0, 0, w, 10);
      const n = Math.max(1, parts.length);
      parts.forEach((p, i) => {
        g.fillStyle = STATE_COLORS[stateBucket(p.products?.[product] ?? "missing")] ?? STATE_COLORS.missing;
        g.fillRect(Math.floor((i * w) / n), 0, Math.max(1, Math.ceil(w / n)), 10);
      });
    }
    return c;
  }

  // whereFields narrows the backfill per value dimension, as --where
  // does: a comma-separated list of values (empty: all), and for a dynamic
  // dimension @new, the keys its key set gained since the version before.
  private whereFields(): TemplateResult {
    const s = this.spec;
    const set = (dim: string, text: string) => {
      const d = (this.pl.partitions.dims ?? []).find((x) => x.name === dim)!;
      const vals = parseWhere(text);
      const where = { ...(s.where ?? {}) };
      if (vals.length) where[dim] = vals;
      else delete where[dim];
      if (Object.keys(where).length) s.where = where;
      else delete s.where;
      this.whereErrors = { ...this.whereErrors, [dim]: whereProblem(d, vals) };
      void this.dryRun();
    };
    return html`<div class="bf-where" data-testid="bf-where">
      ${(this.pl.partitions.dims ?? []).map(
        (d) => html`<label
          >where ${d.name}
          <input
            data-testid=${`bf-where-${d.name}`}
            size="16"
            placeholder=${d.kind === "static" ? `all (${(d.values ?? []).join(",")})` : "all, c1,c2 or @new"}
            title=${d.kind === "static" ? `values of ${d.name}, comma-separated: ${(d.values ?? []).join(", ")}; empty: all` : `keys of ${d.name}, comma-separated, or @new (the keys added to its key set since the version before); empty: all`}
            .value=${formatWhere(s.where?.[d.name])}
            @change=${(e: Event) => set(d.name, (e.target as HTMLInputElement).value)}
          />
          ${this.whereErrors[d.name] ? html`<span class="error-text small" data-testid=${`bf-where-error-${d.name}`}>${this.whereErrors[d.name]}</span>` : nothing}</label
        >`,
      )}
    </div>`;
  }

  render(): TemplateResult {
    const s = this.spec;
    const cfg = this.pl.partitions;
    const ex = keyExample(cfg);
    const v = (e: Event) => (e.target as HTMLInputElement).value;
    const changed = () => void this.dryRun();
    const typed = () => {
      if (this.daily) this.calendar.select(s.from, s.to);
      changed();
    };
    const sum = this.plan ? summarizePlan(this.plan) : undefined;
    const fresh = this.plan && this.planFor === JSON.stringify(this.body());
    const products = this.history?.products ?? [];
    return html`<div class="dialog-backdrop" @click=${(e: Event) => e.target === e.currentTarget && this.close()}>
      <section class="dialog backfill-dialog" role="dialog" aria-label="Backfill" data-testid="backfill-dialog">
        <header><h2>Backfill ${this.pl.id}</h2><span class="spacer"></span><button class="link" data-testid="bf-dialog-close" @click=${() => this.close()}>close</button></header>
        ${this.daily
          ? html`<p class="muted small">Drag over the calendar to choose the days (${cfg.timezone}); colors: what exists today
              ${Object.entries(STATE_COLORS).map(([k, c]) => html`<span class="swatch" style=${`background:${c}`}></span>${k} `)}</p>
              ${this.calendar.el}`
          : html`<p class="muted small">${cfg.interval} partitions: type the range below.</p>`}
        <div class="bf-fields">
          <label>From <input data-testid="bf-from" size="12" placeholder=${ex} .value=${s.from} @change=${(e: Event) => ((s.from = v(e).trim()), typed())} /></label>
          <label>To, inclusive <input data-testid="bf-to" size="12" placeholder=${ex} .value=${s.to} @change=${(e: Event) => ((s.to = v(e).trim()), typed())} /></label>
          <label>Reprocess
            <select data-testid="bf-reprocess" @change=${(e: Event) => ((s.reprocess = v(e) as Reprocess), changed())}>
              ${(["missing", "failed", "stale", "all"] as Reprocess[]).map((r) => html`<option ?selected=${r === s.reprocess}>${r}</option>`)}
            </select>
          </label>
          ${currentEnv()
            ? html`<span class="env-tag" data-testid="bf-into-env">into environment <b>${currentEnv()}</b>: staged there, prod unchanged</span>`
            : html`<label>Publish
                <select data-testid="bf-publish" @change=${(e: Event) => ((s.publish = v(e) as PublishMode), changed())}>
                  <option value="review" ?selected=${s.publish === "review"}>for review: stage, promote after the diff</option>
                  <option value="partition" ?selected=${s.publish === "partition"}>per partition</option>
                  <option value="atomic" ?selected=${s.publish === "atomic"}>atomically, all at the end</option>
                </select>
              </label>`}
          <label>Concurrency <input type="number" min="0" max="256" style="width:4em" data-testid="bf-concurrency" .value=${String(s.concurrency ?? 0)} @change=${(e: Event) => ((s.concurrency = Math.max(0, +v(e) || 0)), changed())} />
            <span class="muted small" data-testid="bf-concurrency-note">${s.concurrency ? "partitions at once" : `0 = the pipeline's ${this.pl.concurrency} at once`}</span></label>
        </div>
        ${dimensional(cfg) ? this.whereFields() : nothing}
        ${blockSubsetField(this.pl.blocks, s.blocks, (ids) => {
          if (ids) s.blocks = ids;
          else delete s.blocks;
          changed();
        })}
        ${products.length
          ? html`<table class="strips" data-testid="bf-strips">
              ${products.map((p) => html`<tr><td class="mono small">${p}</td><td>${this.strip(p)}</td></tr>`)}
            </table>`
          : nothing}
        ${this.error ? html`<div class="error-box" data-testid="bf-dialog-error">${this.error}</div>` : nothing}
        <section class="inline-plan" data-testid="bf-inline-plan">
          ${sum
            ? html`<p data-testid="plan-headline"><b>${sum.headline}</b>${this.planning ? html` <span class="muted">(planning…)</span>` : nothing}</p>
                <table class="data" data-testid="plan-products">
                  <thead><tr><th>product</th><th class="num">to run</th><th class="num">to skip</th></tr></thead>
                  <tbody>${sum.products.map((r) => html`<tr><td class="mono">${r.product}${r.rollup ? html` <span class="tag">rollup</span>` : nothing}</td><td class="num">${r.run.toLocaleString("en-US")}</td><td class="num">${r.skip.toLocaleString("en-US")}</td></tr>`)}</tbody>
                </table>`
            : html`<p class="muted">${this.planning ? "Planning…" : "Choose a range to see the plan."}</p>`}
        </section>
        <footer>
          <button class="primary" data-testid="bf-launch" ?disabled=${!fresh || this.launching || this.planning} @click=${() => this.launch()}>
            ${this.launching ? "Launching…" : this.plan ? `Launch: run ${this.plan.to_run.toLocaleString("en-US")} partition(s)${currentEnv() ? ` into ${currentEnv()}` : s.publish === "review" ? " for review" : ""}` : "Launch"}
          </button>
        </footer>
      </section>
    </div>`;
  }
}
