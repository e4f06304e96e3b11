// The backfills page: a form (range, interval, zone, reprocess policy,
// concurrency, rate, publish mode, a subset of the blocks, some values of
// the value dimensions), the dry-run plan before launch, and the list of
// past backfills with their outcomes.

import { html, nothing, type TemplateResult } from "lit-html";
import { api, errorText } from "../api";
import { app, type Page } from "../app";
import { isValidKey, keyExample, latestPartition, shiftKey } from "../partitions";
import { describeSpec, stateBucket, summarizePlan } from "../plan";
import { browserZone, formatInstant } from "../time";
import { FINAL_STATES, type BackfillSpec, type BackfillStatus, type PipelineSummary, type PipelineView, type Plan, type PublishMode, type Reprocess } from "../types";
import { blockSubsetField } from "../views/block_subset";
import { whereField } from "../views/where_field";

const INTERVALS = ["", "hour", "day", "week", "month", "quarter", "year"];

export class BackfillsPage implements Page {
  title = "Backfills";
  pipelines: PipelineSummary[] = [];
  /** The chosen pipeline's blocks and dimensions, for the block subset and where fields. */
  view?: PipelineView;
  list: BackfillStatus[] = [];
  spec: BackfillSpec = { pipeline: "", from: "", to: "", reprocess: "missing", concurrency: 0, rate_per_min: 0, publish: "partition" };
  plan?: Plan;
  planFor = "";
  planning = false;
  launching = false;
  error = "";
  listError = "";
  private timer?: ReturnType<typeof setInterval>;

  constructor(pipeline: string | null) {
    this.spec.pipeline = pipeline ?? "";
    void this.load();
    this.timer = setInterval(() => {
      if (this.list.some((b) => !FINAL_STATES.has(b.state))) void this.loadList();
    }, 3000);
  }

  destroy(): void {
    clearInterval(this.timer);
  }

  pipelineZone(): string | undefined {
    return this.pipelines.find((p) => p.id === this.spec.pipeline)?.partitions.timezone;
  }

  private async load(): Promise<void> {
    try {
      this.pipelines = (await api.pipelines()).pipelines;
      if (!this.spec.pipeline && this.pipelines.length) this.spec.pipeline = this.pipelines[0].id;
      if (!this.spec.from && !this.spec.to) this.defaults();
      void this.loadView();
    } catch (e) {
      this.error = errorText(e);
    }
    await this.loadList();
  }

  /** Reads the chosen pipeline's blocks and dimensions; a subset or where of another pipeline goes. */
  private async loadView(): Promise<void> {
    const id = this.spec.pipeline;
    if (this.view?.id !== id) {
      this.view = undefined;
      delete this.spec.blocks;
      delete this.spec.where;
    }
    if (!id) return;
    try {
      const v = await api.pipeline(id);
      if (this.spec.pipeline === id) this.view = v;
    } catch {
      /* the fields stay hidden; the plan still names what is wrong */
    }
    app.update();
  }

  private async loadList(): Promise<void> {
    try {
      this.list = (await api.backfills()).backfills.sort((a, b) => b.created_at.localeCompare(a.created_at));
      this.listError = "";
    } catch (e) {
      this.listError = errorText(e);
    }
    app.update();
  }

  private defaults(): void {
    const pl = this.pipelines.find((p) => p.id === this.spec.pipeline);
    if (!pl) return;
    const cfg = { ...pl.partitions, interval: this.spec.interval || pl.partitions.interval, timezone: this.spec.zone || pl.partitions.timezone };
    const last = latestPartition(cfg, Date.now());
    this.spec.to = last;
    this.spec.from = shiftKey(cfg, last, -6) ?? last;
    this.spec.zone ||= pl.partitions.timezone;
  }

  private cfg() {
    const pl = this.pipelines.find((p) => p.id === this.spec.pipeline);
    return { interval: this.spec.interval || pl?.partitions.interval || "day", timezone: this.spec.zone || pl?.partitions.timezone || "UTC", week_start: pl?.partitions.week_start };
  }

  private body(): BackfillSpec {
    const s: BackfillSpec = { ...this.spec };
    const pl = this.pipelines.find((p) => p.id === s.pipeline);
    if (!s.interval) delete s.interval;
    if (!s.zone || (!s.interval && s.zone === pl?.partitions.timezone)) delete s.zone;
    if (!s.concurrency) delete s.concurrency;
    if (!s.rate_per_min) delete s.rate_per_min;
    return s;
  }

  private validate(): string {
    const cfg = this.cfg();
    if (!this.spec.pipeline) return "pick a pipeline";
    for (const [name, v] of [["from", this.spec.from], ["to", this.spec.to]] as const) {
      if (!isValidKey(cfg, v)) return `${name}: "${v}" is not a ${cfg.interval} key; want e.g. ${keyExample(cfg)}`;
    }
    return "";
  }

