// Keys of pipelines partitioned by more than time (projects/partitions): a
// cell's key joins the time key and each value dimension's value with "|"
// in the declared order ("2024-03-10|eu|c42"). Time-only pipelines keep
// their keys, and every function here hands them to partitions.ts as they
// are. Pure.

import { isValidKey, latestPartition, shiftKey } from "./partitions";
import type { PartitionsConfig } from "./types";

export const KEY_SEP = "|";

/** Whether cfg has value dimensions. */
export function dimensional(cfg: PartitionsConfig): boolean {
  return (cfg.dims?.length ?? 0) > 0;
}

const hasTime = (cfg: PartitionsConfig) => cfg.interval !== "none";

/** A cell key cut into its time key ("" without time) and its values, or null when the part count is wrong. */
export function splitCell(cfg: PartitionsConfig, key: string): { time: string; values: string[] } | null {
  if (!dimensional(cfg)) return { time: key, values: [] };
  const parts = key.split(KEY_SEP);
  const n = cfg.dims!.length + (hasTime(cfg) ? 1 : 0);
  if (parts.length !== n) return null;
  if (!hasTime(cfg)) return { time: "", values: parts };
  const at = cfg.time_pos ?? 0;
  const time = parts[at];
  parts.splice(at, 1);
  return { time, values: parts };
}

/** The key of the cell at time with values (one per dimension, in order). */
export function joinCell(cfg: PartitionsConfig, time: string, values: readonly string[]): string {
  if (!dimensional(cfg)) return time;
  const parts = [...values];
  if (hasTime(cfg)) parts.splice(cfg.time_pos ?? 0, 0, time);
  return parts.join(KEY_SEP);
}

/** The layout of cfg's keys for messages: "DAY|region|customer". */
export function cellLayout(cfg: PartitionsConfig): string {
  const parts = (cfg.dims ?? []).map((d) => d.name);
  if (hasTime(cfg)) parts.splice(cfg.time_pos ?? 0, 0, cfg.interval.toUpperCase());
  return parts.join(KEY_SEP);
}

/** A value a key may hold: what projects/partitions.CheckValue accepts, roughly. */
function validValue(v: string): boolean {
  return v !== "" && !v.includes(KEY_SEP) && !v.includes(",") && !v.startsWith("@") && v.trim() === v;
}

/** Whether key names a cell of cfg: a valid time key and, per dimension, one of its values (any valid value for a dynamic one). */
export function isValidCell(cfg: PartitionsConfig, key: string): boolean {
  const c = splitCell(cfg, key);
  if (!c) return false;
  if (hasTime(cfg) && !isValidKey(cfg, c.time)) return false;
  return (cfg.dims ?? []).every((d, i) => validValue(c.values[i]) && (d.kind !== "static" || (d.values ?? []).includes(c.values[i])));
}

/** The cell n time steps from key, same values; null for a key that is not a cell. */
export function shiftCell(cfg: PartitionsConfig, key: string, n: number): string | null {
  const c = splitCell(cfg, key);
  if (!c || !hasTime(cfg)) return null;
  const t = shiftKey(cfg, c.time, n);
  return t === null ? null : joinCell(cfg, t, c.values);
}

/** The latest complete cell with the values of like (a cell key; the dimensions' first values when it is none). "" when there is none. */
export function latestCell(cfg: PartitionsConfig, now: Date | number, like = ""): string {
  if (!dimensional(cfg)) return latestPartition(cfg, now);
  const have = splitCell(cfg, like)?.values;
  const values = (cfg.dims ?? []).map((d, i) => have?.[i] || d.values?.[0] || "");
  if (values.some((v) => v === "")) return "";
  const time = hasTime(cfg) ? latestPartition(cfg, now) : "";
  if (hasTime(cfg) && !time) return "";
  return joinCell(cfg, time, values);
}

/** A filter of cells: dimension -> the one value kept ("" or absent: all). */
export type CellFilter = Record<string, string>;

/** Whether the cell key passes filter. */
export function matchesFilter(cfg: PartitionsConfig, key: string, filter: CellFilter): boolean {
  const c = splitCell(cfg, key);
  if (!c) return true; // a rollup of another shape: never hidden
  return (cfg.dims ?? []).every((d, i) => !filter[d.name] || c.values[i] === filter[d.name]);
}

