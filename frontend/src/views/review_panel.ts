// The review tab of a backfill published for review: per product what the
// staged versions would change (partitions changed / unchanged / new, rows
// before → after, rows changed / added / removed, schema changes), the
// review checks (gates), a heat map of rows changed per partition on the
// calendar, a partition's row diff (old and new side by side, keyed by the
// product's key columns), and Promote / Promote part / Discard / Roll back,
// each behind a confirmation that says exactly what becomes current.

import { html, nothing, type TemplateResult } from "lit-html";
import { api, ApiError, errorText } from "../api";
import type { BackfillReview, PartitionChange, PartitionDiff, ProductReview, PromoteResult } from "../types";
import { CalendarCanvas, dayKey, keyDays } from "./calendar_canvas";
import { formatDiffValue } from "./table";
import { columnRows, type StatCell } from "../review_columns";

type Action = { kind: "promote" | "promote-part" | "discard" | "rollback"; text: string; only?: string; skipNewer?: boolean };

/** A promote or rollback refused by newer versions (409 review_conflict), with the partitions. */
type ReviewConflict = { op: string; conflicts: { product: string; partition: string; current: number; want: number }[]; only?: string };

const n = (x: number) => x.toLocaleString("en-US");

/** The pipeline-zone day (YYYY-MM-DD) of an instant. */
function zoneDay(iso: string, zone: string): string {
  try {
    return new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date(iso));
  } catch {
    return iso.slice(0, 10);
  }
}

/** Heat: how much of a partition changed, from pale to deep red; new partitions blue. */
function heat(p: PartitionChange): string {
  if (p.status === "unchanged") return "#cfe9da";
  if (p.status === "new") return "#7aa7e8";
  const frac = Math.min(1, (p.counts.changed + p.counts.added + p.counts.removed) / Math.max(1, p.rows_before, p.rows_after));
  const l = 88 - Math.round(frac * 50);
  return `hsl(8, 80%, ${l}%)`;
}

export class ReviewPanel {
  review?: BackfillReview;
  error = "";
  product = "";
  diff?: PartitionDiff;
  diffError = "";
  partition = "";
  private diffSeq = 0; // the row diff request whose answer is shown
  part = ""; // the Promote part range
  override = false;
  confirm?: Action;
  busy = false;
  conflict?: ReviewConflict; // the last refused promote or rollback, until the next action
  readonly heatmap = new CalendarCanvas("review-heatmap", false);
  private days = new Map<string, PartitionChange>(); // day -> partition of the selected product

  constructor(
    readonly id: string,
    private zone: () => string,
    private update: () => void,
    private changed: () => void, // the backfill's state moved on
    pushed?: BackfillReview, // a review the websocket brought (no request then)
  ) {
    this.heatmap.color = (k) => {
      const p = this.days.get(k);
      return p ? heat(p) : undefined;
    };
    this.heatmap.onPick = (k) => {
      const p = this.days.get(k);
      if (p) void this.openDiff(p.partition);
    };
    if (pushed) this.apply(pushed);
    else void this.load();
  }

  async load(): Promise<void> {
    try {
      this.show(await api.review(this.id));
    } catch (e) {
      this.error = errorText(e);
    }
    this.update();
  }

  /** Shows a review pushed over the websocket: the page follows promotes, discards and rollbacks made anywhere. */
  apply(rv: BackfillReview): void {
    // A confirmation of something no longer possible (promoted or
    // discarded meanwhile) would act on a stale review.
    if (this.confirm && !this.busy && (rv.staged === 0 || rv.backfill.state !== "review") && this.confirm.kind !== "rollback") this.confirm = undefined;
    // Nothing staged any more: the open row diff compared versions that are
    // gone or current now.
    if (rv.staged === 0 || rv.backfill.state !== "review") this.closeDiff();
    this.show(rv);
    this.heatmap.draw();
    this.update();
  }

  private show(rv: BackfillReview): void {
    this.review = rv;
    this.error = "";
    const prods = rv.products;
    if (!prods.some((p) => p.product === this.product)) this.product = (prods.find((p) => p.changed + p.new > 0) ?? prods[0])?.product ?? "";
    this.layout();
  }

