// Data products: the list, and one product's partitions as a status strip
// (current, stale, failed, missing: read from a dry-run plan with
// reprocess=stale over the window), its versions, stored previews and charts
// of any window, and rollback of a partition to a past version.

import { html, nothing, type TemplateResult } from "lit-html";
import { api, errorText } from "../api";
import { app, type Page } from "../app";
import { currentEnv } from "../env";
import { isValidKey, keyExample, latestPartition, lastKeys, shiftKey } from "../partitions";
import { productStates } from "../plan";
import { formatInstant } from "../time";
import type { PartitionsConfig, ProductPartition, ProductView } from "../types";
import { PreviewPanel } from "../views/preview_panel";

export class ProductsPage implements Page {
  title = "Products";
  products: ProductView[] = [];
  error = "";
  product?: ProductView;
  windowSize = 60;
  strip: { key: string; state: string }[] = [];
  stripError = "";
  stored = new Map<string, ProductPartition>();
  selected = "";
  panel?: PreviewPanel;
  rollbackMsg = "";
  private destroyed = false;

  /** The strip's last partition; "" is the latest complete one. */
  end = "";

  constructor(
    readonly name: string | null,
    end: string | null = null,
    /** The partition to open (a run page's link to a version it wrote). */
    private readonly open: string | null = null,
  ) {
    this.end = end ?? open ?? "";
    this.title = name ?? "Products";
    void this.load();
  }

  destroy(): void {
    this.destroyed = true;
  }

  pipelineZone(): string | undefined {
    return this.product?.partitioning.timezone || undefined;
  }

  private async load(): Promise<void> {
    try {
      this.products = (await api.products()).products;
      if (this.name) {
        this.product = this.products.find((p) => p.name === this.name);
        if (!this.product) this.error = `no product ${this.name} (yet): products appear once a run has written them`;
        else {
          const cfg = this.cfg();
          this.panel = new PreviewPanel(this.product.name, cfg, () => app.update());
          const first = this.open || this.product.latest_partition;
          this.panel.partition = first;
          await Promise.all([this.loadStrip(), this.loadVersions()]);
          this.select(first);
        }
      }
    } catch (e) {
      this.error = errorText(e);
    }
    app.update();
  }

  private cfg(): PartitionsConfig {
    const p = this.product!;
    return p.partitioning.interval ? p.partitioning : { interval: "day", timezone: "UTC" };
  }

  private async loadVersions(): Promise<void> {
    const p = this.product;
    if (!p) return;
    const ps = await api.productPartitions(p.name);
    this.stored = new Map(ps.partitions.map((x) => [x.key, x]));
  }

  /** The last windowSize partitions up to the latest complete one, with their state from a dry run. */
  async loadStrip(): Promise<void> {
    const p = this.product;
    if (!p?.pipeline) return;
    const cfg = this.cfg();
    const last = this.end && isValidKey(cfg, this.end) ? this.end : latestPartition(cfg, Date.now());
    if (!last) return;
    const keys = lastKeys(cfg, last, this.windowSize);
    try {
      const pipeline = await api.pipeline(p.pipeline);
      const fine = pipeline.partitions.interval === cfg.interval;
      const plan = await api.plan(
        fine
          ? { pipeline: p.pipeline, from: keys[0], to: last, reprocess: "stale" }
          : { pipeline: p.pipeline, from: keys[0], to: last, interval: cfg.interval, zone: cfg.timezone, reprocess: "stale" },
        0,
        fine ? this.windowSize : 1,
      );
      const states = productStates(fine ? (plan.partitions ?? []) : (plan.rollups ?? []), p.name);
      this.strip = keys.map((k) => ({ key: k, state: states.get(k) ?? "missing" }));
      this.stripError = "";
    } catch (e) {
      this.stripError = errorText(e);
    }
    if (!this.destroyed) app.update();
  }

  setEnd(key: string): void {
    this.end = key;
    history.replaceState(null, "", `/products/${encodeURIComponent(this.name ?? "")}${key ? `?end=${encodeURIComponent(key)}` : ""}`);
    void this.loadStrip();
  }

  select(key: string): void {
    this.selected = key;
    const panel = this.panel;
    if (!panel) return;
    panel.partition = key;
    panel.versions = this.stored.get(key) ?? null;
    if (this.stored.has(key)) {
      panel.mode = "partition";
      void panel.load({ partition: key });
    } else {
      panel.result = undefined;
      panel.error = "";
    }
    app.update();
  }

  async rollback(version: number): Promise<void> {
    const p = this.product;
    if (!p || !confirm(`Make version ${version} the current data of ${p.name} ${this.selected}?`)) return;
    try {
      await api.rollback(p.name, this.selected, version);
      this.rollbackMsg = `${this.selected} is now at v${version}`;
      await Promise.all([this.loadVersions(), this.loadStrip()]);
      this.select(this.selected);
    } catch (e) {
      this.rollbackMsg = errorText(e);
    }
    app.update();
  }

  render(): TemplateResult {
    if (this.error) return html`<main class="page"><h1><a href="/products">Products</a></h1><div class="error-box">${this.error}</div></main>`;
    return this.name ? this.detail() : this.list();
  }

