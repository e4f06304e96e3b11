// Summaries of a backfill's dry-run plan and of product partition states,
// as the backfill page and the products' status strips show them.

import type { Plan, PlannedPartition } from "./types";

/** Buckets of a partition's state today, in display order. */
export const PLAN_STATES = ["missing", "failed", "stale", "current"] as const;

/** "current v3" and "stale v1" name their version; the bucket is the first word. */
export function stateBucket(s: string): string {
  return s.split(" ")[0];
}

export interface ProductRow {
  product: string;
  run: number;
  skip: number;
  rollup: boolean;
}

export interface PlanSummary {
  total: number;
  toRun: number;
  toSkip: number;
  rollups: number;
  rollupsToRun: number;
  states: { state: string; count: number }[];
  products: ProductRow[];
  headline: string;
}

export function summarizePlan(p: Plan): PlanSummary {
  const states = PLAN_STATES.map((s) => ({ state: s as string, count: p.by_state?.[s] ?? 0 }));
  for (const [s, n] of Object.entries(p.by_state ?? {})) if (!(PLAN_STATES as readonly string[]).includes(s)) states.push({ state: s, count: n });
  const fine = p.products ?? [];
  const products: ProductRow[] = fine.map((name) => {
    const [run, skip] = p.by_product?.[name] ?? [0, 0];
    return { product: name, run, skip, rollup: false };
  });
  for (const [name, [run, skip]] of Object.entries(p.by_product ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    if (!fine.includes(name)) products.push({ product: name, run, skip, rollup: true });
  }
  // The plan lists the rollups of its page of partitions; its totals count them all.
  const listed = p.rollups ?? [];
  const rollups = p.rollups_total ?? listed.length;
  const rollupsToRun = p.rollups_to_run ?? listed.filter((r) => r.action === "run").length;
  const n = (x: number, what: string) => `${x.toLocaleString("en-US")} ${what}${x === 1 ? "" : "s"}`;
  let headline = `${n(p.to_run, "partition")} to run, ${p.to_skip.toLocaleString("en-US")} to skip of ${p.total.toLocaleString("en-US")} (${p.from} … ${p.to})`;
  if (rollups) headline += `; ${n(rollupsToRun, "rollup")} to run of ${rollups.toLocaleString("en-US")}`;
  return { total: p.total, toRun: p.to_run, toSkip: p.to_skip, rollups, rollupsToRun, states, products, headline };
}

/** The state of one product in each planned partition: key -> missing | failed | stale | current. */
export function productStates(parts: PlannedPartition[], product: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of parts) {
    const s = p.products?.[product];
    if (s !== undefined) out.set(p.key, stateBucket(s));
  }
  return out;
}

/** Spec fields as a short line: "2024-01-01 … 2024-01-31 · day · America/New_York · missing · 4 at once". */
export function describeSpec(s: { from: string; to: string; interval?: string; zone?: string; reprocess?: string; concurrency?: number; rate_per_min?: number; publish?: string; blocks?: string[]; where?: Record<string, string[]> }): string {
  const parts = [`${s.from} … ${s.to}`];
  for (const [d, vs] of Object.entries(s.where ?? {})) parts.push(`where ${d}=${vs.join(",")}`);
  if (s.interval) parts.push(s.interval);
  if (s.zone) parts.push(s.zone);
  if (s.blocks?.length) parts.push(`blocks ${s.blocks.join(", ")} only`);
  parts.push(`reprocess ${s.reprocess || "missing"}`);
  if (s.concurrency) parts.push(`${s.concurrency} at once`);
  if (s.rate_per_min) parts.push(`${s.rate_per_min}/min`);
  if (s.publish === "atomic") parts.push("atomic publish");
  return parts.join(" · ");
}
