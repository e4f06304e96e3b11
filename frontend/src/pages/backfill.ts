// One backfill: live progress bar, the partition grid on a canvas (colored
// by state, smooth at 3.65 million cells), a partition's block runs, timings
// and logs with the run's timeline, and retry / cancel / pause / resume.
// Everything is re-read from the server on load and after a reconnect, so a
// reload mid-run shows the backfill still running. A grid larger than one
// page is read a page at a time as it scrolls into view, never whole, and
// filtered by the server (a filter is then a narrower grid).

import { html, nothing, type TemplateResult } from "lit-html";
import { ref } from "lit-html/directives/ref.js";
import { api, errorText, type BackfillAction } from "../api";
import { app, type Page } from "../app";
import { STATES, legendCounts } from "../grid";
import { describeSpec } from "../plan";
import { versionLine } from "../backfill_version";
import { reviewEnded } from "../review_ended";
import { formatDuration, formatInstant, nsToMs } from "../time";
import { FINAL_STATES, type BackfillStatus, type Notice, type PartitionStatus, type PartitionsConfig, type RunDetail, type RunSummary } from "../types";
import { dimValues, dimensional, matchesFilter, sliceStates, splitCell, type CellFilter } from "../cells";
import { CalendarCanvas } from "../views/calendar_canvas";
import { HourCalendarCanvas } from "../views/hour_calendar";
import { ganttView } from "../views/gantt";
import { pickCell, refreshPick, type PartitionPick } from "../partition_pick";
import { allLogs, blockTable, logsView } from "../views/run_blocks";
import { runHref } from "../runs";
import { ReviewPanel } from "../views/review_panel";
import { FailureGroups } from "../views/failure_groups";
import { PartitionGrid, stateColor } from "../views/grid_canvas";
import { ws } from "../ws";

const PAGE = 20000;

export class BackfillPage implements Page {
  title: string;
  st?: BackfillStatus;
  error = "";
  actionError = "";
  acting = "";
  /** The failed and cancelled partitions grouped by block and error, once the backfill ended. */
  failures: FailureGroups;
  /** Cancel was clicked: the page asks before cancelling every unfinished partition. */
  confirmCancel = false;
  grid = new PartitionGrid();
  parts: (PartitionStatus | undefined)[] = [];
  hover = -1;
  /** The partition the drawer shows (partition_pick.ts). */
  chosen?: PartitionPick;
  run?: RunDetail;
  runError = "";
  /** Every attempt at the chosen partition (each retry is a run of its own), oldest first. */
  attempts: RunSummary[] = [];
  logView = allLogs();
  zonePipeline?: string;
  interval?: string;
  /** The pipeline's partitioning: with value dimensions, the grid filters by them (cells.ts). */
  cfg?: PartitionsConfig;
  filter: CellFilter = {};
  hiddenCells = 0;
  /** The filter the server applies (a grid larger than one page): the grid holds the matching cells only. */
  where: string[] = [];
  /** Cells of the grid without a server filter (the backfill's partitions). */
  unfiltered = 0;
  /** Values of the dynamic dimensions, from the key set version the backfill targets (a large grid's keys are not all read). */
  private dynValues: Record<string, string[]> = {};
  /** Pages of the grid read (or being read) since the last full read, by page number. */
  private pages = new Set<number>();
  private gen = 0; // bumped by a full read: pages of an older read are dropped
  /** The value dimension the grid is sliced by ("": none): a row per value, time as a calendar, the other dimensions filtered. */
  slice = "";
  private sliceCals = new Map<string, CalendarCanvas>();
  review?: ReviewPanel;
  tab: "grid" | "review" = "grid";
  // Day partitions drawn as a calendar (years as rows of months, weeks
  // visible) beside the grid, which stays for hours and huge ranges.
  calendar = new CalendarCanvas("bf-calendar-grid", false);
  // Hour partitions drawn as days of 24 cells (up to two years of them).
  hourCalendar = new HourCalendarCanvas("bf-hour-calendar");
  private hourKeys = 0; // how many known keys the hour calendar was laid out with
  private offs: (() => void)[] = [];
  private poll?: ReturnType<typeof setInterval>;
  private loadingParts = false;
  private runTimer?: ReturnType<typeof setTimeout>;
  private destroyed = false;
  private lastFullLoad = 0;
  // The grid is drawn once what goes above it is known: the pipeline's
  // interval (a day or hour calendar) and the first page of partitions
  // (the calendar's range). Drawn before, it moved down under the pointer
  // when the calendar came in, and a click meant for its first cell landed
  // on the calendar's heading (the flaky e2e scaleout drawer).
  private laidOut = false;
  private layingOut = false;

