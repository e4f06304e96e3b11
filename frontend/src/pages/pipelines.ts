// The home page: the project's pipelines, and "New pipeline" (name,
// partitioning with a time-zone picker, first block), so a project can start
// from nothing in the browser. Renaming and deleting a pipeline say first
// what they change: files removed and kept, stored outputs left behind.

import { html, nothing, type TemplateResult } from "lit-html";
import { api, errorText } from "../api";
import { app, type Page } from "../app";
import { browserZone, zoneList } from "../time";
import type { PipelineSummary, Problem } from "../types";

const INTERVALS = ["hour", "day", "week", "month", "quarter", "year", "none"];

/** Every zone the browser knows, for the picker (loaded once). */
export class PipelinesPage implements Page {
  title = "Pipelines";
  pipelines: PipelineSummary[] = [];
  problems: Problem[] = [];
  loaded = false;
  error = "";
  form = { open: false, id: "", description: "", interval: "day", timezone: browserZone(), start: "", block: "", kind: "go", error: "", busy: false };
  rowStatus = new Map<string, string>();

  constructor(redirectSingle: boolean) {
    void this.load(redirectSingle);
  }

  private async load(redirectSingle = false): Promise<void> {
    try {
      const r = await api.pipelines();
      this.pipelines = r.pipelines;
      this.problems = r.problems;
      this.loaded = true;
      this.form.open ||= r.pipelines.length === 0;
      // The first visit goes straight to the only pipeline; the nav link shows this list.
      if (redirectSingle && r.pipelines.length === 1) app.go(`/pipelines/${encodeURIComponent(r.pipelines[0].id)}`, true);
    } catch (e) {
      this.error = errorText(e);
    }
    app.update();
  }

  private async create(ev: Event): Promise<void> {
    ev.preventDefault();
    const f = this.form;
    f.busy = true;
    f.error = "";
    app.update();
    try {
      const id = f.id.trim();
      await api.createPipeline({
        id,
        description: f.description.trim() || undefined,
        partitions: { interval: f.interval, timezone: f.interval === "none" ? undefined : f.timezone.trim(), start: f.interval === "none" ? undefined : f.start || undefined },
        block: f.block.trim() ? { id: f.block.trim(), kind: f.kind } : undefined,
      });
      app.go(`/pipelines/${encodeURIComponent(id)}`);
    } catch (e) {
      f.error = errorText(e);
      f.busy = false;
      app.update();
    }
  }

  private async rename(p: PipelineSummary): Promise<void> {
    const to = prompt(
      `Rename pipeline ${p.id} to:\n\nThe file becomes pipelines/<new>.yaml. Runs keep the old id, and stored outputs named ${p.id}__<block> stay under that name (blocks with product: keep theirs).`,
      p.id,
    )?.trim();
    if (!to || to === p.id) return;
    try {
      await api.renamePipeline(p.id, to);
      this.rowStatus.delete(p.id);
      await this.load();
    } catch (e) {
      this.rowStatus.set(p.id, errorText(e));
      app.update();
    }
  }

  private async remove(p: PipelineSummary): Promise<void> {
    try {
      const plan = await api.pipelineDeletePlan(p.id, true);
      const lines = [`Delete pipeline ${p.id}?`, "", "Removes:", ...plan.removes.map((f) => "  " + f)];
      if (plan.keeps.length) lines.push("", "Keeps (another pipeline uses them):", ...plan.keeps.map((f) => "  " + f));
      if (plan.products.length) lines.push("", "Stored outputs stay in the warehouse:", "  " + plan.products.join(", "));
      if (!confirm(lines.join("\n"))) return;
      await api.deletePipeline(p.id, true);
      await this.load();
    } catch (e) {
      this.rowStatus.set(p.id, errorText(e));
      app.update();
    }
  }

