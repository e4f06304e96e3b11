// A run's block runs as a table and its logs with a search box: shared by
// the run page and the backfill page's partition drawer.

import { html, nothing, type TemplateResult } from "lit-html";
import { blockName, searchLogs, splitMatches, type LogFilter } from "../runs";
import { formatDuration, formatInstant, logInZone } from "../time";
import type { RunDetail } from "../types";
import { app } from "../app";

/** One row per block or dynamic child; focus highlights one block's rows. */
export function blockTable(r: RunDetail, zone: string, focus = ""): TemplateResult {
  const workers = r.blocks.some((b) => b.worker); // scale-out: which worker ran each block
  return html`<table class="data" data-testid="block-runs">
    <thead><tr><th>block</th><th>state</th><th class="num">attempt</th><th class="num">rows</th><th>started (${zone})</th><th class="num">duration</th>${workers ? html`<th>worker</th><th>engine</th>` : nothing}<th>error</th></tr></thead>
    <tbody>
      ${r.blocks.map(
        (b) => html`<tr class=${b.block === focus ? "focus" : ""} data-block=${b.block} data-testid=${"block-run-" + blockName(b)}>
          <td class="mono">${blockName(b)}</td>
          <td><span class=${"tag " + b.state}>${b.state}</span></td>
          <td class="num">${b.attempt}</td>
          <td class="num">${b.rows.toLocaleString("en-US")}</td>
          <td class="small">${b.started_at ? formatInstant(b.started_at, zone, { ms: true }).slice(11) : ""}</td>
          <td class="num">${formatDuration(b.duration_ms)}</td>
          ${workers
            ? html`<td class="small mono" data-testid="block-worker">${b.worker ?? ""}</td>
                <td class="small" data-testid="block-engine">${b.engine ?? ""}</td>`
            : nothing}
          <td class="small error-text">${b.error ?? ""}${b.error_line ? ` (line ${b.error_line})` : ""}</td>
        </tr>`,
      )}
    </tbody>
  </table>`;
}

/** A run log's view state: the search and the filters. */
export interface LogView extends LogFilter {
  search: string;
}

export const allLogs = (): LogView => ({ search: "", level: "", block: "" });

/** The logs of every block, filtered by level, block and search (matches highlighted). */
export function logsView(r: RunDetail, v: LogView, onChange: (v: LogView) => void, zone = app.zone()): TemplateResult {
  // ctx.Log lines start with their instant in UTC: shown, and searched, in the display zone.
  const { hits, total } = searchLogs(
    r.blocks.map((b) => (b.log ? { ...b, log: logInZone(b.log, zone) } : b)),
    v.search,
    v,
  );
  const any = r.blocks.some((b) => b.log);
  const logBlocks = [...new Set(r.blocks.filter((b) => b.log).map((b) => b.block))];
  const filtered = v.search.trim() || v.level || v.block;
  return html`<div class="logs" data-testid="run-logs">
    <div class="logs-head">
      <input type="search" data-testid="log-search" placeholder="search the logs" .value=${v.search} @input=${(e: Event) => onChange({ ...v, search: (e.target as HTMLInputElement).value })} />
      <select data-testid="log-level" aria-label="log level" @change=${(e: Event) => onChange({ ...v, level: (e.target as HTMLSelectElement).value as LogView["level"] })}>
        <option value="" ?selected=${v.level === ""}>every line</option>
        <option value="info" ?selected=${v.level === "info"}>info and above</option>
        <option value="warn" ?selected=${v.level === "warn"}>warn and error</option>
        <option value="error" ?selected=${v.level === "error"}>errors only</option>
      </select>
      <select data-testid="log-block" aria-label="block" @change=${(e: Event) => onChange({ ...v, block: (e.target as HTMLSelectElement).value })}>
        <option value="" ?selected=${v.block === ""}>all blocks</option>
        ${logBlocks.map((b) => html`<option value=${b} ?selected=${v.block === b}>${b}</option>`)}
      </select>
      <span class="muted small" data-testid="log-count">${!any ? "no block wrote a log" : filtered ? `${total || hits.reduce((n, h) => n + h.lines.length, 0)} matching line(s) in ${hits.length} block(s)` : `${hits.length} block(s) wrote logs`}</span>${any ? html`<span class="muted small"> · times in <b data-testid="log-zone">${zone}</b></span>` : nothing}
    </div>
    ${hits.map(
      (h) => html`<div class="log-block" data-testid=${"log-" + h.block}>
        <div class="mono small muted">${h.block}</div>
        <pre class="stdout">${h.lines.map((l) => html`<span class="log-line"><span class="ln">${l.n}</span>${splitMatches(l.text, v.search).map((p) => (p.match ? html`<mark>${p.text}</mark>` : p.text))}\n</span>`)}</pre>
      </div>`,
    )}
  </div>`;
}