  constructor(readonly id: string) {
    this.title = id;
    this.failures = new FailureGroups(
      id,
      () => app.update(),
      (st) => {
        this.st = st;
        void this.loadParts();
      },
      (key) => {
        const i = this.grid.indexOf(key);
        if (i >= 0) void this.pick(i);
      },
    );
    this.grid.onHover = (i) => {
      this.hover = i;
      app.update();
    };
    this.grid.onPick = (i) => void this.pick(i);
    this.grid.onView = (first, end) => this.ensurePages(first, end);
    this.calendar.color = (k) => {
      const i = this.grid.indexOf(k);
      const p = i >= 0 ? this.parts[i] : undefined;
      return p ? stateColor(p.state) : i >= 0 ? stateColor(STATES[this.grid.states[i]]) : undefined;
    };
    this.calendar.onPick = (k) => {
      const i = this.grid.indexOf(k);
      if (i >= 0) void this.pick(i);
    };
    this.hourCalendar.color = this.calendar.color;
    this.hourCalendar.onPick = this.calendar.onPick;
    this.offs.push(ws.subscribe(`backfill:${id}`, (n) => this.onNotice(n)));
    this.offs.push(ws.onReconnect(() => void this.refresh(true)));
    void this.refresh(true);
    this.poll = setInterval(() => void this.refresh(false), 2000);
  }

  destroy(): void {
    this.destroyed = true;
    this.offs.forEach((f) => f());
    clearInterval(this.poll);
    clearTimeout(this.runTimer);
  }

  pipelineZone(): string | undefined {
    return this.zonePipeline;
  }

  private async refresh(full: boolean): Promise<void> {
    if (this.destroyed) return;
    const wasFinal = this.st && FINAL_STATES.has(this.st.state);
    if (wasFinal && !full) return;
    try {
      const st = await api.backfill(this.id);
      const becameFinal = FINAL_STATES.has(st.state) && !wasFinal;
      this.st = st;
      if (st.spec.publish === "review" && FINAL_STATES.has(st.state) && !this.review) {
        this.review = new ReviewPanel(this.id, () => this.zonePipeline ?? "UTC", () => app.update(), () => void this.refresh(true));
        if (st.state === "review") this.tab = "review";
      }
      this.error = "";
      if (!this.where.length) this.grid.setCount(st.total);
      if (!this.layingOut) {
        this.layingOut = true;
        void Promise.all([this.loadPipeline(st.pipeline), new Promise<void>((firstPage) => void this.loadParts(firstPage))]).then(() => {
          this.laidOut = true;
          app.update();
        });
      } else {
        if (!this.zonePipeline) void this.loadPipeline(st.pipeline);
        // Events keep the grid current; a full read on load, on reconnect, at
        // the end, and every few seconds for grids small enough to re-read.
        const now = Date.now();
        if (full || becameFinal || (this.grid.states.length <= PAGE && now - this.lastFullLoad > 4000)) void this.loadParts();
      }
    } catch (e) {
      this.error = errorText(e);
    }
    app.update();
  }

  // loadPipeline reads the pipeline's zone and interval; without them the
  // page still works (times in the viewer's zone, no calendar).
  private async loadPipeline(id: string): Promise<void> {
    try {
      const p = await api.pipeline(id);
      this.zonePipeline = p.partitions.timezone;
      this.interval = p.partitions.interval;
      this.cfg = p.partitions;
    } catch {
      /* tried again at the next refresh */
    }
    app.update();
  }

  // loadParts reads the grid again: its first page, then the pages in
  // view (ensurePages), never every page of a large grid; firstPage is
  // called once the first is in (or the read failed).
  private async loadParts(firstPage?: () => void): Promise<void> {
    if (this.loadingParts) return firstPage?.();
    this.loadingParts = true;
    this.lastFullLoad = Date.now();
    const gen = ++this.gen;
    this.pages = new Set([0]);
    try {
      await this.loadPage(0, gen);
      firstPage?.();
      firstPage = undefined;
    } catch (e) {
      this.error = errorText(e);
    } finally {
      this.loadingParts = false;
      firstPage?.();
    }
    app.update();
    this.grid.schedule(); // its next draw asks for the other pages in view
  }