  private list(): TemplateResult {
    const zone = app.zone();
    return html`<main class="page">
      <h1>Products</h1>
      <p class="muted">Every block's output is a partitioned, versioned data product. Pick one for its partitions, versions and previews.</p>
      ${this.products.length === 0 ? html`<p class="muted">No products yet: run a pipeline or a backfill.</p>` : nothing}
      <table class="data" data-testid="products">
        <thead><tr><th>product</th><th>written by</th><th>interval</th><th class="num">partitions</th><th class="num">rows</th><th>latest</th><th data-testid="products-updated-head">updated (${zone})</th></tr></thead>
        <tbody>
          ${this.products.map(
            (p) => html`<tr>
              <td><a class="mono" href=${`/products/${encodeURIComponent(p.name)}`}>${p.name}</a>${p.global ? html` <span class="tag">global</span>` : nothing}</td>
              <td>${p.pipeline ? html`<a href=${`/pipelines/${encodeURIComponent(p.pipeline)}#cell-${p.block}`}>${p.pipeline}.${p.block}</a>` : html`<span class="muted">no pipeline</span>`}</td>
              <td>${p.partitioning.interval}</td>
              <td class="num">${p.partitions.toLocaleString("en-US")}</td>
              <td class="num">${p.rows.toLocaleString("en-US")}</td>
              <td class="mono">${p.latest_partition}</td>
              <td class="small">${formatInstant(p.updated_at, zone, { seconds: false })}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </main>`;
  }

  private detail(): TemplateResult {
    const p = this.product;
    if (!p) return html`<main class="page"><p class="muted">Loading ${this.name}…</p></main>`;
    const zone = app.zone();
    const cfg = this.cfg();
    const sel = this.stored.get(this.selected);
    return html`<main class="page product-page">
      <h1><a href="/products" class="muted">Products</a> / <span class="mono">${p.name}</span></h1>
      <p>${p.pipeline ? html`written by <a href=${`/pipelines/${encodeURIComponent(p.pipeline)}`}>${p.pipeline}</a>.${p.block}` : nothing} · ${cfg.interval} partitions in ${cfg.timezone} · ${p.partitions.toLocaleString("en-US")} stored · ${p.rows.toLocaleString("en-US")} rows</p>
      <section class="strip-box">
        <div class="strip-head">
          <b>Last ${this.windowSize} partitions</b>
          <select aria-label="window size" @change=${(e: Event) => ((this.windowSize = +(e.target as HTMLSelectElement).value), void this.loadStrip())}>
            ${[30, 60, 180, 365].map((n) => html`<option ?selected=${n === this.windowSize}>${n}</option>`)}
          </select>
          <label class="small">ending at <input size="11" data-testid="strip-end" placeholder=${keyExample(cfg)} .value=${this.end} @change=${(e: Event) => this.setEnd((e.target as HTMLInputElement).value.trim())} /></label>
          <button class="link" @click=${() => this.setEnd("")}>latest complete</button>
          ${p.latest_partition ? html`<button class="link" @click=${() => this.setEnd(p.latest_partition)}>latest stored (${p.latest_partition})</button>` : nothing}
          <span class="legend">${["current", "stale", "failed", "missing"].map((s) => html`<span><i class=${"sw plan-" + s}></i>${s} ${this.strip.filter((x) => x.state === s).length}</span>`)}</span>
        </div>
        ${this.stripError ? html`<div class="error-box small">${this.stripError}</div>` : nothing}
        <div class="strip" data-testid="status-strip" role="listbox" aria-label="partitions">
          ${this.strip.map(
            (s) => html`<button class=${`strip-cell plan-${s.state}${s.key === this.selected ? " sel" : ""}`} title=${`${s.key}: ${s.state}`} data-key=${s.key} data-state=${s.state} @click=${() => this.select(s.key)}></button>`,
          )}
        </div>
        <div class="muted small">${this.strip.length ? `${this.strip[0].key} … ${this.strip[this.strip.length - 1].key}` : ""}
          ${this.selected ? html` · selected <b class="mono">${this.selected}</b>
            <button class="link" @click=${() => this.select(shiftKey(cfg, this.selected, -1) ?? this.selected)}>‹ prev</button>
            <button class="link" @click=${() => this.select(shiftKey(cfg, this.selected, 1) ?? this.selected)}>next ›</button>` : nothing}
        </div>
      </section>
      <section>
        <h2>Versions of ${this.selected || "…"}${currentEnv() ? html` <span class="env-tag" data-testid="versions-prod">in prod</span>` : nothing}</h2>
        ${this.rollbackMsg ? html`<div class="banner-inline">${this.rollbackMsg}</div>` : nothing}
        ${sel && this.panel ? this.panel.versionList(zone, (v) => void this.rollback(v)) : html`<p class="muted">No stored data for ${this.selected}.</p>`}
      </section>
      <section>
        <h2>Preview${currentEnv() ? html` <span class="env-tag" data-testid="preview-env">as ${currentEnv()} shows it</span>` : nothing}</h2>
        ${this.panel ? html`${this.panel.controls()}${this.panel.body(zone)}` : nothing}
      </section>
    </main>`;
  }
}
