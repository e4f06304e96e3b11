// Pure logic of the Runs and run pages: the list's filters as a URL query
// (so a filtered list is a link), the run's failure with its block and
// line, and the search over its logs.

import type { RunQuery } from "./api";
import type { BlockRun, RunDetail } from "./types";

/** Origins a run can be filtered by, as GET /runs?origin= takes them. */
export const ORIGINS = ["editor", "cli", "api", "backfill", "trigger", "freshness"] as const;
/** Run states a run can be filtered by. */
export const RUN_STATES = ["running", "succeeded", "failed", "cancelled", "conflict"] as const;
export const RUNS_PAGE = 50;

const FILTER_KEYS = ["pipeline", "state", "origin", "partition", "backfill"] as const;

/** The runs list's query from a page URL's search params. */
export function queryFromParams(p: URLSearchParams): RunQuery {
  const q: RunQuery = { limit: RUNS_PAGE, offset: Math.max(0, Math.floor(+(p.get("offset") ?? 0)) || 0) };
  for (const k of FILTER_KEYS) {
    const v = p.get(k);
    if (v) q[k] = v;
  }
  return q;
}

/** The page URL of a runs list query (empty filters and offset 0 left out). */
export function runsHref(q: RunQuery): string {
  const u = new URLSearchParams();
  for (const k of FILTER_KEYS) if (q[k]) u.set(k, q[k]!);
  if (q.offset) u.set("offset", String(q.offset));
  const s = u.toString();
  return "/runs" + (s ? "?" + s : "");
}

/** The link to a run's page, focused on one block when given. */
export function runHref(runId: string, block?: string): string {
  return `/runs/${encodeURIComponent(runId)}` + (block ? `?block=${encodeURIComponent(block)}` : "");
}

export const blockName = (b: Pick<BlockRun, "block" | "child">) => (b.child ? `${b.block}[${b.child}]` : b.block);

export interface Failure {
  block: string; // block[child]
  blockId: string;
  line?: number;
  message: string;
}

/**
 * The failures of a run, first the blocks that failed (with their line), then
 * cancellations; a run-level error with no failed block (a publish failure)
 * is its own entry.
 */
export function failures(r: RunDetail): Failure[] {
  const out: Failure[] = [];
  // A cancelled run says who cancelled it first; its blocks only say "interrupted".
  if (r.state === "cancelled" && r.error) out.push({ block: "", blockId: "", message: r.error });
  for (const want of ["failed", "cancelled", "conflict"]) {
    for (const b of r.blocks) {
      if (b.state === want && b.error) out.push({ block: blockName(b), blockId: b.block, line: b.error_line || undefined, message: b.error });
    }
  }
  if (!out.length && r.error) out.push({ block: "", blockId: "", message: r.error });
  return out;
}

export interface LogHit {
  block: string; // block[child]
  blockId: string;
  lines: { n: number; text: string; match: boolean }[];
  matches: number;
}

/** The run log's filters: a minimum level, one block, and a text search. */
export interface LogFilter {
  level: "" | "info" | "warn" | "error"; // "" keeps every line, printed output too
  block: string; // a block id; "" for all
}

const LEVELS = { info: 1, warn: 2, error: 3 } as const;

/** The level of a ctx.Log line ("<time> warn msg"); "" for printed output. */
export function lineLevel(text: string): "" | "info" | "warn" | "error" {
  const m = /^\S+ (info|warn|error) /.exec(text);
  return m ? (m[1] as "info" | "warn" | "error") : "";
}

/**
 * The logs of a run's blocks, filtered by a case-insensitive search: only
 * the lines that match (numbered from 1 in their block's log), and blocks
 * with no match left out. An empty search keeps every line. A level keeps
 * the ctx.Log lines at that level or above; a block keeps its lines only.
 */
export function searchLogs(blocks: BlockRun[], search: string, filter: LogFilter = { level: "", block: "" }): { hits: LogHit[]; total: number } {
  const needle = search.trim().toLowerCase();
  const min = filter.level ? LEVELS[filter.level] : 0;
  const hits: LogHit[] = [];
  let total = 0;
  for (const b of blocks) {
    if (!b.log || (filter.block && b.block !== filter.block)) continue;
    const lines = b.log.replace(/\n$/, "").split("\n");
    const h: LogHit = { block: blockName(b), blockId: b.block, lines: [], matches: 0 };
    lines.forEach((text, i) => {
      if (min) {
        const lv = lineLevel(text);
        if (!lv || LEVELS[lv] < min) return;
      }
      const match = needle !== "" && text.toLowerCase().includes(needle);
      if (match) h.matches++;
      if (!needle || match) h.lines.push({ n: i + 1, text, match });
    });
    total += h.matches;
    if (h.lines.length) hits.push(h);
  }
  return { hits, total };
}

/** Splits text around case-insensitive occurrences of needle, for highlighting. */
export function splitMatches(text: string, needle: string): { text: string; match: boolean }[] {
  const n = needle.trim().toLowerCase();
  if (!n) return [{ text, match: false }];
  const out: { text: string; match: boolean }[] = [];
  const low = text.toLowerCase();
  let i = 0;
  for (let j = low.indexOf(n); j >= 0; j = low.indexOf(n, i)) {
    if (j > i) out.push({ text: text.slice(i, j), match: false });
    out.push({ text: text.slice(j, j + n.length), match: true });
    i = j + n.length;
  }
  if (i < text.length) out.push({ text: text.slice(i), match: false });
  return out;
}