  // loadPage reads page n of the grid (of the read gen).
  private async loadPage(n: number, gen: number): Promise<void> {
    const off = n * PAGE;
    const page = await api.backfillPartitions(this.id, { offset: off, limit: PAGE, where: this.where });
    if (this.destroyed || gen !== this.gen) return;
    if (!this.where.length) this.unfiltered = page.total;
    this.grid.setCount(page.total);
    this.grid.fill(off, page.partitions);
    this.parts.length = page.total;
    page.partitions.forEach((p, j) => (this.parts[off + j] = p));
    this.refreshChosen();
    app.update();
  }

  // ensurePages reads the pages holding cells [first, end) not read yet.
  private ensurePages(first: number, end: number): void {
    if (this.loadingParts || end <= first) return;
    const gen = this.gen;
    for (let n = Math.floor(first / PAGE); n <= Math.floor((end - 1) / PAGE); n++) {
      if (this.pages.has(n)) continue;
      this.pages.add(n);
      this.loadPage(n, gen).catch((e) => {
        this.pages.delete(n);
        this.error = errorText(e);
        app.update();
      });
    }
  }

  /** Every cell's key is read: the grid fits one page (filters and slices work on it in the browser). */
  private whole(): boolean {
    return !this.where.length && this.grid.states.length <= PAGE;
  }

  // loadDynValues reads the values of the dynamic dimensions the backfill
  // targets (its key set versions), for the filter of a large grid.
  private async loadDynValues(cfg: PartitionsConfig): Promise<void> {
    for (const d of cfg.dims ?? []) {
      if (d.kind !== "dynamic" || this.dynValues[d.name]) continue;
      this.dynValues[d.name] = [];
      try {
        const sets = await api.keySets(this.st?.pipeline ?? "", d.name);
        const want = this.st?.spec.key_sets?.[d.name];
        const set = sets.versions.find((v) => v.version === want) ?? sets.versions[sets.versions.length - 1];
        this.dynValues[d.name] = set?.keys ?? [];
      } catch (e) {
        this.error = errorText(e);
      }
      app.update();
    }
  }

  // refreshChosen shows the newest state of the chosen partition, and its
  // run once it has one that is not shown (a cell picked before its page
  // arrived has no run id until then).
  private refreshChosen(): void {
    const c = this.chosen;
    if (!c) return;
    const next = refreshPick(c, this.parts, (k) => this.grid.indexOf(k));
    this.chosen = next;
    const run = next.partition.run_id;
    if (run && run !== c.partition.run_id && this.run?.run_id !== run) void this.loadRun();
  }

  private onNotice(n: Notice): void {
    if (n.kind === "review" && n.review) {
      // Pushed when the backfill became ready for review, was promoted,
      // refused, discarded or rolled back (from here or anywhere else).
      if (this.st) this.st.state = n.review.backfill.state;
      if (!this.review) {
        this.review = new ReviewPanel(this.id, () => this.zonePipeline ?? "UTC", () => app.update(), () => void this.refresh(true), n.review);
        if (n.review.backfill.state === "review") this.tab = "review";
      } else this.review.apply(n.review);
      void this.refresh(true);
    }
    if (n.kind === "progress" && n.progress && this.st) {
      this.st.progress = { ...n.progress, total: n.progress.total || this.st.total };
      if (n.progress.state) this.st.state = n.progress.state;
      if (FINAL_STATES.has(this.st.state)) void this.refresh(true);
    }
    const ev = n.event;
    if (ev && !ev.block) {
      // A run-level event: the partition's state in the grid.
      this.grid.setState(ev.partition, ev.state);
      const i = this.grid.indexOf(ev.partition);
      if (i >= 0) {
        const p = this.parts[i] ?? { key: ev.partition, interval: "", state: ev.state };
        this.parts[i] = { ...p, state: ev.state, run_id: ev.run_id || p.run_id, error: ev.error || (ev.state === "succeeded" ? undefined : p.error), duration_ms: ev.duration_ms || p.duration_ms };
        if (this.chosen && !this.chosen.pending && this.chosen.partition.key === ev.partition) this.chosen = { ...this.chosen, partition: this.parts[i]! };
      }
    }
    if (ev && this.chosen && ev.partition === this.chosen.partition.key) this.scheduleRunReload();
    app.update();
  }