  private selected(): ProductReview | undefined {
    return this.review?.products.find((p) => p.product === this.product);
  }

  /** Maps the selected product's partitions onto calendar days. */
  private layout(): void {
    this.days.clear();
    const pr = this.selected();
    if (!pr || !pr.partitions.length) return;
    const zone = this.zone();
    let lo = Infinity;
    let hi = -Infinity;
    const sorted = [...pr.partitions].sort((a, b) => a.start.localeCompare(b.start));
    sorted.forEach((p, i) => {
      const first = keyDays(zoneDay(p.start, zone));
      if (first === null) return;
      // A partition covers the days up to the next one's start (weeks: 7).
      const next = sorted[i + 1] ? keyDays(zoneDay(sorted[i + 1].start, zone)) : null;
      const last = next !== null && next > first && next - first <= 366 ? next - 1 : first;
      for (let d = first; d <= last; d++) this.days.set(dayKey(d), p);
      lo = Math.min(lo, first);
      hi = Math.max(hi, last);
    });
    if (lo <= hi) this.heatmap.setRange(dayKey(lo), dayKey(hi));
  }

  /** Closes the row diff, and makes a request still on its way land nowhere. */
  private closeDiff(): void {
    this.partition = "";
    this.diff = undefined;
    this.diffError = "";
    this.diffSeq++;
  }

  async openDiff(partition: string): Promise<void> {
    const seq = ++this.diffSeq;
    this.partition = partition;
    this.diff = undefined;
    this.diffError = "";
    this.update();
    try {
      const d = await api.reviewDiff(this.id, this.product, partition, 50);
      if (seq === this.diffSeq) this.diff = d;
    } catch (e) {
      if (seq === this.diffSeq) this.diffError = errorText(e);
    }
    this.update();
  }

  /**
   * What a promote of the range (all when empty) makes current, per
   * product: from the server's dry run of that promote (the same selection
   * it applies, weekly rollups staged in the range included), so the
   * confirmation lists exactly what Confirm switches.
   */
  private promoteText(plan: PromoteResult): string {
    const rv = this.review!;
    const rows = new Map(rv.products.map((pr) => [pr.product, new Map(pr.partitions.map((p) => [p.partition, p.rows_after]))]));
    const order = [...rv.products.map((pr) => pr.product), ...Object.keys(plan.plan ?? {}).sort()];
    const lines = [...new Set(order)]
      .filter((product) => plan.plan?.[product]?.length)
      .map((product) => {
        const keys = plan.plan![product];
        const r = rows.get(product);
        const total = keys.reduce((s, k) => s + (r?.get(k) ?? 0), 0);
        return `${product}: ${n(keys.length)} ${keys.length === 1 ? "partition" : "partitions"} (${keys[0]} … ${keys[keys.length - 1]}), ${n(total)} rows`;
      });
    let t = `Make ${n(plan.versions)} staged versions current in one transaction:\n` + lines.join("\n");
    if (plan.remaining) t += `\n${n(plan.remaining)} versions stay staged for review.`;
    if (!rv.gates_passed) t += `\nReview checks failed (${rv.gates.filter((g) => !g.passed).map((g) => g.name).join(", ")}): the override is recorded.`;
    return t;
  }

  /** Opens a promote's confirmation from its dry run; a range with nothing staged says so here. */
  private async askPromote(kind: "promote" | "promote-part"): Promise<void> {
    const only = kind === "promote-part" ? this.part : undefined;
    this.busy = true;
    this.error = "";
    this.conflict = undefined;
    this.update();
    try {
      const plan = await api.promotePlan(this.id, only);
      this.confirm = { kind, only, text: this.promoteText(plan) };
    } catch (e) {
      this.confirm = undefined;
      this.error = errorText(e);
    } finally {
      this.busy = false;
      this.update();
    }
    this.focusConfirm();
  }

  /** Keyboard: the opened confirmation's Confirm has the focus (Tab from Promote part led to Discard). */
  private focusConfirm(): void {
    if (this.confirm) requestAnimationFrame(() => document.querySelector<HTMLButtonElement>('[data-testid="review-confirm-yes"]')?.focus());
  }

