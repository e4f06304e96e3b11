import { describe, expect, it } from "vitest";
import { getUpstream, setUpstream } from "./yaml_edit";

const doc = `# Customer lifetime value.
partitions:
  interval: day
blocks:
  - id: raw_orders
    # Go loader: synthetic orders.
  - id: daily_customer_metrics
    upstream: [raw_orders]
    product: daily_customer_metrics
  - id: clv
    upstream:
      - daily_customer_metrics
    dynamic: false
  - id: segments
    upstream: [clv] # fan out
    dynamic: true
variables:
  margin: "0.32"
`;

describe("setUpstream", () => {
  it("rewrites a flow list", () => {
    const out = setUpstream(doc, "segments", ["clv", "raw_orders"]);
    expect(out).toContain("  - id: segments\n    upstream: [clv, raw_orders]\n    dynamic: true\n");
    expect(getUpstream(out, "segments")).toEqual(["clv", "raw_orders"]);
  });
  it("replaces a block list", () => {
    const out = setUpstream(doc, "clv", ["raw_orders"]);
    expect(out).toContain("  - id: clv\n    upstream: [raw_orders]\n    dynamic: false\n");
    expect(out).not.toContain("      - daily_customer_metrics");
  });
  it("adds an upstream after the id, keeping comments", () => {
    const out = setUpstream(doc, "raw_orders", ["clv"]);
    expect(out).toContain("  - id: raw_orders\n    upstream: [clv]\n    # Go loader: synthetic orders.\n");
  });
  it("removes an empty upstream", () => {
    const out = setUpstream(doc, "daily_customer_metrics", []);
    expect(out).toContain("  - id: daily_customer_metrics\n    product: daily_customer_metrics\n");
    expect(getUpstream(out, "daily_customer_metrics")).toEqual([]);
  });
  it("leaves everything else byte for byte", () => {
    const out = setUpstream(doc, "segments", ["clv"]);
    expect(out).toBe(doc.replace("upstream: [clv] # fan out", "upstream: [clv]"));
  });
  it("refuses an unknown block", () => {
    expect(() => setUpstream(doc, "nope", [])).toThrow(/nope/);
  });
});

it("reads both list styles", () => {
  expect(getUpstream(doc, "clv")).toEqual(["daily_customer_metrics"]);
  expect(getUpstream(doc, "daily_customer_metrics")).toEqual(["raw_orders"]);
  expect(getUpstream(doc, "raw_orders")).toEqual([]);
});