  private scheduleRunReload(): void {
    clearTimeout(this.runTimer);
    this.runTimer = setTimeout(() => void this.loadRun(), 300);
  }

  private async pick(i: number): Promise<void> {
    this.chosen = pickCell(i, this.parts, this.grid.keys);
    this.run = undefined;
    this.runError = "";
    this.attempts = [];
    app.update();
    await this.loadRun();
  }

  private async loadRun(): Promise<void> {
    const p = this.chosen?.partition;
    if (!p?.run_id) return;
    try {
      const [run, runs] = await Promise.all([api.run(p.run_id), api.runs({ backfill: this.id, partition: p.key, limit: 100 })]);
      this.run = run;
      this.attempts = runs.runs.slice().sort((a, b) => (a.attempt ?? 1) - (b.attempt ?? 1) || a.started_at.localeCompare(b.started_at));
      this.runError = "";
    } catch (e) {
      this.runError = errorText(e);
    }
    app.update();
  }

  async act(action: BackfillAction): Promise<void> {
    this.acting = action;
    this.actionError = "";
    app.update();
    try {
      this.st = await api.backfillAction(this.id, action, this.st?.spec.into ?? "");
      // A retried partition stays failed until its new attempt starts (a
      // run of its own): the grid follows the run events, as the counts do.
      void this.loadParts();
    } catch (e) {
      this.actionError = errorText(e);
    } finally {
      this.acting = "";
      app.update();
    }
  }

