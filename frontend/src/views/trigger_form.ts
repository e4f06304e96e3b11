// The trigger form of the pipeline page: a schedule (cron, with its next
// ticks read in the zone as it is typed), an upstream event (new versions
// of a product, or new keys of a dynamic dimension) or API calls only, with
// catch-up. The pipeline file stays the source of truth: a save
// is an edit of its `triggers:` list by the server, sent with the file's
// ETag; a file changed elsewhere since is shown as the YAML cell shows it
// (reload from disk, or save over it).

import { html, nothing, type TemplateResult } from "lit-html";
import { live } from "lit-html/directives/live.js";
import { ApiError, call, enc, errorText } from "../api";
import { zoneList } from "../time";
import type { DimConfig, PipelineView } from "../types";
import type { TriggerStatus } from "./trigger_panel";

export type TriggerKind = "schedule" | "event" | "api";

/** The form's fields, as typed. */
export interface TriggerFields {
  id: string;
  kind: TriggerKind;
  cron: string;
  timezone: string;
  product: string;
  /** An event's: "new-key" for keys added to a dynamic dimension's product; "" for new versions. */
  changes: string;
  run: string;
  catchUp: string;
}

/** The body of POST/PUT /pipelines/:id/triggers. */
export interface TriggerBody {
  id: string;
  kind: TriggerKind;
  cron?: string;
  timezone?: string;
  product?: string;
  changes?: string;
  run?: string;
  catch_up?: number;
}

export interface SchedulePreview {
  cron: string;
  timezone: string;
  words: string;
  next: { at: string; local: string; in: string }[];
}

const formApi = {
  preview: (cron: string, timezone: string) => call<SchedulePreview>("GET", `/triggers/schedule-preview?cron=${enc(cron)}&timezone=${enc(timezone)}&n=5`),
  save: (pipeline: string, old: string, body: TriggerBody, etag: string) =>
    old
      ? call<PipelineView>("PUT", `/pipelines/${enc(pipeline)}/triggers/${enc(old)}`, body, etag ? { "If-Match": etag } : {})
      : call<PipelineView>("POST", `/pipelines/${enc(pipeline)}/triggers`, body, etag ? { "If-Match": etag } : {}),
  remove: (pipeline: string, id: string, etag: string) => call<PipelineView>("DELETE", `/pipelines/${enc(pipeline)}/triggers/${enc(id)}`, undefined, etag ? { "If-Match": etag } : {}),
};

/** The fields of a new trigger, or of an existing one as the server reads it. */
export function fieldsOf(t: TriggerStatus | undefined, pipelineZone: string): TriggerFields {
  if (!t) return { id: "", kind: "schedule", cron: "30 2 * * *", timezone: pipelineZone, product: "", changes: "", run: "", catchUp: "1" };
  return {
    id: t.id,
    kind: t.kind,
    cron: t.cron ?? "",
    timezone: t.timezone ?? pipelineZone,
    product: t.product ?? "",
    changes: t.changes === "new-key" ? "new-key" : "",
    run: t.run ?? "",
    catchUp: String(t.catch_up ?? 1),
  };
}

/**
 * The request body of the fields: only what the kind uses. The zone is left
 * out when it is the pipeline's (the file's default), as is a catch-up of 1
 * (the default: the most recent missed tick runs).
 */
export function bodyOf(f: TriggerFields, pipelineZone: string): TriggerBody | string {
  const id = f.id.trim();
  if (!/^[a-z][a-z0-9_-]*$/.test(id)) return "id: lowercase letters, digits, _ and -, starting with a letter";
  const b: TriggerBody = { id, kind: f.kind };
  if (f.run.trim()) b.run = f.run.trim();
  switch (f.kind) {
    case "schedule": {
      if (!f.cron.trim()) return "cron: five fields such as 30 2 * * *";
      b.cron = f.cron.trim();
      if (f.timezone.trim() && f.timezone.trim() !== pipelineZone) b.timezone = f.timezone.trim();
      const n = Number(f.catchUp);
      if (!Number.isInteger(n) || n < 1) return "catch-up: a whole number of ticks, at least 1";
      if (n > 1) b.catch_up = n;
      break;
    }
    case "event":
      if (!f.product.trim()) return "product: the product whose new versions fire this trigger";
      b.product = f.product.trim();
      if (f.changes === "new-key") b.changes = "new-key";
      break;
  }
  return b;
}

/** The pipeline's dynamic dimensions: a new-key trigger follows the product of one. */
export function dynamicDims(pl: PipelineView | undefined): DimConfig[] {
  return (pl?.partitions.dims ?? []).filter((d) => d.kind === "dynamic" && d.product);
}

export interface TriggerFormHost {
  pipeline: () => PipelineView | undefined;
  /** The file was written: re-read the pipeline (and the triggers). */
  saved: () => void;
  update: () => void;
}

