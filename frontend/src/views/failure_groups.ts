// The failures of a backfill grouped by the block that failed and the
// error's class (GET /backfills/:id/failures): three reasons instead of 900
// lines, each with its partitions, and a retry of just that group once its
// cause is fixed (with the backfill's own version, or the current code).

import { html, nothing, type TemplateResult } from "lit-html";
import { api, errorText } from "../api";
import type { BackfillStatus } from "../types";

export interface FailedPartition {
  key: string;
  interval: string;
  state: string;
  run_id?: string;
  block?: string;
  error?: string;
}

export interface FailureGroup {
  block: string;
  class: string;
  example: string;
  state: string;
  count: number;
  partitions: FailedPartition[];
}

/** How many partition keys a group lists before "and N more". */
export const SHOWN_KEYS = 12;

/** The partitions of a group in words: the first keys, then how many more. */
export function groupKeys(g: FailureGroup, all: boolean): { shown: string[]; more: number } {
  const keys = g.partitions.map((p) => p.key);
  return all || keys.length <= SHOWN_KEYS ? { shown: keys, more: 0 } : { shown: keys.slice(0, SHOWN_KEYS), more: keys.length - SHOWN_KEYS };
}

export class FailureGroups {
  groups: FailureGroup[] = [];
  error = "";
  loadedFor = "";
  private expanded = new Set<number>();
  /** The group whose retry asks for a confirmation, and with which code. */
  private asking?: { i: number; current: boolean };
  private busy = false;

  constructor(
    private readonly id: string,
    private readonly update: () => void,
    /** A group was retried: the page re-reads the backfill and its grid. */
    private readonly retried: (st: BackfillStatus) => void,
    /** A partition key was clicked: the page opens it (its attempts, errors, runs). */
    private readonly open: (key: string) => void = () => {},
  ) {}

  /** Reads the groups once per state of the backfill (key: its state and counts). */
  async load(key: string): Promise<void> {
    if (key === this.loadedFor) return;
    this.loadedFor = key;
    try {
      this.groups = (await api.backfillFailures(this.id)).groups;
      this.error = "";
    } catch (e) {
      this.error = errorText(e);
    }
    this.update();
  }

  private async retry(g: FailureGroup, current: boolean): Promise<void> {
    this.busy = true;
    this.update();
    try {
      const st = await api.retryPartitions(
        this.id,
        g.partitions.map((p) => p.key),
        current,
      );
      this.asking = undefined;
      this.loadedFor = "";
      this.retried(st);
    } catch (e) {
      this.error = errorText(e);
    } finally {
      this.busy = false;
      this.update();
    }
  }

  render(canRetry: boolean, filesChanged: boolean): TemplateResult | typeof nothing {
    if (!this.groups.length && !this.error) return nothing;
    return html`<section class="failure-groups" data-testid="failure-groups">
      <h3>Failures by error <span class="muted small">${this.groups.length} group${this.groups.length === 1 ? "" : "s"}</span></h3>
      ${this.error ? html`<div class="error-box small">${this.error}</div>` : nothing}
      ${this.groups.map((g, i) => {
        const { shown, more } = groupKeys(g, this.expanded.has(i));
        const ask = this.asking?.i === i ? this.asking : undefined;
        return html`<div class="failure-group" data-testid="failure-group">
          <div>
            <span class=${"tag " + g.state}>${g.count.toLocaleString("en-US")} ${g.state}</span>
            ${g.block ? html`in <b class="mono" data-testid="failure-block">${g.block}</b>` : nothing}
            <span class="mono small" data-testid="failure-class">${g.class || "(no error message)"}</span>
          </div>
          ${g.example && g.example !== g.class ? html`<div class="muted small">e.g. <span class="mono">${g.example}</span></div>` : nothing}
          <div class="small mono" data-testid="failure-keys">
            ${shown.map((k, j) => html`${j ? ", " : ""}<button class="link mono" data-testid="failure-key" data-key=${k} @click=${() => this.open(k)} title="open this partition: its attempts, errors and runs">${k}</button>`)}${more ? html` <button class="link" @click=${() => (this.expanded.add(i), this.update())}>and ${more.toLocaleString("en-US")} more</button>` : nothing}
          </div>
          ${canRetry
            ? ask
              ? html`<div class="small" data-testid="failure-retry-confirm">
                  Retry these ${g.count.toLocaleString("en-US")} partition${g.count === 1 ? "" : "s"} ${ask.current ? "with the current code" : "with the backfill's own pipeline version"}? The other
                  failures stay as they are.
                  <button class="primary" data-testid="failure-retry-yes" ?disabled=${this.busy} @click=${() => void this.retry(g, ask.current)}>Yes, retry them</button>
                  <button @click=${() => ((this.asking = undefined), this.update())}>No</button>
                </div>`
              : html`<div class="small">
                  <button data-testid="failure-retry" @click=${() => ((this.asking = { i, current: false }), this.update())}>Retry this group</button>
                  ${filesChanged
                    ? html`<button data-testid="failure-retry-current" @click=${() => ((this.asking = { i, current: true }), this.update())}>Retry with the current code</button>`
                    : nothing}
                </div>`
            : nothing}
        </div>`;
      })}
    </section>`;
  }
}
