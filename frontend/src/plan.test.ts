import { describe, expect, it } from "vitest";
import { describeSpec, productStates, summarizePlan } from "./plan";
import type { Plan } from "./types";

const plan: Plan = {
  spec: { pipeline: "clv", from: "2024-01-01", to: "2024-01-05", reprocess: "missing" },
  from: "2024-01-01",
  to: "2024-01-05",
  total: 5,
  to_run: 4,
  to_skip: 1,
  by_state: { current: 1, missing: 4 },
  by_product: { clv__raw_orders: [4, 1], daily_customer_metrics: [4, 1], clv__weekly_customer_rollup: [1, 0] },
  products: ["clv__raw_orders", "daily_customer_metrics"],
  partitions: [
    { key: "2024-01-01", interval: "day", start: "", state: "missing", action: "run", products: { clv__raw_orders: "missing", daily_customer_metrics: "missing" } },
    { key: "2024-01-02", interval: "day", start: "", state: "current v1", action: "skip", products: { clv__raw_orders: "current v1", daily_customer_metrics: "stale v1" } },
  ],
  rollups: [{ key: "2024-W01", interval: "week", start: "", state: "missing", action: "run", products: { clv__weekly_customer_rollup: "missing" } }],
};

describe("summarizePlan", () => {
  const s = summarizePlan(plan);
  it("counts", () => {
    expect(s.headline).toBe("4 partitions to run, 1 to skip of 5 (2024-01-01 … 2024-01-05); 1 rollup to run of 1");
    expect(s.states).toEqual([
      { state: "missing", count: 4 },
      { state: "failed", count: 0 },
      { state: "stale", count: 0 },
      { state: "current", count: 1 },
    ]);
  });
  it("lists the pipeline's products first, then rollups", () => {
    expect(s.products).toEqual([
      { product: "clv__raw_orders", run: 4, skip: 1, rollup: false },
      { product: "daily_customer_metrics", run: 4, skip: 1, rollup: false },
      { product: "clv__weekly_customer_rollup", run: 1, skip: 0, rollup: true },
    ]);
  });
  it("counts every rollup, not only the page's", () => {
    const paged = summarizePlan({ ...plan, rollups_total: 10, rollups_to_run: 4 });
    expect(paged.headline).toBe("4 partitions to run, 1 to skip of 5 (2024-01-01 … 2024-01-05); 4 rollups to run of 10");
    expect(paged.rollups).toBe(10);
  });
  it("tolerates nulls from an empty plan", () => {
    const e = summarizePlan({ ...plan, total: 0, to_run: 0, to_skip: 0, by_state: {}, by_product: {}, products: null, partitions: null, rollups: null });
    expect(e.products).toEqual([]);
    expect(e.headline).toBe("0 partitions to run, 0 to skip of 0 (2024-01-01 … 2024-01-05)");
  });
});

it("reads one product's states, bucketing current versions", () => {
  expect(Object.fromEntries(productStates(plan.partitions!, "daily_customer_metrics"))).toEqual({ "2024-01-01": "missing", "2024-01-02": "stale" });
  expect(Object.fromEntries(productStates(plan.partitions!, "clv__raw_orders"))).toEqual({ "2024-01-01": "missing", "2024-01-02": "current" });
});

it("describes a spec", () => {
  expect(describeSpec({ from: "2024-01", to: "2024-03", interval: "month", reprocess: "stale", concurrency: 4, rate_per_min: 60, publish: "atomic" })).toBe(
    "2024-01 … 2024-03 · month · reprocess stale · 4 at once · 60/min · atomic publish",
  );
});

it("describes a spec narrowed to some values and some blocks", () => {
  expect(describeSpec({ from: "2024-01-01", to: "2024-01-03", reprocess: "all", where: { region: ["us", "eu"] }, blocks: ["src"] })).toBe(
    "2024-01-01 … 2024-01-03 · where region=us,eu · blocks src only · reprocess all",
  );
});