/** One open trigger form (a new trigger, or editing one). */
export class TriggerForm {
  fields: TriggerFields;
  preview?: SchedulePreview;
  previewError = "";
  error = "";
  busy = false;
  /** The file changed since the form was filled: its text on disk now. */
  conflict?: { theirs: string; etag: string };
  confirmDelete = false;
  private etag: string;
  private previewSeq = 0;
  private previewTimer?: ReturnType<typeof setTimeout>;
  products: string[] = [];

  constructor(
    /** The trigger edited; "" for a new one. */
    readonly old: string,
    t: TriggerStatus | undefined,
    private readonly host: TriggerFormHost,
  ) {
    const pl = host.pipeline();
    this.fields = fieldsOf(t, this.zone());
    this.etag = pl?.etag ?? "";
    this.previewSoon(0);
    void call<{ products: { name: string }[] }>("GET", "/products")
      .then((r) => {
        this.products = r.products.map((p) => p.name);
        host.update();
      })
      .catch(() => {});
  }

  private zone(): string {
    return this.host.pipeline()?.partitions.timezone || "UTC";
  }

  private set(k: keyof TriggerFields, v: string): void {
    this.fields = { ...this.fields, [k]: v } as TriggerFields;
    if (k === "cron" || k === "timezone" || k === "kind") this.previewSoon(300);
    this.host.update();
  }

  /** Sets the kind; a new-key trigger also names its dimension's product. */
  private setKind(kind: TriggerKind, changes: string, product?: string): void {
    this.fields = { ...this.fields, kind, changes, product: product ?? (this.fields.changes === "new-key" ? "" : this.fields.product) };
    this.previewSoon(300);
    this.host.update();
  }

  private previewSoon(ms: number): void {
    clearTimeout(this.previewTimer);
    this.previewTimer = setTimeout(() => void this.loadPreview(), ms);
  }

  private async loadPreview(): Promise<void> {
    if (this.fields.kind !== "schedule") return;
    const n = ++this.previewSeq;
    try {
      const p = await formApi.preview(this.fields.cron, this.fields.timezone || this.zone());
      if (n !== this.previewSeq) return;
      this.preview = p;
      this.previewError = "";
    } catch (e) {
      if (n !== this.previewSeq) return;
      this.preview = undefined;
      this.previewError = errorText(e);
    }
    this.host.update();
  }

  async save(overwrite = false): Promise<void> {
    const body = bodyOf(this.fields, this.zone());
    if (typeof body === "string") {
      this.error = body;
      this.host.update();
      return;
    }
    await this.send(() => formApi.save(this.host.pipeline()?.id ?? "", this.old, body, overwrite ? (this.conflict?.etag ?? "") : this.etag));
  }

  async remove(): Promise<void> {
    await this.send(() => formApi.remove(this.host.pipeline()?.id ?? "", this.old, this.etag));
  }

  private async send(op: () => Promise<PipelineView>): Promise<void> {
    this.busy = true;
    this.error = "";
    this.host.update();
    try {
      await op();
      this.conflict = undefined;
      this.host.saved();
    } catch (e) {
      if (e instanceof ApiError && e.code === "changed_elsewhere") {
        const d = e.details as { current?: string; etag?: string } | undefined;
        this.conflict = { theirs: d?.current ?? "", etag: d?.etag ?? "" };
        this.error = "not saved: the pipeline file changed elsewhere";
      } else this.error = errorText(e);
    } finally {
      this.busy = false;
      this.host.update();
    }
  }

  /** Drops the form's edits: the panel re-reads the file (the trigger as it is now). */
  private reloadFromDisk(): void {
    this.conflict = undefined;
    this.host.saved();
  }