/** Each dimension's values, declared (static) or as the keys show them (dynamic), in first-seen order. */
export function dimValues(cfg: PartitionsConfig, keys: readonly (string | undefined)[]): Record<string, string[]> {
  const dims = cfg.dims ?? [];
  const out: Record<string, string[]> = {};
  const seen = dims.map(() => new Set<string>());
  dims.forEach((d) => (out[d.name] = d.kind === "static" ? [...(d.values ?? [])] : []));
  for (const k of keys) {
    if (!k) continue;
    const c = splitCell(cfg, k);
    if (!c) continue;
    dims.forEach((d, i) => {
      if (d.kind === "static" || seen[i].has(c.values[i])) return;
      seen[i].add(c.values[i]);
      out[d.name].push(c.values[i]);
    });
  }
  return out;
}

/**
 * One dimension's where-field as typed ("eu, us", "@new", "" for all) to
 * the values sent as BackfillSpec.where[dim], as `--where dim=eu,us` reads
 * it: comma-separated, spaces around values dropped; [] means all.
 */
export function parseWhere(text: string): string[] {
  return text
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "");
}

/** The where-field text of values (the inverse of parseWhere). */
export function formatWhere(values: readonly string[] | undefined): string {
  return (values ?? []).join(",");
}

/** Why a where-field's values do not fit dimension d (a static one's values are known), or "". */
export function whereProblem(d: { name: string; kind: string; values?: string[] }, values: readonly string[]): string {
  for (const v of values) {
    if (v === "@new") {
      if (d.kind === "static") return `@new selects keys added to a dynamic dimension's key set; ${d.name} is static (values ${(d.values ?? []).join(", ")})`;
      continue;
    }
    if (!validValue(v)) return `${JSON.stringify(v)} is not a value: no "|", "," or leading "@"`;
    if (d.kind === "static" && !(d.values ?? []).includes(v)) return `${JSON.stringify(v)} is not a value of ${d.name}: its values: ${(d.values ?? []).join(", ")}`;
  }
  return "";
}

/** The order of states when cells of one slice share a time key: the first present colors it. */
const SLICE_ORDER = ["failed", "running", "conflict", "cancelled", "paused", "queued", "skipped", "succeeded"];

/** The worst of two states by SLICE_ORDER (an unknown one counts as queued). */
export function worseState(a: string | undefined, b: string): string {
  if (!a) return b;
  const rank = (s: string) => {
    const i = SLICE_ORDER.indexOf(s);
    return i < 0 ? SLICE_ORDER.indexOf("queued") : i;
  };
  return rank(b) < rank(a) ? b : a;
}

/**
 * The grid sliced by dimension dim: for each of its values (in first-seen
 * order, or declared for a static one), each time key's state, the worst
 * over the cells of that time and value that pass filter (the other
 * dimensions), and how many cells each value has. Rollups (a week of a day pipeline) are left out.
 */
export function sliceStates(
  cfg: PartitionsConfig,
  keys: readonly (string | undefined)[],
  stateOf: (i: number) => string,
  dim: string,
  filter: CellFilter,
): { values: string[]; times: string[]; states: Map<string, Map<string, string>>; counts: Map<string, number> } {
  const at = (cfg.dims ?? []).findIndex((d) => d.name === dim);
  const values = at >= 0 ? [...dimValues(cfg, keys)[dim]] : [];
  const states = new Map<string, Map<string, string>>(values.map((v) => [v, new Map()]));
  const counts = new Map<string, number>(values.map((v) => [v, 0]));
  const times: string[] = [];
  const seenTime = new Set<string>();
  if (at < 0) return { values, times, states, counts };
  keys.forEach((k, i) => {
    if (!k) return;
    const c = splitCell(cfg, k);
    if (!c || (hasTime(cfg) && !isValidKey(cfg, c.time)) || !matchesFilter(cfg, k, { ...filter, [dim]: "" })) return;
    if (!seenTime.has(c.time)) {
      seenTime.add(c.time);
      times.push(c.time);
    }
    const row = states.get(c.values[at]);
    if (!row) return;
    row.set(c.time, worseState(row.get(c.time), stateOf(i)));
    counts.set(c.values[at], (counts.get(c.values[at]) ?? 0) + 1);
  });
  times.sort();
  return { values, times, states, counts };
}