  private ask(kind: Action["kind"]): void {
    const rv = this.review!;
    if (kind === "promote" || kind === "promote-part") return void this.askPromote(kind);
    if (kind === "discard") this.confirm = { kind, text: `Discard ${n(rv.staged)} staged versions. Nothing becomes current; what is current stays.` };
    if (kind === "rollback") {
      const v = rv.promotions.reduce((s, p) => s + p.versions, 0);
      this.confirm = { kind, text: `Switch the ${n(v)} partitions this backfill made current back to the versions current before it, in one transaction (refused if any has a newer version since).` };
    }
    this.update();
    this.focusConfirm();
  }

  private async act(a: Action): Promise<void> {
    this.busy = true;
    this.error = "";
    this.update();
    try {
      this.conflict = undefined;
      if (a.kind === "promote" || a.kind === "promote-part") await api.promote(this.id, { only: a.only, override: this.override, skip_newer: a.skipNewer });
      if (a.kind === "discard") await api.discard(this.id);
      if (a.kind === "rollback") await api.rollbackBackfill(this.id);
      this.confirm = undefined;
      // The diff was of staged versions that this action made current or
      // threw away: clearing only the diff left "Diffing…" forever.
      this.closeDiff();
      this.changed();
      await this.load();
    } catch (e) {
      // Newer versions in the way: not a running backfill's publish
      // conflict (promote-anyway / keep-newer), but this review's own.
      if (e instanceof ApiError && e.code === "review_conflict") {
        this.conflict = { ...(e.details as ReviewConflict), only: a.only };
        this.confirm = undefined;
        this.error = "";
      } else this.error = errorText(e);
    } finally {
      this.busy = false;
      this.update();
    }
  }

