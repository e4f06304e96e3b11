// The Environments pages: the list (create one, switch to one) and one
// environment's diff against prod: per pipeline and product, partitions
// changed / unchanged / new, rows, column statistics and the review checks
// (the review backfill's diff, computed by GET /envs/:name/diff), a
// partition's row diff, and Promote / Discard / Roll back the last promote
// behind a confirmation. A refused promote or rollback lists the
// partitions prod changed since.

import { html, nothing, type TemplateResult } from "lit-html";
import { ApiError, errorText } from "../api";
import { app, type Page } from "../app";
import { currentEnv, envApi, loadEnvs } from "../env";
import { formatInstant } from "../time";
import type { EnvDiff, EnvSummary, PartitionDiff, ProductReview } from "../types";
import { formatDiffValue } from "../views/table";

const n = (x: number) => x.toLocaleString("en-US");

export class EnvsPage implements Page {
  title = "Environments";
  envs: EnvSummary[] = [];
  error = "";

  constructor() {
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.envs = await envApi.list();
      this.error = "";
    } catch (e) {
      this.error = errorText(e);
    }
    app.update();
  }

  private async create(e: Event): Promise<void> {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const name = String(new FormData(form).get("name") ?? "").trim();
    try {
      await envApi.create(name, new FormData(form).get("triggers") === "on");
      form.reset();
      await loadEnvs();
      app.switchEnv(name);
      app.go(`/envs/${encodeURIComponent(name)}`);
      return;
    } catch (err) {
      this.error = errorText(err);
    }
    await this.load();
  }

  render(): TemplateResult {
    const zone = app.zone();
    return html`<main class="page" data-testid="envs-page">
      <h1>Environments</h1>
      <p class="muted">An environment is your change next to prod, over the same versions: it holds a version only where a run or backfill into it made one, and shows prod's everywhere else. Switch to one in the top bar; promote it when its diff looks right.</p>
      ${this.error ? html`<div class="error-box" data-testid="envs-error">${this.error}</div>` : nothing}
      <form class="row" data-testid="env-create" @submit=${(e: Event) => void this.create(e)}>
        <label>Name <input name="name" required placeholder="dev" pattern="[a-z][a-z0-9_]*" /></label>
        <label class="small"><input type="checkbox" name="triggers" /> triggers launch into it too</label>
        <button type="submit" class="primary">Create environment</button>
      </form>
      <table class="table" data-testid="envs-table">
        <thead><tr><th>environment</th><th class="num">partitions of its own</th><th class="num">products</th><th class="num">rows of its own</th><th>triggers</th><th>created</th><th></th></tr></thead>
        <tbody>
          <tr data-env="prod"><td><b>prod</b></td><td class="num" colspan="3"><span class="muted">the current versions</span></td><td>run here</td><td></td>
            <td>${currentEnv() ? html`<button class="link" @click=${() => app.switchEnv("")}>switch to prod</button>` : html`<span class="muted">this tab</span>`}</td></tr>
          ${this.envs.map(
            (e) => html`<tr data-env=${e.name}>
              <td><a href=${`/envs/${encodeURIComponent(e.name)}`}>${e.name}</a></td>
              <td class="num">${n(e.partitions)}</td><td class="num">${n(e.products)}</td><td class="num">${n(e.rows)}</td><td class="small">${e.triggers ? "follows" : html`<span class="muted">prod only</span>`}</td>
              <td class="small">${formatInstant(e.created_at, zone)}${e.created_by ? ` by ${e.created_by}` : ""}</td>
              <td>${currentEnv() === e.name ? html`<span class="muted">this tab</span>` : html`<button class="link" data-testid="env-use" @click=${() => app.switchEnv(e.name)}>switch to ${e.name}</button>`}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </main>`;
  }
}

/** A partition the promote refused: prod rewrote it, or (input set) an upstream its version read moved. */
type Conflict = {
  product: string;
  partition: string;
  current: number;
  want: number;
  expected: number;
  input?: string;
  input_partition?: string;
  input_read?: number;
  input_current?: number;
  input_promoted?: boolean;
  inputs_moved?: number;
  input_gone?: boolean;
};

/** Why a partition conflicts, in words. */
function conflictReason(c: Conflict): string {
  if (!c.input) return "prod rewrote it";
  const now = c.input_promoted ? `this promote makes v${c.input_current}` : c.input_current ? `prod now v${c.input_current}` : "prod now none";
  const more = (c.inputs_moved ?? 1) > 1 ? ` (+${(c.inputs_moved ?? 1) - 1} more)` : "";
  // The version its own run wrote of the input, since replaced and dropped by retention.
  const read = c.input_gone ? "its run's version (since dropped)" : `v${c.input_read}`;
  return `read ${c.input} ${c.input_partition} ${read}, ${now}${more}`;
}

export class EnvPage implements Page {
  title: string;
  diff?: EnvDiff;
  error = "";
  product = ""; // pipeline/product selected
  rows?: PartitionDiff;
  rowsError = "";
  partition = "";
  confirm?: "promote" | "discard" | "rollback";
  /** The environment itself: its latest promote, which Roll back undoes. */
  env?: EnvSummary;
  override = false;
  busy = false;
  done = "";
  conflicts?: Conflict[];

  constructor(readonly name: string) {
    this.title = `Environment ${name}`;
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      [this.diff, this.env] = await Promise.all([envApi.diff(this.name), envApi.get(this.name)]);
      this.error = "";
      const all = this.products();
      if (!all.some((p) => p.product === this.product)) this.product = (all.find((p) => p.changed + p.new > 0) ?? all[0])?.product ?? "";
    } catch (e) {
      this.error = errorText(e);
    }
    app.update();
  }

  private products(): ProductReview[] {
    return this.diff?.pipelines.flatMap((p) => p.products) ?? [];
  }

  private async openRows(partition: string): Promise<void> {
    this.partition = partition;
    this.rows = undefined;
    this.rowsError = "";
    app.update();
    try {
      this.rows = await envApi.rows(this.name, this.product, partition);
    } catch (e) {
      this.rowsError = errorText(e);
    }
    app.update();
  }

  private async act(kind: "promote" | "discard" | "rollback"): Promise<void> {
    this.busy = true;
    this.conflicts = undefined;
    app.update();
    try {
      if (kind === "promote") {
        const r = await envApi.promote(this.name, this.override);
        this.done = `Promoted: ${Object.entries(r.partitions)
          .map(([p, k]) => `${p} ${n(k)} partitions`)
          .join(", ")} are prod's now (one transaction).`;
      } else if (kind === "rollback") {
        const r = await envApi.rollback(this.name);
        this.done = `Rolled back promote ${r.batch}: ${n(r.rolled_back)} partitions are back to what prod held before it (one transaction).`;
      } else {
        const r = await envApi.discard(this.name);
        this.done = `Discarded ${this.name} and its ${n(r.discarded_versions)} versions; prod is unchanged.`;
        await loadEnvs();
        if (currentEnv() === this.name) app.switchEnv("");
      }
      this.error = "";
    } catch (e) {
      this.error = errorText(e);
      if (e instanceof ApiError && e.code === "review_conflict") this.conflicts = (e.details as { conflicts: Conflict[] }).conflicts;
    }
    this.busy = false;
    this.confirm = undefined;
    if (kind !== "discard") {
      // The diff as it is now, keeping what the promote or rollback answered.
      const refused = this.error;
      await this.load();
      this.error ||= refused;
    }
    app.update();
  }

  render(): TemplateResult {
    const d = this.diff;
    const sel = this.products().find((p) => p.product === this.product);
    return html`<main class="page" data-testid="env-page">
      <h1>Environment <span class="mono">${this.name}</span> <span class="muted small">against prod</span></h1>
      ${currentEnv() !== this.name ? html`<p><button data-testid="env-use" @click=${() => app.switchEnv(this.name)}>Work in ${this.name} in this tab</button></p>` : nothing}
      ${this.done ? html`<div class="notice" data-testid="env-done">${this.done}</div>` : nothing}
      ${this.error ? html`<div class="error-box" data-testid="env-error">${this.error}</div>` : nothing}
      ${this.conflicts
        ? html`<table class="small" data-testid="env-conflicts"><thead><tr><th>product</th><th>partition</th><th>prod now</th><th>built against</th><th>why</th></tr></thead>
            <tbody>${this.conflicts
              .slice(0, 50)
              .map(
                (c) =>
                  html`<tr><td>${c.product}</td><td class="mono">${c.partition}</td><td>v${c.current}</td><td>${c.expected > 0 ? `v${c.expected}` : "none"}</td><td class="small">${conflictReason(c)}</td></tr>`,
              )}</tbody></table>
            <p class="small">Rebuild those partitions in ${this.name} (a run or backfill with this environment selected), then promote again; or discard ${this.name}.</p>`
        : nothing}
      ${!d
        ? this.error
          ? nothing
          : html`<p class="muted">Diffing ${this.name} against prod…</p>`
        : html`<p class="muted small" data-testid="env-summary">${n(d.partitions)} partitions differ from prod · computed in ${d.elapsed_ms.toFixed(0)} ms</p>
            ${d.pipelines.map(
              (pl) => html`<h2>Pipeline ${pl.pipeline || html`<span class="muted">(no pipeline writes these now)</span>`}</h2>
                <table class="data" data-testid="env-diff">
                  <thead><tr><th>product</th><th class="num">changed</th><th class="num">unchanged</th><th class="num">new</th><th class="num">rows prod → ${this.name}</th><th class="num">rows changed / added / removed</th><th>columns that changed</th></tr></thead>
                  <tbody>
                    ${pl.products.map(
                      (p) => html`<tr class=${p.product === this.product ? "selected" : ""} data-product=${p.product} @click=${() => ((this.product = p.product), (this.partition = ""), app.update())}>
                        <td class="mono"><a href="#" @click=${(e: Event) => e.preventDefault()}>${p.product}</a></td>
                        <td class="num">${n(p.changed)}</td><td class="num">${n(p.unchanged)}</td><td class="num">${n(p.new)}</td>
                        <td class="num">${n(p.rows_before)} → ${n(p.rows_after)}</td>
                        <td class="num">${n(p.counts.changed)} / ${n(p.counts.added)} / ${n(p.counts.removed)}</td>
                        <td class="small">${columnLine(p)}${p.newer.length ? html`<div class="error-text">prod changed ${n(p.newer.length)} of these partitions since: a promote is refused there</div>` : nothing}</td>
                      </tr>`,
                    )}
                  </tbody>
                </table>
                ${pl.gates.length
                  ? html`<ul class="gates" data-testid="env-gates">${pl.gates.map((g) => html`<li class=${g.passed ? "pass" : "fail"}><b>${g.passed ? "✓" : "✗"} ${g.name}</b> ${g.detail}</li>`)}</ul>`
                  : nothing}`,
            )}
            ${this.env?.last_promote
              ? html`<p class="small" data-testid="env-last-promote">
                  Last promote <span class="mono">${this.env.last_promote.batch}</span> at ${formatInstant(this.env.last_promote.at, app.zone())}: ${n(this.env.last_promote.partitions)} partitions made prod's.
                  <button data-testid="env-rollback" ?disabled=${this.busy} @click=${() => ((this.confirm = "rollback"), app.update())}>Roll back this promote</button>
                </p>`
              : nothing}
            <div class="review-actions">
              <button class="primary" data-testid="env-promote" ?disabled=${this.busy || d.partitions === 0} @click=${() => ((this.confirm = "promote"), app.update())}>Promote to prod</button>
              <button class="danger" data-testid="env-discard" ?disabled=${this.busy} @click=${() => ((this.confirm = "discard"), app.update())}>Discard ${this.name}</button>
              ${!d.gates_passed ? html`<label class="small"><input type="checkbox" data-testid="env-override" .checked=${this.override} @change=${(e: Event) => (this.override = (e.target as HTMLInputElement).checked)} /> promote although checks failed (recorded)</label>` : nothing}
            </div>
            ${this.confirm
              ? html`<div class="confirm" data-testid="env-confirm">
                  <p>${this.confirm === "promote"
                    ? `Make all ${n(d.partitions)} of ${this.name}'s partitions prod's, in one transaction? If prod changed any of them since ${this.name} built it, nothing is promoted.`
                    : this.confirm === "rollback"
                      ? `Put back, in one transaction, what prod held before promote ${this.env?.last_promote?.batch ?? ""}? If prod changed any of those partitions since, nothing is rolled back.`
                      : `Drop ${this.name} and the versions it built? Prod is unchanged.`}</p>
                  <button class="primary" data-testid="env-confirm-yes" ?disabled=${this.busy} @click=${() => void this.act(this.confirm!)}>${this.busy ? "Working…" : "Confirm"}</button>
                  <button class="link" @click=${() => ((this.confirm = undefined), app.update())}>cancel</button>
                </div>`
              : nothing}
            ${sel ? this.partitionsView(sel) : nothing}
            ${this.partition ? this.rowsView() : nothing}`}
    </main>`;
  }

  private partitionsView(p: ProductReview): TemplateResult {
    const differ = p.partitions.filter((x) => x.status !== "unchanged");
    return html`<h3>Partitions of <span class="mono">${p.product}</span> that differ (${n(differ.length)})</h3>
      <p class="muted small">click one for its row diff against prod</p>
      <div class="env-partitions" data-testid="env-partitions">
        ${differ.slice(0, 400).map(
          (x) => html`<button class=${"link mono small " + (x.partition === this.partition ? "selected" : "")} data-partition=${x.partition} @click=${() => void this.openRows(x.partition)}>
            ${x.partition} <span class="muted">${x.status === "new" ? "new" : `${n(x.counts.changed + x.counts.added + x.counts.removed)} rows`}</span></button>`,
        )}
      </div>`;
  }

  private rowsView(): TemplateResult {
    const d = this.rows;
    if (this.rowsError) return html`<div class="error-box">${this.rowsError}</div>`;
    if (!d) return html`<p class="muted">Diffing ${this.partition}…</p>`;
    const zone = app.zone();
    const cell = (v: unknown) => (v === null || v === undefined ? html`<span class="muted">NULL</span>` : formatDiffValue(v, zone));
    return html`<section class="row-diff" data-testid="env-row-diff">
      <h3><span class="mono">${d.product}</span> · ${d.partition}: prod ${d.from_version ? `v${d.from_version}` : "nothing"} → ${this.name} v${d.to_version}</h3>
      <p>${d.unchanged ? "unchanged" : `${n(d.counts.changed)} changed, ${n(d.counts.added)} added, ${n(d.counts.removed)} removed`} · rows ${n(d.rows_before)} → ${n(d.rows_after)} · ${d.keys.length ? `key ${d.keys.join(", ")}` : "whole rows"}</p>
      ${d.rows.length
        ? html`<div class="table-scroll"><table class="data diff-table">
            <thead><tr><th></th>${d.row_columns.map((c) => html`<th>${c}</th>`)}</tr></thead>
            <tbody>
              ${d.rows.map(
                (r) => html`${r.old ? html`<tr class="old ${r.kind}"><td class="small">− prod</td>${r.old.map((v) => html`<td>${cell(v)}</td>`)}</tr>` : nothing}
                  ${r.new ? html`<tr class="new ${r.kind}"><td class="small">+ ${this.name}</td>${r.new.map((v) => html`<td>${cell(v)}</td>`)}</tr>` : nothing}`,
              )}
            </tbody>
          </table></div>`
        : nothing}
    </section>`;
  }
}

/** The columns whose statistics changed, with their sums (prod → env). */
function columnLine(p: ProductReview): TemplateResult | string {
  const changed = p.columns.filter((c) => c.changed && c.before && c.after);
  if (!changed.length) return html`<span class="muted">none</span>`;
  return html`${changed.slice(0, 4).map(
    (c) =>
      html`<div><span class="mono">${c.name}</span>${c.before!.sum !== undefined && c.after!.sum !== undefined
          ? ` sum ${c.before!.sum.toLocaleString("en-US", { maximumFractionDigits: 2 })} → ${c.after!.sum.toLocaleString("en-US", { maximumFractionDigits: 2 })}`
          : ` distinct ${n(c.before!.distinct)} → ${n(c.after!.distinct)}`}</div>`,
  )}`;
}
