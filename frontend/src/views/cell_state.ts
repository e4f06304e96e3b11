// Per-cell staleness on the pipeline page and "Run with upstream": the
// server judges (POST /pipelines/:id/cells/state, projects/notebook); this
// view shows each cell's stored output and session draft as current or
// stale with the reason, the item chooser of a block under a dynamic
// parent, and runs a plan cell by cell in the notebook session, stopping at
// the first failure.

import { html, nothing, type TemplateResult } from "lit-html";
import { call, enc, errorText } from "../api";
import { currentEnv } from "../env";
import { isFinal, type Exec } from "../exec_state";
import { formatInstant } from "../time";
import { ws } from "../ws";

export interface StoredState {
  block: string;
  product?: string;
  partition: string;
  state: "missing" | "current" | "stale" | "none";
  version?: number;
  cause?: string;
  reason?: string;
}

export interface DraftState {
  at: string;
  rows: number;
  item?: string;
  state: "current" | "stale";
  cause?: string;
  reason?: string;
}

export interface CellState {
  block: string;
  stored: StoredState;
  draft?: DraftState;
  fresh: boolean;
  session?: string;
  plan: string[];
  items?: { parent: string; keys: string[]; total: number; draft: boolean };
  items_error?: string;
}

/** Cell states with the session's drafts of the page's environment (drafts are per environment). */
export const cellStatesApi = (pipeline: string, req: { partition: string; session: string; sources: Record<string, string> }) =>
  call<{ cells: CellState[] }>("POST", `/pipelines/${enc(pipeline)}/cells/state`, { ...req, ...(currentEnv() ? { env: currentEnv() } : {}) });

/** One step of a Run with upstream: a block and how far it got. */
export interface UpstreamStep {
  block: string;
  state: "pending" | "running" | "done" | "failed" | "skipped";
  exec?: string;
}

/** A Run with upstream in progress or finished, shown on its target cell. */
export interface UpstreamRun {
  target: string;
  steps: UpstreamStep[];
  error?: string;
  finished: boolean;
}

/** What the page lends this view: its cells' texts and a way to run one. */
export interface CellHost {
  pipeline: string;
  /** The editor texts of cells with unsaved edits. */
  dirtySources(): Record<string, string>;
  /** Starts the cell's editor text in the session; an Exec, or why it could not start. */
  runCell(block: string): Exec | string;
  partitionOf(block: string): string;
  update(): void;
}

export class CellStates {
  states = new Map<string, CellState>();
  error = "";
  /** The item chosen per block under a dynamic parent. */
  items = new Map<string, string>();
  upstream?: UpstreamRun;
  private seq = 0;
  private timer?: ReturnType<typeof setTimeout>;

  constructor(private host: CellHost) {}