  render(): TemplateResult {
    const rv = this.review;
    if (!rv) return html`<section class="review" data-testid="review">${this.error ? html`<div class="error-box">${this.error}</div>` : html`<p class="muted">Computing the review…</p>`}</section>`;
    const pr = this.selected();
    const staged = rv.staged > 0 && rv.backfill.state === "review";
    return html`<section class="review" data-testid="review">
      <p class="muted small" data-testid="review-staged">${n(rv.staged)} versions staged · ${rv.backfill.state} · computed in ${rv.elapsed_ms.toFixed(0)} ms</p>
      ${this.error ? html`<div class="error-box" data-testid="review-error">${this.error}</div>` : nothing}
      <table class="data" data-testid="review-summary">
        <thead><tr><th>product</th><th class="num">changed</th><th class="num">unchanged</th><th class="num">new</th><th class="num">rows before → after</th><th class="num">rows changed / added / removed</th><th>key</th><th>schema</th></tr></thead>
        <tbody>
          ${rv.products.map(
            (p) => html`<tr class=${p.product === this.product ? "selected" : ""} @click=${() => ((this.product = p.product), this.layout(), this.heatmap.draw(), this.update())}>
              <td class="mono"><a href="#" @click=${(e: Event) => e.preventDefault()}>${p.product}</a></td>
              <td class="num">${n(p.changed)}</td><td class="num">${n(p.unchanged)}</td><td class="num">${n(p.new)}</td>
              <td class="num">${n(p.rows_before)} → ${n(p.rows_after)}</td>
              <td class="num">${n(p.counts.changed)} / ${n(p.counts.added)} / ${n(p.counts.removed)}</td>
              <td class="mono small">${p.keys.length ? p.keys.join(", ") : html`<span class="muted">whole rows</span>`}</td>
              <td class="small">${[...p.schema.added.map((c) => `+${c.name}`), ...p.schema.removed.map((c) => `−${c.name}`), ...p.schema.retyped.map((c) => `${c.name}: ${c.from}→${c.to}`)].join(" ") || html`<span class="muted">same</span>`}
                ${p.newer.length ? html`<div class="error-text">${n(p.newer.length)} partitions have a newer version: promote is refused there</div>` : nothing}</td>
            </tr>`,
          )}
        </tbody>
      </table>
      ${rv.gates.length
        ? html`<ul class="gates" data-testid="review-gates">
            ${rv.gates.map((g) => html`<li class=${g.passed ? "pass" : "fail"}><b>${g.passed ? "✓" : "✗"} ${g.name}</b> ${g.detail}${g.failures?.length ? html`<ul>${g.failures.map((f) => html`<li class="mono small">${f}</li>`)}</ul>` : nothing}</li>`)}
          </ul>`
        : html`<p class="muted small">No review checks in the pipeline file (checks:).</p>`}
      ${rv.promotions.length
        ? html`<p class="small" data-testid="review-promotions">${rv.promotions.map((p) => html`promoted ${n(p.versions)} versions${p.only ? ` (${p.only})` : ""}${p.by ? ` by ${p.by}` : ""}${p.overridden?.length ? html`, <b>overriding ${p.overridden.join(", ")}</b>` : nothing}. `)}</p>`
        : nothing}
      <div class="review-actions">
        ${staged
          ? html`<button class="primary" data-testid="review-promote" ?disabled=${this.busy} @click=${() => this.ask("promote")}>Promote</button>
              <input data-testid="review-part" size="24" placeholder="2024-01-01..2024-12-31" .value=${this.part} aria-label="partitions to promote (from..to)"
                @input=${(e: Event) => ((this.part = (e.target as HTMLInputElement).value.trim()), this.update())}
                @keydown=${(e: KeyboardEvent) => e.key === "Enter" && this.part && !this.busy && this.ask("promote-part")} />
              <button data-testid="review-promote-part" ?disabled=${this.busy || !this.part} @click=${() => this.ask("promote-part")}>Promote part</button>
              <button class="danger" data-testid="review-discard" ?disabled=${this.busy} @click=${() => this.ask("discard")}>Discard</button>
              ${!rv.gates_passed ? html`<label class="small"><input type="checkbox" data-testid="review-override" .checked=${this.override} @change=${(e: Event) => (this.override = (e.target as HTMLInputElement).checked)} /> promote although checks failed (recorded)</label>` : nothing}`
          : nothing}
        ${rv.promotions.length && rv.backfill.state !== "rolled_back" ? html`<button data-testid="review-rollback" ?disabled=${this.busy} @click=${() => this.ask("rollback")}>Roll back</button>` : nothing}
      </div>
      ${this.conflict ? this.conflictView(this.conflict) : nothing}
      ${this.confirm
        ? html`<div class="confirm" data-testid="review-confirm">
            <pre>${this.confirm.text}</pre>
            <button class="primary" data-testid="review-confirm-yes" ?disabled=${this.busy} @click=${() => this.act(this.confirm!)}>${this.busy ? "Working…" : "Confirm"}</button>
            <button class="link" @click=${() => ((this.confirm = undefined), this.update())}>cancel</button>
          </div>`
        : nothing}
      ${pr?.columns?.length ? this.columnsView(pr) : nothing}
      ${pr
        ? html`<h3>Rows changed per partition · <span class="mono">${pr.product}</span></h3>
            <p class="muted small">darker: more of the partition's rows changed · green: unchanged · blue: new · click a day for its row diff</p>
            ${this.heatmap.el}`
        : nothing}
      ${this.partition ? this.diffView() : nothing}
    </section>`;
  }

  /** Each column before → after over the partitions that differ (the API's per-column statistics). */
  private columnsView(p: ProductReview): TemplateResult {
    const rows = columnRows(p.columns);
    const stat = (c: StatCell | undefined) =>
      c ? html`<td class=${"num" + (c.moved ? " moved" : "")}>${c.text}${c.delta ? html` <span class="delta">${c.delta}</span>` : nothing}</td>` : html`<td></td>`;
    return html`<h3>Columns · <span class="mono">${p.product}</span> <span class="muted small">before → after, over the ${n(p.changed + p.new)} partitions that differ</span></h3>
      <div class="table-scroll"><table class="data review-columns" data-testid="review-columns">
        <thead><tr><th>column</th><th>type</th><th class="num">nulls</th><th class="num">distinct</th><th class="num">min</th><th class="num">max</th><th class="num">mean</th><th class="num">total</th></tr></thead>
        <tbody>
          ${rows.map(
            (r) => html`<tr class=${r.changed ? "changed" : ""} data-col=${r.name}>
              <td class="mono">${r.name}${r.side !== "both" ? html` <span class="tag">${r.side}</span>` : nothing}${r.changed ? html` <span class="tag dirty">changed</span>` : nothing}</td>
              <td class="small muted">${r.type}</td>
              ${stat(r.nulls)}${stat(r.distinct)}${stat(r.min)}${stat(r.max)}${stat(r.mean)}${stat(r.total)}
            </tr>`,
          )}
        </tbody>
      </table></div>`;
  }