  async dryRun(ev?: Event): Promise<void> {
    ev?.preventDefault();
    this.error = this.validate();
    if (this.error) return app.update();
    this.planning = true;
    app.update();
    try {
      const body = this.body();
      this.plan = await api.plan(body, 0, 500);
      this.planFor = JSON.stringify(body);
    } catch (e) {
      this.error = errorText(e);
      this.plan = undefined;
    } finally {
      this.planning = false;
      app.update();
    }
  }

  async more(): Promise<void> {
    if (!this.plan) return;
    const have = this.plan.partitions?.length ?? 0;
    try {
      const p = await api.plan(JSON.parse(this.planFor), have, 500);
      this.plan.partitions = [...(this.plan.partitions ?? []), ...(p.partitions ?? [])];
    } catch (e) {
      this.error = errorText(e);
    }
    app.update();
  }

  async launch(): Promise<void> {
    this.launching = true;
    app.update();
    try {
      const st = await api.launch(JSON.parse(this.planFor));
      app.go(`/backfills/${encodeURIComponent(st.id)}`);
    } catch (e) {
      this.error = errorText(e);
      this.launching = false;
      app.update();
    }
  }

  render(): TemplateResult {
    return html`<main class="page backfills-page">
      <h1>Backfills</h1>
      ${this.form()}
      ${this.error ? html`<div class="error-box" data-testid="backfill-error">${this.error}</div>` : nothing}
      ${this.plan ? this.planView(this.plan) : nothing}
      <h2>Past backfills</h2>
      ${this.listError ? html`<div class="error-box">${this.listError}</div>` : nothing}
      ${this.history()}
    </main>`;
  }

  private form(): TemplateResult {
    const s = this.spec;
    const cfg = this.cfg();
    const ex = keyExample(cfg);
    const changed = () => {
      this.plan = undefined;
      app.update();
    };
    const v = (e: Event) => (e.target as HTMLInputElement).value;
    const zones = [...new Set([this.pipelines.find((p) => p.id === s.pipeline)?.partitions.timezone, "UTC", browserZone()].filter(Boolean))] as string[];
    return html`<form class="backfill-form" data-testid="backfill-form" @submit=${(e: Event) => this.dryRun(e)}>
      <label>Pipeline
        <select data-testid="bf-pipeline" @change=${(e: Event) => ((s.pipeline = v(e)), this.defaults(), void this.loadView(), changed())}>
          ${this.pipelines.map((p) => html`<option ?selected=${p.id === s.pipeline}>${p.id}</option>`)}
        </select>
      </label>
      <label>Interval of the range
        <select data-testid="bf-interval" @change=${(e: Event) => ((s.interval = v(e)), this.defaults(), changed())}>
          ${INTERVALS.map((i) => html`<option value=${i} ?selected=${i === (s.interval ?? "")}>${i || `pipeline's (${this.pipelines.find((p) => p.id === s.pipeline)?.partitions.interval ?? "…"})`}</option>`)}
        </select>
      </label>
      <label>Zone of the range
        <input list="bf-zones" data-testid="bf-zone" size="18" .value=${s.zone ?? ""} @change=${(e: Event) => ((s.zone = v(e).trim()), changed())} />
        <datalist id="bf-zones">${zones.map((z) => html`<option value=${z}></option>`)}</datalist>
      </label>
      <label>From <span class="muted small">(${ex}, ${cfg.timezone})</span>
        <input data-testid="bf-from" size="12" placeholder=${ex} .value=${s.from} @change=${(e: Event) => ((s.from = v(e).trim()), changed())} />
      </label>
      <label>To, inclusive <span class="muted small">(${ex}, ${cfg.timezone})</span>
        <input data-testid="bf-to" size="12" placeholder=${ex} .value=${s.to} @change=${(e: Event) => ((s.to = v(e).trim()), changed())} />
      </label>
      <label>Reprocess
        <select data-testid="bf-reprocess" @change=${(e: Event) => ((s.reprocess = v(e) as Reprocess), changed())}>
          ${(["missing", "failed", "stale", "all"] as Reprocess[]).map((r) => html`<option ?selected=${r === s.reprocess}>${r}</option>`)}
        </select>
      </label>
      <label>Concurrency <span class="muted small">(partitions at once; 0 = pipeline's)</span>
        <input type="number" min="0" max="256" style="width:5em" data-testid="bf-concurrency" .value=${String(s.concurrency ?? 0)} @change=${(e: Event) => ((s.concurrency = Math.max(0, +v(e) || 0)), changed())} />
      </label>
      <label>Rate <span class="muted small">(partitions/min; 0 = unpaced)</span>
        <input type="number" min="0" step="any" style="width:6em" data-testid="bf-rate" .value=${String(s.rate_per_min ?? 0)} @change=${(e: Event) => ((s.rate_per_min = Math.max(0, +v(e) || 0)), changed())} />
      </label>
      <label>Publish
        <select data-testid="bf-publish" @change=${(e: Event) => ((s.publish = v(e) as PublishMode), changed())}>
          <option value="partition" ?selected=${s.publish !== "atomic" && s.publish !== "review"}>per partition</option>
          <option value="atomic" ?selected=${s.publish === "atomic"}>atomically, all at the end</option>
          <option value="review" ?selected=${s.publish === "review"}>for review: stage, promote after the diff</option>
        </select>
      </label>
      ${this.view
        ? html`${blockSubsetField(this.view.blocks, s.blocks, (ids) => {
            if (ids) s.blocks = ids;
            else delete s.blocks;
            changed();
          })}
          ${whereField(this.view.partitions.dims, s.where, (w) => {
            if (w) s.where = w;
            else delete s.where;
            changed();
          })}`
        : nothing}
      <div class="form-actions">
        <button type="submit" data-testid="bf-plan" ?disabled=${this.planning}>${this.planning ? "Planning…" : "Dry run"}</button>
        <button type="button" class="primary" data-testid="bf-launch" ?disabled=${!this.plan || this.launching || this.planFor !== JSON.stringify(this.body())} @click=${() => this.launch()} title="the dry run comes first">${this.launching ? "Launching…" : this.plan ? `Launch: run ${this.plan.to_run.toLocaleString("en-US")} partition(s)` : "Launch"}</button>
      </div>
    </form>`;
  }