  render(): TemplateResult {
    const st = this.st;
    if (!st) return html`<main class="page">${this.error ? html`<div class="error-box">${this.error}</div>` : html`<p class="muted">Loading ${this.id}…</p>`}</main>`;
    const zone = app.zone();
    const pr = st.progress;
    const total = Math.max(1, st.total);
    const pct = (n: number) => `${((100 * n) / total).toFixed(3)}%`;
    const final = FINAL_STATES.has(st.state);
    // The legend counts what the header counts: the status's tally of each
    // partition's latest state, not the grid's cells (which follow events).
    const counts = legendCounts(pr, st.total);
    const ended = reviewEnded(st);
    const canRetry = final && !ended && pr.failed + pr.cancelled > 0;
    const hovered: PartitionStatus | undefined = this.hover >= 0 ? (this.parts[this.hover] ?? { key: this.grid.keys[this.hover] ?? "", interval: "", state: STATES[this.grid.states[this.hover]] }) : undefined;
    return html`<main class="page backfill-page">
      <section class="page-head">
        <div>
          <h1><a href="/backfills" class="muted">Backfills</a> / <span class="mono">${st.id}</span></h1>
          <p><a href=${`/pipelines/${encodeURIComponent(st.pipeline)}`}>${st.pipeline}</a> · ${describeSpec(st.spec)}${st.spec.actor ? html` · <span data-testid="bf-actor">launched by ${st.spec.actor}</span>` : nothing}</p>
          <p class="small" data-testid="bf-version">${versionLine(st)}</p>
          <p class="muted small">created ${formatInstant(st.created_at, zone)} · updated ${formatInstant(st.updated_at, zone)} · times in ${zone}${st.message ? ` · ${st.message}` : ""}</p>
        </div>
        <div class="head-actions">
          <span class=${"tag big " + st.state} data-testid="bf-state">${st.state}</span>${st.spec.into ? html` <span class="env-tag" data-testid="bf-into">into ${st.spec.into.replace(/^env:/, "")}</span>` : nothing}
          ${st.state === "running" ? html`<button data-testid="bf-pause" data-env=${st.spec.into ? "1" : nothing} ?disabled=${!!this.acting} @click=${() => this.act("pause")}>Pause</button>` : nothing}
          ${!ended && (st.state === "paused" || st.state === "cancelled" || (st.state === "running" && !st.in_process)) ? html`<button data-testid="bf-resume" data-env=${st.spec.into ? "1" : nothing} ?disabled=${!!this.acting} @click=${() => this.act("resume")}>Resume</button>` : nothing}
          ${!final ? html`<button class="danger" data-testid="bf-cancel" data-env=${st.spec.into ? "1" : nothing} ?disabled=${!!this.acting || this.confirmCancel} @click=${() => ((this.confirmCancel = true), app.update())}>Cancel</button>` : nothing}
          ${!final && this.confirmCancel ? cancelConfirm(st.total - (pr.succeeded + pr.failed + pr.skipped + pr.cancelled), st.total, (yes) => {
            this.confirmCancel = false;
            if (yes) void this.act("cancel");
            else app.update();
          }) : nothing}
          ${canRetry ? html`<button class="primary" data-testid="bf-retry" ?disabled=${!!this.acting} @click=${() => this.act("retry")} title="with the backfill's own pipeline version">Retry ${pr.failed + pr.cancelled} failed or cancelled</button>` : nothing}
          ${canRetry && st.files_changed ? html`<button data-testid="bf-retry-current" ?disabled=${!!this.acting} @click=${() => this.act("retry-current")} title="the files changed since the backfill's version: run the retried partitions with the current code">Retry with the current code</button>` : nothing}
          ${st.state === "needs_attention" ? html`<button class="primary" data-testid="bf-promote-anyway" ?disabled=${!!this.acting} @click=${() => this.act("promote-anyway")} title="make the backfill's versions current over the newer ones">Promote anyway</button><button data-testid="bf-keep-newer" ?disabled=${!!this.acting} @click=${() => this.act("keep-newer")} title="discard the backfill's versions of these partitions">Keep newer</button>` : nothing}
        </div>
      </section>
      ${this.error ? html`<div class="error-box">${this.error}</div>` : nothing}
      ${ended ? html`<p class="ended-box small" data-testid="bf-ended">${ended}</p>` : nothing}
      ${this.actionError ? html`<div class="error-box" data-testid="bf-action-error">${this.actionError}</div>` : nothing}
      ${final && pr.failed + pr.cancelled > 0 && st.retry_hint ? html`<div class="banner-inline small" data-testid="bf-retry-hint">${st.retry_hint}</div>` : nothing}
      ${st.conflicts?.length ? conflictsView(st) : nothing}
      ${final && pr.failed + pr.cancelled > 0 ? (void this.failures.load(`${st.state}:${pr.failed}:${pr.cancelled}:${pr.succeeded}`), this.failures.render(canRetry, !!st.files_changed)) : nothing}
      <section class="progress-box" data-testid="progress">
        <div class="progressbar" role="progressbar" aria-valuemin="0" aria-valuemax=${st.total} aria-valuenow=${pr.succeeded + pr.failed + pr.skipped + pr.cancelled}>
          <span class="seg succeeded" style=${`width:${pct(pr.succeeded)}`}></span><span class="seg skipped" style=${`width:${pct(pr.skipped)}`}></span><span class="seg failed" style=${`width:${pct(pr.failed)}`}></span><span class="seg cancelled" style=${`width:${pct(pr.cancelled)}`}></span><span class="seg running" style=${`width:${pct(pr.running)}`}></span>
        </div>
        <div class="progress-stats">
          <span data-testid="progress-text"><b>${(pr.succeeded + pr.failed + pr.skipped + pr.cancelled).toLocaleString("en-US")}</b> of ${st.total.toLocaleString("en-US")} finished</span>
          <span class="c-succeeded">${pr.succeeded.toLocaleString("en-US")} succeeded</span>
          <span class="c-failed">${pr.failed.toLocaleString("en-US")} failed</span>
          <span class="c-running">${pr.running.toLocaleString("en-US")} running</span>
          <span class="c-skipped">${pr.skipped.toLocaleString("en-US")} skipped</span>
          <span class="c-cancelled">${pr.cancelled.toLocaleString("en-US")} cancelled</span>
          ${pr.engine ? html`<span class="tag" data-testid="backfill-engine" title="how the Go blocks run">${pr.engine}</span>` : nothing}
          <span class="muted">${pr.rate_per_min ? `${pr.rate_per_min.toFixed(1)}/min · ` : ""}${!final && pr.eta ? `ETA ${formatDuration(nsToMs(pr.eta))} · ` : ""}elapsed ${formatDuration(nsToMs(pr.elapsed))}</span>
        </div>
      </section>
      ${this.review
        ? html`<nav class="tabs" data-testid="bf-tabs">
            <button class=${this.tab === "grid" ? "active" : ""} data-testid="tab-grid" @click=${() => ((this.tab = "grid"), app.update())}>Partitions</button>
            <button class=${this.tab === "review" ? "active" : ""} data-testid="tab-review" @click=${() => ((this.tab = "review"), app.update())}>Review</button>
          </nav>`
        : nothing}
      ${this.review && this.tab === "review" ? this.review.render() : this.laidOut ? this.gridBox(counts, hovered) : html`<p class="muted" data-testid="grid-loading">Loading the partitions…</p>`}
      ${this.chosen && this.tab === "grid" ? this.drawer(this.chosen, zone) : nothing}
    </main>`;
  }