  /** Re-reads the states soon (several triggers in a row make one request). */
  refreshSoon(delay = 150): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), delay);
  }

  async refresh(partition = this.host.partitionOf("")): Promise<void> {
    const n = ++this.seq;
    try {
      const r = await cellStatesApi(this.host.pipeline, { partition, session: ws.sessionId, sources: this.host.dirtySources() });
      if (n !== this.seq) return;
      this.states = new Map(r.cells.map((c) => [c.block, c]));
      this.error = "";
    } catch (e) {
      if (n !== this.seq) return;
      this.error = errorText(e);
    }
    this.host.update();
  }

  destroy(): void {
    clearTimeout(this.timer);
    this.seq++;
  }

  /** The item a block under a dynamic parent runs as ("" for none or the first). */
  itemOf(block: string): string {
    const st = this.states.get(block);
    const chosen = this.items.get(block) ?? "";
    return st?.items?.keys.includes(chosen) ? chosen : "";
  }

  /** The cell's state line: stored output and session draft. */
  badges(block: string, zone: string): TemplateResult | typeof nothing {
    const st = this.states.get(block);
    if (!st) return nothing;
    const s = st.stored;
    const stored =
      s.state === "none"
        ? nothing
        : html`<span class=${"tag state-" + s.state} data-testid="stored-state" data-state=${s.state} data-cause=${s.cause ?? ""} title=${s.reason ?? ""}
            >stored ${s.partition}: ${s.state}${s.version ? ` v${s.version}` : ""}${s.reason ? html` — ${s.reason}` : nothing}</span
          >`;
    const d = st.draft;
    const draft = d
      ? html`<span class=${"tag draft state-" + d.state} data-testid="draft-state" data-state=${d.state} data-cause=${d.cause ?? ""}
          >your draft from ${formatInstant(Date.parse(d.at), zone, { seconds: false })}${d.item ? ` (item ${d.item})` : ""}: ${d.state === "current" ? "current" : html`older — ${d.reason}`}</span
        >`
      : st.session
        ? html`<span class="tag state-stale" data-testid="session-state">in this session: ${st.session}</span>`
        : nothing;
    return html`<div class="cell-state small" data-testid="cell-state" data-fresh=${String(st.fresh)}>${stored} ${draft}</div>`;
  }

  /** The item chooser of a block under a dynamic parent. */
  chooser(block: string): TemplateResult | typeof nothing {
    const st = this.states.get(block);
    if (!st || (!st.items && !st.items_error)) return nothing;
    if (!st.items) return html`<span class="muted small" data-testid="item-chooser-none" title=${st.items_error ?? ""}>item: run ${this.parentHint(st)} first</span>`;
    const chosen = this.itemOf(block);
    return html`<label class="small item-chooser" title=${`the row of ${st.items.parent} this child runs as${st.items.draft ? " (from your draft)" : " (published)"}`}
      >item
      <select data-testid="item-chooser" @change=${(e: Event) => (this.items.set(block, (e.target as HTMLSelectElement).value), this.host.update())}>
        ${st.items.keys.map((k, i) => html`<option value=${k} ?selected=${chosen ? chosen === k : i === 0}>${k}</option>`)}
      </select>
      ${st.items.total > st.items.keys.length ? html`<span class="muted">(first ${st.items.keys.length} of ${st.items.total})</span>` : nothing}
    </label>`;
  }

  private parentHint(st: CellState): string {
    return st.plan.length > 1 ? st.plan[st.plan.length - 2] : "its dynamic parent";
  }

  /** Whether Run with upstream is running (any target). */
  busy(): boolean {
    return !!this.upstream && !this.upstream.finished;
  }

  /**
   * Runs the target's stale ancestors first, in DAG order, then the target,
   * each with its editor's text in this session (each draft feeds the next),
   * and stops at the first failure.
   */
  async runWithUpstream(target: string): Promise<void> {
    if (this.busy()) return;
    const run: UpstreamRun = { target, steps: [], finished: false };
    this.upstream = run;
    this.host.update();
    await this.refresh();
    const plan = this.states.get(target)?.plan ?? [target];
    run.steps = plan.map((block) => ({ block, state: "pending" }));
    this.host.update();
    for (const step of run.steps) {
      step.state = "running";
      this.host.update();
      const e = this.host.runCell(step.block);
      if (typeof e === "string") {
        step.state = "failed";
        run.error = `${step.block}: ${e}`;
        break;
      }
      step.exec = e.id;
      const end = await waitFinal(e);
      step.state = end.phase === "done" ? "done" : "failed";
      if (step.state === "failed") {
        run.error = `${step.block} ${end.phase}: ${end.error?.message ?? ""}`;
        break;
      }
    }
    for (const s of run.steps) if (s.state === "pending") s.state = "skipped";
    run.finished = true;
    this.host.update();
    void this.refresh();
  }

  /**
   * Run all stale: every cell whose output is not up to date for this
   * session (its draft, else the stored output; fresh in the server's
   * judgement), in DAG order, each with its editor's text, nothing
   * published. States are re-read before each step, since a cell run makes
   * the cells below it stale. Stops at the first failure. Its progress has
   * target "" (the page head).
   */
  async runAllStale(order: string[]): Promise<void> {
    if (this.busy()) return;
    const run: UpstreamRun = { target: "", steps: [], finished: false };
    this.upstream = run;
    this.host.update();
    for (const block of order) {
      await this.refresh();
      if (this.states.get(block)?.fresh !== false) continue;
      const step: UpstreamStep = { block, state: "running" };
      run.steps.push(step);
      this.host.update();
      const e = this.host.runCell(block);
      if (typeof e === "string") {
        step.state = "failed";
        run.error = `${block}: ${e}`;
        break;
      }
      step.exec = e.id;
      const end = await waitFinal(e);
      step.state = end.phase === "done" ? "done" : "failed";
      if (step.state === "failed") {
        run.error = `${block} ${end.phase}: ${end.error?.message ?? ""}`;
        break;
      }
    }
    run.finished = true;
    this.host.update();
    void this.refresh();
  }

  /** The progress of a Run with upstream, on its target cell ("" for Run all stale, in the page head). */
  progress(block: string): TemplateResult | typeof nothing {
    const r = this.upstream;
    const failedHere = r?.finished && r.steps.some((s) => s.block === block && s.state === "failed") && r.target !== block;
    if (failedHere) return html`<div class="error-text small" data-testid="upstream-failed">✗ failed during Run with upstream of ${r!.target}</div>`;
    if (!r || r.target !== block) return nothing;
    const mark = { pending: "○", running: "●", done: "✓", failed: "✗", skipped: "–" } as const;
    return html`<div class=${"upstream-progress small" + (r.error ? " failed" : "")} data-testid="upstream-progress" data-finished=${String(r.finished)}>
      <b>${r.target ? "Run with upstream" : "Run all stale"}</b>
      ${r.steps.length === 0 ? html`<span class="muted">${r.finished ? "every cell was up to date" : "planning…"}</span>` : nothing}
      ${r.steps.map(
        (s, i) => html`${i ? " → " : ""}<span class=${"step " + s.state} data-testid="upstream-step" data-block=${s.block} data-state=${s.state}
            ><a href=${"#cell-" + s.block} @click=${(e: Event) => (e.preventDefault(), document.getElementById("cell-" + s.block)?.scrollIntoView({ block: "start" }))}>${s.block}</a> ${mark[s.state]}</span
          >`,
      )}
      ${r.error ? html`<div class="error-text">stopped: ${r.error}</div>` : nothing}
      ${r.finished ? html`<button class="link" @click=${() => ((this.upstream = undefined), this.host.update())}>dismiss</button>` : nothing}
    </div>`;
  }
}

/** Resolves once an execution reaches a final phase. */
function waitFinal(e: Exec): Promise<Exec> {
  return new Promise((ok) => {
    if (isFinal(e.phase)) return ok(e);
    const off = ws.onExec(() => {
      if (isFinal(e.phase)) {
        off();
        ok(e);
      }
    });
  });
}