  render(cancel: () => void): TemplateResult {
    const f = this.fields;
    const input = (k: keyof TriggerFields, attrs: { testid: string; placeholder?: string; list?: string; type?: string }) =>
      html`<input
        data-testid=${attrs.testid}
        type=${attrs.type ?? "text"}
        min="1"
        list=${attrs.list ?? ""}
        placeholder=${attrs.placeholder ?? ""}
        .value=${live(f[k])}
        @input=${(e: Event) => this.set(k, (e.target as HTMLInputElement).value)}
      />`;
    return html`<form
      class="trigger-form small"
      data-testid="trigger-form"
      @submit=${(e: Event) => {
        e.preventDefault();
        void this.save();
      }}
      @keydown=${(e: KeyboardEvent) => {
        if (e.key === "Escape") cancel();
      }}
    >
      <div class="form-row"><label>Id ${input("id", { testid: "trigger-form-id", placeholder: "nightly" })}</label></div>
      <fieldset class="form-row" data-testid="trigger-form-kind">
        <legend>Fires on</legend>
        ${(
          [
            ["schedule", "a schedule"],
            ["event", "new versions of a product"],
            ["api", "API calls only"],
          ] as const
        ).map(
          ([k, label]) =>
            html`<label
                ><input
                  type="radio"
                  name="kind"
                  value=${k}
                  data-testid=${"trigger-kind-" + k}
                  .checked=${live(f.kind === k && !(k === "event" && f.changes === "new-key"))}
                  @change=${() => this.setKind(k, "")}
                />
                ${label}</label
              > `,
        )}
        ${dynamicDims(this.host.pipeline()).map(
          (d) =>
            html`<label title="runs every cell of each key added to ${d.product}, the key set of dimension ${d.name}"
                ><input
                  type="radio"
                  name="kind"
                  value=${"new-key:" + d.name}
                  data-testid=${"trigger-kind-new-key-" + d.name}
                  .checked=${live(f.kind === "event" && f.changes === "new-key" && f.product === d.product)}
                  @change=${() => this.setKind("event", "new-key", d.product ?? "")}
                />
                new keys of ${d.name} (${d.product})</label
              > `,
        )}
      </fieldset>
      ${f.kind === "schedule"
        ? html`<div class="form-row">
              <label>Cron ${input("cron", { testid: "trigger-form-cron", placeholder: "30 2 * * *" })}</label>
              <label>in ${input("timezone", { testid: "trigger-form-zone", list: "trigger-tz-list" })}</label>
              <datalist id="trigger-tz-list">${zoneList().map((z) => html`<option value=${z}></option>`)}</datalist>
            </div>
            <div class="muted">minute hour day-of-month month day-of-week; @daily, @hourly … The zone defaults to the pipeline's (${this.zone()}).</div>
            <div data-testid="trigger-form-preview" class="trigger-preview">
              ${this.previewError
                ? html`<span class="error-text" data-testid="trigger-form-preview-error">${this.previewError}</span>`
                : this.preview
                  ? html`${this.preview.words ? html`<div><b data-testid="trigger-form-words">${this.preview.words}</b> (${this.preview.timezone})</div>` : nothing}
                      <div class="muted">Next ticks:</div>
                      <ol>
                        ${this.preview.next.map((t) => html`<li><span class="mono">${t.local}</span> <span class="muted">${t.in}</span></li>`)}
                      </ol>`
                  : html`<span class="muted">reading…</span>`}
            </div>
            <div class="form-row">
              <label title="after downtime, how many missed ticks run (the most recent ones); older ones are skipped and recorded"
                >Catch up at most ${input("catchUp", { testid: "trigger-form-catch-up", type: "number" })} missed tick(s) after downtime</label
              >
            </div>`
        : nothing}
      ${f.kind === "event" && f.changes === "new-key"
        ? html`<div class="muted" data-testid="trigger-form-new-key">
            Fires when ${f.product} gains keys: runs every cell of each new key (by default every time partition from the pipeline's start).
          </div>`
        : f.kind === "event"
        ? html`<div class="form-row">
            <label>Product ${input("product", { testid: "trigger-form-product", list: "trigger-products", placeholder: "orders" })}</label>
            <datalist id="trigger-products">${this.products.map((p) => html`<option value=${p}></option>`)}</datalist>
          </div>`
        : nothing}
      <div class="form-row">
        <label
          >Runs ${input("run", { testid: "trigger-form-run", placeholder: f.kind === "event" ? "affected" : "latest-complete" })}
          <span class="muted">latest-complete, latest-complete-N, last N, current${f.kind === "event" ? ", affected" : ""}; empty: the default</span></label
        >
      </div>
      ${this.error ? html`<div class="error-text" data-testid="trigger-form-error">${this.error}</div>` : nothing}
      ${this.conflict
        ? html`<div class="error-box conflict" data-testid="trigger-form-conflict">
            <b>The pipeline file changed elsewhere</b> since this form was filled; nothing was written.
            <button type="button" @click=${() => this.reloadFromDisk()}>Reload from disk (drop this form)</button>
            <button type="button" data-testid="trigger-form-overwrite" @click=${() => void this.save(true)}>Save mine over it</button>
            <details><summary>The file on disk now</summary><pre class="mono">${this.conflict.theirs}</pre></details>
          </div>`
        : nothing}
      <div class="form-row">
        <button type="submit" data-testid="trigger-form-save" ?disabled=${this.busy}>${this.old ? "Save trigger" : "Add trigger"}</button>
        <button type="button" data-testid="trigger-form-cancel" @click=${cancel}>Cancel</button>
        ${this.old
          ? this.confirmDelete
            ? html`<span data-testid="trigger-delete-confirm"
                >Remove trigger <b>${this.old}</b> from ${this.host.pipeline()?.file}? Its history stays.
                <button type="button" data-testid="trigger-delete-yes" @click=${() => void this.remove()}>Yes, remove it</button>
                <button type="button" @click=${() => ((this.confirmDelete = false), this.host.update())}>Keep it</button></span
              >`
            : html`<button type="button" data-testid="trigger-form-delete" @click=${() => ((this.confirmDelete = true), this.host.update())}>Remove…</button>`
          : nothing}
      </div>
      <div class="muted">Written into the <span class="mono">triggers:</span> list of ${this.host.pipeline()?.file ?? "the pipeline file"}, which stays the source of truth.</div>
    </form>`;
  }
}