  private gridBox(counts: ReturnType<typeof legendCounts>, hovered: PartitionStatus | undefined): TemplateResult {
    // The calendars color one cell per time key: a pipeline with value
    // dimensions has several cells per day, which its grid filters instead.
    const cells = !!this.cfg && dimensional(this.cfg);
    const days = !cells && this.interval === "day" && this.grid.keys.length > 0 && this.grid.keys.length <= 20000;
    if (days) {
      const keys = this.grid.keys.filter((k) => /^\d{4}-\d{2}-\d{2}$/.test(k)).sort();
      if (keys.length) this.calendar.setRange(keys[0], keys[keys.length - 1]);
    }
    const hours = !cells && this.interval === "hour" && this.grid.keys.length > 0 && this.grid.keys.length <= 2 * 366 * 24;
    if (hours) {
      // The grid's keys arrive page by page into an array sized first by
      // the count: lay out again whenever more of them are known (keyed on
      // the length alone, a layout made before the first page stayed empty).
      let known = 0;
      for (const k of this.grid.keys) if (k) known++;
      if (this.hourKeys !== known) {
        this.hourKeys = known;
        this.hourCalendar.setKeys(this.grid.keys);
      } else this.hourCalendar.draw();
    }
    return html`${days ? html`<section class="calendar-box"><h3 class="small muted">Calendar (${this.zonePipeline ?? ""})</h3>${this.calendar.el}</section>` : nothing}
      ${hours ? html`<section class="calendar-box"><h3 class="small muted">Calendar, a row of 24 hours a day (${this.zonePipeline ?? ""})</h3>${this.hourCalendar.el}</section>` : nothing}
      <section class="grid-box">
        ${this.cfg && dimensional(this.cfg) ? this.filterBar(this.cfg) : nothing}
        ${this.cfg && this.slice && this.grid.states.length <= PAGE ? this.slices(this.cfg) : nothing}
        <div class="legend">
          ${STATES.filter((s) => s !== "paused" || counts[s]).map((s) => html`<span><i style=${`background:${stateColor(s)}`}></i>${s} ${counts[s].toLocaleString("en-US")}</span>`)}
        </div>
        ${this.grid.el}
        <div class="hover-line mono small" data-testid="hover-line">${hovered ? html`${hovered.key} · ${hovered.state}${hovered.duration_ms ? ` · ${formatDuration(hovered.duration_ms)}` : ""}${hovered.error ? ` · ${hovered.error}` : ""}` : html`<span class="muted">hover or use the arrow keys; click or Enter opens a partition</span>`}</div>
      </section>`;
  }

