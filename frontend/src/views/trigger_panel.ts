// The trigger panel of the pipeline page: each trigger of the pipeline file
// with its next ticks (in the trigger's zone and UTC, with the partitions
// each runs), its last firing and history, the catch-up plan after
// downtime, and pause/resume. Definitions come from the file: the form
// (views/trigger_form.ts) and the YAML cell both edit its `triggers:` list.

import { html, nothing, type TemplateResult } from "lit-html";
import { call, enc, errorText } from "../api";
import { formatInstant } from "../time";
import { TriggerForm, type TriggerFormHost } from "./trigger_form";

export interface TriggerTick {
  at: string;
  local: string;
  from?: string;
  to?: string;
  error?: string;
}

export interface TriggerFiring {
  source: string;
  tick: string;
  recorded_at: string;
  action: string;
  work_id?: string;
  work_kind?: "backfill" | "run";
  from?: string;
  to?: string;
  skipped?: number;
  detail?: string;
  state?: string;
}

export interface TriggerStatus {
  pipeline: string;
  id: string;
  kind: "schedule" | "event" | "api";
  cron?: string;
  timezone?: string;
  product?: string;
  /** An event's: new-key (keys added to a dynamic dimension's product) or new-version. */
  changes?: string;
  run: string;
  catch_up?: number;
  disabled?: string;
  paused: boolean;
  paused_since?: string;
  next?: TriggerTick[];
  last?: TriggerFiring;
  catch_up_plan?: { run: string[] | null; skipped: number; skipped_first?: string; skipped_last?: string };
  history?: TriggerFiring[];
}

export const triggerApi = {
  list: (pipeline: string) => call<{ triggers: TriggerStatus[] }>("GET", `/pipelines/${enc(pipeline)}/triggers?next=3`),
  one: (pipeline: string, id: string) => call<TriggerStatus>("GET", `/pipelines/${enc(pipeline)}/triggers/${enc(id)}?history=10&next=3`),
  pause: (pipeline: string, id: string, paused: boolean) =>
    call<TriggerStatus>("POST", `/pipelines/${enc(pipeline)}/triggers/${enc(id)}/${paused ? "pause" : "resume"}`),
  fire: (pipeline: string, id: string) => call<{ work_id: string; kind: string }>("POST", `/pipelines/${enc(pipeline)}/triggers/${enc(id)}/fire`, {}),
};

/** What a trigger waits for, in words. */
export function describeTrigger(t: TriggerStatus): string {
  switch (t.kind) {
    case "schedule":
      return `cron ${t.cron} in ${t.timezone}`;
    case "event":
      return t.changes === "new-key" ? `new keys in ${t.product}` : `new versions of ${t.product}`;
  }
  return "API calls only";
}

function span(from?: string, to?: string): string {
  if (!from) return "";
  return to && to !== from ? `${from}..${to}` : from;
}

export class TriggerPanel {
  triggers: TriggerStatus[] = [];
  error = "";
  busy = new Set<string>();
  message = "";
  /** The open trigger form: a new trigger, or one being edited. */
  form?: TriggerForm;

  constructor(
    private readonly pipeline: string,
    private readonly update: () => void,
    private readonly host?: Omit<TriggerFormHost, "update">,
  ) {}

  private openForm(t?: TriggerStatus): void {
    if (!this.host) return;
    const host = this.host;
    this.form = new TriggerForm(t?.id ?? "", t, {
      pipeline: host.pipeline,
      update: this.update,
      saved: () => {
        this.form = undefined;
        this.message = t ? `${t.id}: saved to the pipeline file` : "trigger added to the pipeline file";
        host.saved();
      },
    });
    this.update();
  }

  private closeForm(): void {
    this.form = undefined;
    this.update();
  }

  async load(): Promise<void> {
    try {
      const { triggers } = await triggerApi.list(this.pipeline);
      // The list has no history; read each trigger's (pipelines have a handful).
      this.triggers = await Promise.all(triggers.map((t) => triggerApi.one(this.pipeline, t.id)));
      this.error = "";
    } catch (e) {
      this.error = errorText(e);
    }
    this.update();
  }

  private async setPaused(t: TriggerStatus, paused: boolean): Promise<void> {
    this.busy.add(t.id);
    this.update();
    try {
      await triggerApi.pause(this.pipeline, t.id, paused);
      await this.load();
    } catch (e) {
      this.error = errorText(e);
    } finally {
      this.busy.delete(t.id);
      this.update();
    }
  }