  /** A refused promote or rollback: the partitions with newer versions, and what resolves it. */
  private conflictView(c: ReviewConflict): TemplateResult {
    const promote = c.op === "promote";
    return html`<section class="error-box" data-testid="review-conflict">
      <p><b>${promote ? "Promote" : "Roll back"} refused, nothing was switched:</b> ${n(c.conflicts.length)} partition(s) have ${promote ? "a version current that the staged one was not planned against (newer work)" : "newer versions current since the promote"}.</p>
      <table class="small"><thead><tr><th>product</th><th>partition</th><th>current</th><th>${promote ? "staged" : "would restore"}</th></tr></thead>
        <tbody>${c.conflicts.slice(0, 20).map((x) => html`<tr><td>${x.product}</td><td class="mono">${x.partition}</td><td>v${x.current}</td><td>v${x.want}</td></tr>`)}</tbody>
      </table>
      ${promote
        ? html`<p class="small">Promote the rest: those partitions keep the newer versions and their staged ones stay staged (discard them after), or discard the backfill and run a new review over the newer data.</p>
            <button data-testid="review-promote-skip-newer" ?disabled=${this.busy} @click=${() => this.act({ kind: "promote", text: "", skipNewer: true, only: c.only })}>Promote the rest, keep the newer versions</button>`
        : html`<p class="small">Keep the newer versions, or roll the listed partitions back one by one from the product page.</p>`}
    </section>`;
  }

  private diffView(): TemplateResult {
    const d = this.diff;
    if (this.diffError) return html`<div class="error-box">${this.diffError}</div>`;
    if (!d) return html`<p class="muted">Diffing ${this.partition}…</p>`;
    const zone = this.zone();
    const cell = (v: unknown) => (v === null || v === undefined ? html`<span class="muted">NULL</span>` : formatDiffValue(v, zone));
    return html`<section class="row-diff" data-testid="row-diff">
      <h3><span class="mono">${d.product}</span> · ${d.partition}: ${d.from_version ? `v${d.from_version}` : "nothing"} → v${d.to_version} <span class="muted small" data-testid="row-diff-zone">times in ${zone}</span></h3>
      <p data-testid="row-diff-counts">${d.unchanged ? "unchanged" : `${n(d.counts.changed)} changed, ${n(d.counts.added)} added, ${n(d.counts.removed)} removed`} · rows ${n(d.rows_before)} → ${n(d.rows_after)} · ${d.keys.length ? `key ${d.keys.join(", ")}` : "whole rows"}${d.key_note ? ` · ${d.key_note}` : ""}</p>
      ${d.rows.length
        ? html`<div class="table-scroll"><table class="data diff-table">
            <thead><tr><th></th>${d.row_columns.map((c) => html`<th>${c}</th>`)}</tr></thead>
            <tbody>
              ${d.rows.map(
                (r) => html`${r.old ? html`<tr class="old ${r.kind}"><td class="small">− ${r.kind}</td>${r.old.map((v, i) => html`<td class=${r.new && String(r.new[i]) !== String(v) ? "differs" : ""}>${cell(v)}</td>`)}</tr>` : nothing}
                  ${r.new ? html`<tr class="new ${r.kind}"><td class="small">+ ${r.kind}</td>${r.new.map((v, i) => html`<td class=${r.old && String(r.old[i]) !== String(v) ? "differs" : ""}>${cell(v)}</td>`)}</tr>` : nothing}`,
              )}
            </tbody>
          </table></div>`
        : nothing}
    </section>`;
  }
}