  private planView(p: Plan): TemplateResult {
    const sum = summarizePlan(p);
    const parts = p.partitions ?? [];
    return html`<section class="plan" data-testid="plan">
      <h2>Dry run</h2>
      <p data-testid="plan-headline"><b>${sum.headline}</b></p>
      ${p.snapshot ? html`<p class="muted small" data-testid="plan-version">runs pipeline version ${p.snapshot.slice(0, 7)} (the files as they are now; edits after the launch do not reach it)</p>` : nothing}
      <div class="chips">
        ${sum.states.map((s) => html`<span class=${"chip plan-" + s.state}>${s.state}: <b>${s.count.toLocaleString("en-US")}</b></span>`)}
      </div>
      <div class="plan-grid">
        <table class="data" data-testid="plan-products">
          <thead><tr><th>product</th><th class="num">to run</th><th class="num">to skip</th></tr></thead>
          <tbody>${sum.products.map((r) => html`<tr><td class="mono">${r.product}${r.rollup ? html` <span class="tag">rollup</span>` : nothing}</td><td class="num">${r.run.toLocaleString("en-US")}</td><td class="num">${r.skip.toLocaleString("en-US")}</td></tr>`)}</tbody>
        </table>
        <div class="table-scroll tall">
          <table class="data" data-testid="plan-partitions">
            <thead><tr><th>partition</th><th>today</th><th>action</th><th>why</th></tr></thead>
            <tbody>
              ${parts.map((pp) => html`<tr class=${"action-" + pp.action}><td class="mono">${pp.key}</td><td><span class=${"chip plan-" + stateBucket(pp.state)}>${pp.state}</span></td><td>${pp.action}</td><td class="small muted">${pp.reason ?? ""}</td></tr>`)}
              ${(p.rollups ?? []).map((pp) => html`<tr class=${"rollup action-" + pp.action}><td class="mono">${pp.key} <span class="tag">${pp.interval}</span></td><td><span class=${"chip plan-" + stateBucket(pp.state)}>${pp.state}</span></td><td>${pp.action}</td><td class="small muted">${pp.reason ?? ""}</td></tr>`)}
            </tbody>
          </table>
          ${parts.length < p.total ? html`<button class="link" @click=${() => this.more()}>show ${Math.min(500, p.total - parts.length)} more of ${(p.total - parts.length).toLocaleString("en-US")}</button>` : nothing}
        </div>
      </div>
    </section>`;
  }

  private history(): TemplateResult {
    if (!this.list.length) return html`<p class="muted">No backfills yet.</p>`;
    const zone = app.zone();
    return html`<table class="data" data-testid="backfill-list">
      <thead><tr><th>backfill</th><th>pipeline</th><th>range</th><th>state</th><th class="num">succeeded</th><th class="num">failed</th><th class="num">skipped</th><th class="num">total</th><th>created</th></tr></thead>
      <tbody>
        ${this.list.map(
          (b) => html`<tr>
            <td><a class="mono" href=${`/backfills/${encodeURIComponent(b.id)}`}>${b.id}</a></td>
            <td>${b.pipeline}</td>
            <td class="small">${describeSpec(b.spec)}</td>
            <td><span class=${"tag " + b.state}>${b.state}</span></td>
            <td class="num">${b.progress.succeeded}</td>
            <td class="num">${b.progress.failed}</td>
            <td class="num">${b.progress.skipped}</td>
            <td class="num">${b.total}</td>
            <td class="small">${formatInstant(b.created_at, zone, { seconds: false })}</td>
          </tr>`,
        )}
      </tbody>
    </table>`;
  }
}