  // filterBar filters the grid by the value dimensions: a cell of another
  // value stays in place, drawn faint, so the grid keeps its shape.
  private filterBar(cfg: PartitionsConfig): TemplateResult {
    const whole = this.whole();
    if (!whole) void this.loadDynValues(cfg);
    const values = whole ? dimValues(cfg, this.grid.keys) : Object.fromEntries((cfg.dims ?? []).map((d) => [d.name, d.kind === "static" ? (d.values ?? []) : (this.dynValues[d.name] ?? [])]));
    const set = (dim: string, v: string) => {
      this.filter = { ...this.filter, [dim]: v };
      const any = Object.values(this.filter).some((x) => x);
      if (!this.where.length && this.unfiltered <= PAGE && this.grid.states.length <= PAGE) {
        this.hiddenCells = this.grid.setFilter(any ? (k) => !matchesFilter(cfg, k, this.filter) : undefined);
      } else {
        // A large grid: the server answers the filtered cells, a page at a time.
        this.where = Object.entries(this.filter)
          .filter(([, x]) => x)
          .map(([d, x]) => `${d}=${x}`);
        this.grid.setFilter(undefined);
        this.hiddenCells = 0;
        this.parts = [];
        this.grid.setCount(0);
        void this.loadParts();
      }
      app.update();
    };
    const sliceBy = (dim: string) => {
      this.slice = dim;
      // The sliced dimension is shown whole, a row per value: its filter goes.
      if (dim && this.filter[dim]) set(dim, "");
      app.update();
    };
    return html`<div class="dim-filter small" data-testid="dim-filter">
      <label
        >slice by
        <select data-testid="dim-slice" ?disabled=${this.grid.states.length > PAGE} title=${this.grid.states.length > PAGE ? `filter to at most ${PAGE.toLocaleString("en-US")} cells to slice` : ""} @change=${(e: Event) => sliceBy((e.target as HTMLSelectElement).value)}>
          <option value="" ?selected=${!this.slice}>none</option>
          ${(cfg.dims ?? []).map((d) => html`<option value=${d.name} ?selected=${this.slice === d.name}>${d.name}</option>`)}
        </select></label
      >
      ${(cfg.dims ?? []).filter((d) => d.name !== this.slice).map(
        (d) => html`<label
          >${d.name}
          <select data-testid=${`dim-filter-${d.name}`} @change=${(e: Event) => set(d.name, (e.target as HTMLSelectElement).value)}>
            <option value="" ?selected=${!this.filter[d.name]}>all</option>
            ${values[d.name].map((v) => html`<option value=${v} ?selected=${this.filter[d.name] === v}>${v}</option>`)}
          </select></label
        >`,
      )}
      ${this.hiddenCells ? html`<span class="muted" data-testid="dim-filter-count">showing ${(this.grid.keys.length - this.hiddenCells).toLocaleString("en-US")} of ${this.grid.keys.length.toLocaleString("en-US")} cells</span>` : nothing}
      ${this.where.length ? html`<span class="muted" data-testid="dim-filter-count">showing ${this.grid.states.length.toLocaleString("en-US")} of ${this.unfiltered.toLocaleString("en-US")} cells</span>` : nothing}
    </div>`;
  }

  // slices draws a row per value of the slice dimension: the worst state
  // of its cells on each time key (over the other dimensions' filtered
  // values), as a calendar for days and a strip of time keys otherwise.
  // Clicking a day opens its first cell that passes the filter.
  private slices(cfg: PartitionsConfig): TemplateResult {
    const MAX = 50;
    const sl = sliceStates(cfg, this.grid.keys, (i) => this.parts[i]?.state ?? STATES[this.grid.states[i]], this.slice, this.filter);
    const shown = sl.values.slice(0, MAX);
    const dayCal = this.interval === "day" && sl.times.length > 0 && sl.times.length <= 20000;
    const at = (cfg.dims ?? []).findIndex((d) => d.name === this.slice);
    const open = (value: string, time: string) => {
      const i = this.grid.keys.findIndex((k) => {
        const c = k ? splitCell(cfg, k) : null;
        return !!c && c.time === time && c.values[at] === value && matchesFilter(cfg, k, { ...this.filter, [this.slice]: "" });
      });
      if (i >= 0) void this.pick(i);
    };
    const calendar = (value: string): CalendarCanvas => {
      let cal = this.sliceCals.get(value);
      if (!cal) {
        cal = new CalendarCanvas(`slice-calendar-${value}`, false);
        cal.onPick = (k) => open(value, k);
        this.sliceCals.set(value, cal);
      }
      const row = sl.states.get(value);
      cal.color = (k) => {
        const st = row?.get(k);
        return st ? stateColor(st) : undefined;
      };
      cal.setRange(sl.times[0], sl.times[sl.times.length - 1]);
      return cal;
    };
    return html`<section class="slices" data-testid="slices">
      ${shown.map(
        (v) => html`<div class="slice-row" data-testid="slice-row" data-value=${v}>
          <h4 class="mono small">${this.slice} = ${v} <span class="muted" data-testid="slice-count">${(sl.counts.get(v) ?? 0).toLocaleString("en-US")} cells</span></h4>
          ${dayCal
            ? calendar(v).el
            : html`<div class="slice-strip">${sl.times.map((t) => {
                const st = sl.states.get(v)?.get(t);
                return html`<i class="slice-cell" title=${`${t} · ${st ?? "none"}`} style=${`background:${st ? stateColor(st) : "#eef0f3"}`} @click=${() => open(v, t)}></i>`;
              })}</div>`}
        </div>`,
      )}
      ${sl.values.length > MAX ? html`<p class="muted small">the first ${MAX} of ${sl.values.length} values of ${this.slice}; filter to see others in the grid below</p>` : nothing}
    </section>`;
  }