  private async fire(t: TriggerStatus): Promise<void> {
    this.busy.add(t.id);
    this.update();
    try {
      const r = await triggerApi.fire(this.pipeline, t.id);
      this.message = `${t.id}: launched ${r.kind} ${r.work_id}`;
      await this.load();
    } catch (e) {
      this.error = errorText(e);
    } finally {
      this.busy.delete(t.id);
      this.update();
    }
  }

  render(zone: string): TemplateResult {
    return html`<div class="side-box" data-testid="trigger-panel">
      <h3>Triggers</h3>
      ${this.error ? html`<div class="error-text small">${this.error}</div>` : nothing}
      ${this.message ? html`<div class="muted small" data-testid="trigger-message">${this.message}</div>` : nothing}
      ${this.triggers.length === 0 && !this.form
        ? html`<p class="muted small">No triggers: add one (a schedule, new versions of an upstream product, or API calls), here or in the <span class="mono">triggers:</span> list of the pipeline file.</p>`
        : this.triggers.map((t) => (this.form && this.form.old === t.id ? this.form.render(() => this.closeForm()) : this.trigger(t, zone)))}
      ${this.form && !this.form.old ? this.form.render(() => this.closeForm()) : nothing}
      ${this.host && !this.form ? html`<button data-testid="trigger-add" @click=${() => this.openForm()}>+ Add trigger</button>` : nothing}
    </div>`;
  }

  private trigger(t: TriggerStatus, zone: string): TemplateResult {
    const state = t.disabled ? "disabled" : t.paused ? "paused" : "active";
    const busy = this.busy.has(t.id);
    const plan = t.catch_up_plan;
    return html`<div class="trigger" data-testid=${"trigger-" + t.id}>
      <div>
        <b>${t.id}</b> <span class=${"tag " + (state === "active" ? "succeeded" : state === "paused" ? "paused" : "failed")} data-testid="trigger-state">${state}</span>
        <span class="small muted">${describeTrigger(t)} · run: ${t.run}${t.catch_up ? ` · catch_up.max ${t.catch_up}` : ""}</span>
      </div>
      ${t.disabled ? html`<div class="error-text small">${t.disabled}</div>` : nothing}
      <div class="small">
        <button ?disabled=${busy || !!t.disabled} data-testid="trigger-pause" @click=${() => this.setPaused(t, !t.paused)}>${t.paused ? "Resume" : "Pause"}</button>
        ${t.kind !== "event" ? html`<button ?disabled=${busy} data-testid="trigger-fire" @click=${() => this.fire(t)} title="launch this trigger's run: window now">Fire now</button>` : nothing}
        ${this.host && !this.form ? html`<button data-testid="trigger-edit" @click=${() => this.openForm(t)}>Edit…</button>` : nothing}
      </div>
      ${t.next?.length && t.paused
        ? // Paused: the ticks are not listed as though they will run.
          html`<p class="small muted" data-testid="trigger-paused-note">Paused: no tick runs until Resume (the next would have been ${t.next[0].local}).</p>`
        : t.next?.length
          ? html`<table class="small trigger-next" data-testid="trigger-next">
              <thead><tr><th>next tick (${t.timezone})</th><th>UTC</th><th>runs</th></tr></thead>
              <tbody>${t.next.map((n) => html`<tr><td class="mono">${n.local}</td><td class="mono">${n.at.slice(0, 16).replace("T", " ")}Z</td><td class="mono">${n.error ?? span(n.from, n.to)}</td></tr>`)}</tbody>
            </table>`
          : nothing}
      ${plan
        ? html`<div class="small" data-testid="trigger-catch-up">Catch-up plan: ${(plan.run ?? []).length} missed tick(s) run next, oldest first${plan.skipped ? html`; ${plan.skipped} older ones skipped` : nothing}.</div>`
        : nothing}
      ${t.history?.length
        ? html`<details class="small" data-testid="trigger-history">
            <summary>History (last ${t.history.length}) · last ${t.history[0].action} ${t.history[0].state ?? ""}</summary>
            <table>
              <tbody>${t.history.map((f) => html`<tr>
                <td class="mono">${formatInstant(f.tick, zone)}</td>
                <td>${f.source}</td>
                <td>${f.action}${f.skipped ? ` ${f.skipped}` : ""}</td>
                <td class="mono">${span(f.from, f.to)}</td>
                <td>${f.work_id && f.work_kind === "backfill" ? html`<a href=${`/backfills/${enc(f.work_id)}`}>${f.state || "…"}</a>` : f.state ?? ""}</td>
                <td class="muted">${f.detail ?? ""}</td>
              </tr>`)}</tbody>
            </table>
          </details>`
        : html`<div class="muted small">never fired</div>`}
    </div>`;
  }
}