  render(): TemplateResult {
    if (this.error) return html`<main class="page"><div class="error-box">${this.error}</div></main>`;
    return html`<main class="page pipelines-page">
      <div class="page-title"><h1>Pipelines</h1>
        ${this.form.open ? nothing : html`<button class="primary" data-testid="new-pipeline" @click=${() => ((this.form.open = true), app.update())}>New pipeline</button>`}
      </div>
      ${this.form.open ? this.newForm() : nothing}
      ${this.loaded && this.pipelines.length === 0 ? html`<p class="muted" data-testid="no-pipelines">No pipelines yet: create the first one above.</p>` : nothing}
      <ul class="pipeline-list">
        ${this.pipelines.map(
          (p) => html`<li data-testid=${"pipeline-" + p.id}><a href=${`/pipelines/${encodeURIComponent(p.id)}`}><b>${p.id}</b></a> · ${p.blocks} blocks · ${p.partitions.interval}${p.partitions.interval === "none" ? "" : ` in ${p.partitions.timezone}`}${p.problems ? html` · <span class="error-text">${p.problems} problem(s)</span>` : ""}
            <button class="link small" data-testid="rename-pipeline" @click=${() => this.rename(p)}>rename</button> <button class="link small danger" data-testid="delete-pipeline" @click=${() => this.remove(p)}>delete…</button>
            ${this.rowStatus.get(p.id) ? html`<span class="error-text small">${this.rowStatus.get(p.id)}</span>` : nothing}
            <div class="muted">${p.description}</div></li>`,
        )}
      </ul>
    </main>`;
  }

  private newForm(): TemplateResult {
    const f = this.form;
    const set = (k: "id" | "description" | "timezone" | "start" | "block") => (e: Event) => (f[k] = (e.target as HTMLInputElement).value);
    return html`<form class="cell new-pipeline" data-testid="new-pipeline-form" @submit=${(e: Event) => this.create(e)}>
      <h2>New pipeline</h2>
      <label>Name <input required name="id" pattern="[a-z][a-z0-9_]*" placeholder="daily_sales" title="lowercase letters, digits and _, starting with a letter" .value=${f.id} @input=${set("id")} /></label>
      <label>Description <input name="description" size="40" .value=${f.description} @input=${set("description")} /></label>
      <fieldset>
        <legend>Partitions</legend>
        <label>Interval <select name="interval" @change=${(e: Event) => ((f.interval = (e.target as HTMLSelectElement).value), app.update())}>
          ${INTERVALS.map((i) => html`<option value=${i} ?selected=${i === f.interval}>${i === "none" ? "none (one partition)" : i}</option>`)}
        </select></label>
        ${f.interval === "none"
          ? nothing
          : html`<label>Time zone <input name="timezone" list="tz-list" size="22" .value=${f.timezone} @input=${set("timezone")} @focus=${() => app.update()} /></label>
              <datalist id="tz-list">${zoneList().map((z) => html`<option value=${z}></option>`)}</datalist>
              <label>First partition <input name="start" type="date" .value=${f.start} @input=${set("start")} /></label>
              <span class="muted small">partitions are cut at midnight (or the hour) in this zone</span>`}
      </fieldset>
      <fieldset>
        <legend>First block (optional)</legend>
        <label>Id <input name="block" pattern="[a-z][a-z0-9_]*" placeholder="raw_orders" .value=${f.block} @input=${set("block")} /></label>
        <label>Kind <select name="kind" @change=${(e: Event) => (f.kind = (e.target as HTMLSelectElement).value)}>
          <option value="go" ?selected=${f.kind === "go"}>Go (Load)</option><option value="sql" ?selected=${f.kind === "sql"}>SQL</option>
        </select></label>
      </fieldset>
      <div>
        <button class="primary" type="submit" data-testid="create-pipeline" ?disabled=${f.busy}>Create pipeline</button>
        ${this.pipelines.length ? html`<button type="button" class="link" @click=${() => ((f.open = false), app.update())}>cancel</button>` : nothing}
        <span class="muted small">writes pipelines/${f.id || "<name>"}.yaml${f.block ? ` and the block's file` : ""}</span>
      </div>
      ${f.error ? html`<div class="error-text" data-testid="new-pipeline-error">${f.error}</div>` : nothing}
    </form>`;
  }
}