  private drawer(c: PartitionPick, zone: string): TemplateResult {
    const p = c.partition;
    const r = this.run;
    return html`<section class="drawer" data-testid="partition-drawer">
      <header>
        <h2 class="mono">${p.key}</h2>
        <span class=${"tag " + p.state}>${p.state}</span>
        ${p.duration_ms ? html`<span class="muted">${formatDuration(p.duration_ms)}</span>` : nothing}
        <span class="spacer"></span>
        <button class="link" @click=${() => ((this.chosen = undefined), app.update())}>close</button>
      </header>
      ${p.error ? html`<div class="error-box small">${p.error}</div>` : nothing}
      ${c.pending ? html`<p class="muted">Loading the partition…</p>` : !p.run_id ? html`<p class="muted">Not run yet.</p>` : nothing}
      ${this.runError ? html`<div class="error-box">${this.runError}</div>` : nothing}
      ${this.attempts.length > 1
        ? html`<h3>Attempts (${this.attempts.length})</h3>
            <table class="data small" data-testid="bf-attempts">
              <thead><tr><th class="num">#</th><th>state</th><th>started (${zone})</th><th>error</th><th>run</th></tr></thead>
              <tbody>${this.attempts.map((a, i) => html`<tr data-testid="bf-attempt">
                <td class="num">${a.attempt ?? i + 1}</td>
                <td><span class=${"tag " + a.state}>${a.state}</span></td>
                <td class="mono">${formatInstant(a.started_at, zone)}</td>
                <td class="mono wrap">${a.error ?? ""}</td>
                <td><a class="mono" data-testid="bf-attempt-run" href=${runHref(a.run_id)}>${a.run_id}</a></td>
              </tr>`)}</tbody>
            </table>`
        : nothing}
      ${r
        ? html`<p class="muted small">run <a class="mono" data-testid="open-run" href=${runHref(r.run_id)}>${r.run_id}</a>${r.engine ? ` · ${r.engine}` : ""} · started ${formatInstant(r.started_at, zone, { ms: true })} · ${formatDuration(r.duration_ms)} · <a href=${runHref(r.run_id)}>open the run page ▸</a></p>
            <h3>Timeline</h3>
            ${ganttView(r.blocks, zone)}
            <h3>Block runs</h3>
            ${blockTable(r, zone)}
            <h3>Logs</h3>
            ${logsView(r, this.logView, (v) => ((this.logView = v), app.update()))}`
        : nothing}
    </section>`;
  }
}

// conflictsView lists what the backfill did not make current because newer
// work was, with both versions.
function conflictsView(st: BackfillStatus): TemplateResult {
  const v = (n: number) => (n === 0 ? "none" : n < 0 ? "an earlier version" : `v${n}`);
  return html`<section class="error-box" data-testid="bf-conflicts">
    <p><b>${st.progress.conflicts ?? st.conflicts?.length} partition(s) were not made current:</b> newer work was published during the backfill. Promote the backfill's versions anyway, or keep the newer ones.</p>
    <table class="small"><thead><tr><th>partition</th><th>product</th><th>backfill's</th><th>planned against</th><th>current (newer)</th></tr></thead>
      <tbody>${(st.conflicts ?? []).map((c) => html`<tr><td class="mono">${c.partition}</td><td>${c.product}</td><td>v${c.version}</td><td>${v(c.based_on)}</td><td>${v(c.current)}</td></tr>`)}</tbody>
    </table>
  </section>`;
}

/** Focuses an element when it first renders (a stable callback: lit-html calls it once). */
const focusOnce = (el?: Element) => (el as HTMLElement | undefined)?.focus();

/** The confirmation Cancel asks for: what it stops, what stays. */
function cancelConfirm(unfinished: number, total: number, answer: (yes: boolean) => void): TemplateResult {
  return html`<div class="confirm-box" role="alertdialog" aria-label="cancel the backfill?" data-testid="bf-cancel-confirm">
    Cancel ${unfinished.toLocaleString("en-US")} unfinished partition${unfinished === 1 ? "" : "s"} of ${total.toLocaleString("en-US")}? Running ones stop; finished ones keep their versions. Resume or retry can run them later.
    <button class="danger" data-testid="bf-cancel-yes" @click=${() => answer(true)}>Yes, cancel them</button>
    <button data-testid="bf-cancel-no" @click=${() => answer(false)} ${ref(focusOnce)}>Keep running</button>
  </div>`;
}
