import { describe, expect, it } from "vitest";
import { edgePath, fitScale, layers, layoutDag, MAX_ZOOM, MIN_ZOOM, nodeWidthFor, scrollAfterZoom, zoomBy } from "./dag";

const clv = {
  nodes: ["raw_orders", "daily_customer_metrics", "clv", "segments", "segment_stats", "segment_report", "weekly_customer_rollup"],
  edges: [
    { from: "raw_orders", to: "daily_customer_metrics" },
    { from: "daily_customer_metrics", to: "clv" },
    { from: "clv", to: "segments" },
    { from: "segments", to: "segment_stats" },
    { from: "clv", to: "segment_stats" },
    { from: "segment_stats", to: "segment_report" },
    { from: "daily_customer_metrics", to: "weekly_customer_rollup" },
  ],
};

describe("layers", () => {
  it("puts each block one below its deepest upstream", () => {
    const l = layers(clv.nodes, clv.edges);
    expect(Object.fromEntries(l)).toEqual({
      raw_orders: 0,
      daily_customer_metrics: 1,
      clv: 2,
      weekly_customer_rollup: 2,
      segments: 3,
      segment_stats: 4,
      segment_report: 5,
    });
  });
  it("survives a cycle and unknown nodes", () => {
    const l = layers(["a", "b"], [{ from: "a", to: "b" }, { from: "b", to: "a" }, { from: "x", to: "a" }]);
    expect(l.size).toBe(2);
  });
});

describe("layoutDag", () => {
  it("places layers top to bottom, no two boxes overlapping", () => {
    const lay = layoutDag(clv.nodes, clv.edges, { nodeW: 100, nodeH: 20, gapX: 10, gapY: 20 });
    const boxes = [...lay.nodes.values()];
    expect(boxes).toHaveLength(7);
    for (const a of boxes) {
      expect(a.x - 50).toBeGreaterThanOrEqual(0);
      expect(a.x + 50).toBeLessThanOrEqual(lay.width);
      for (const b of boxes) if (a !== b && a.layer === b.layer) expect(Math.abs(a.x - b.x)).toBeGreaterThanOrEqual(110);
    }
    expect(lay.nodes.get("segment_report")!.y).toBeGreaterThan(lay.nodes.get("raw_orders")!.y);
    expect(lay.height).toBe(6 * 20 + 5 * 20 + 8);
  });
  it("draws edges from bottom to top", () => {
    const p = edgePath({ id: "a", layer: 0, x: 10, y: 10 }, { id: "b", layer: 1, x: 30, y: 60 }, 20);
    expect(p).toBe("M10,20 C10,35 30,35 30,50");
  });
});

describe("zoom and names", () => {
  it("widens nodes so the longest name shows in full", () => {
    expect(nodeWidthFor(["a", "b"])).toBe(132);
    const long = "a_block_with_a_really_long_descriptive_name"; // 43 characters
    expect(nodeWidthFor([long, "x"])).toBe(Math.ceil(43 * 6.7 + 18));
  });
  it("zooms within bounds and fits without blowing up", () => {
    expect(zoomBy(1, 1.25)).toBe(1.25);
    expect(zoomBy(3.9, 2)).toBe(MAX_ZOOM);
    expect(zoomBy(0.21, 0.5)).toBe(MIN_ZOOM);
    expect(fitScale(800, 200, 400, 400)).toBe(0.5);
    expect(fitScale(100, 100, 400, 400)).toBe(1);
    expect(fitScale(100, 1000, 400, 250)).toBe(0.25);
  });
  it("keeps the point under the cursor in place", () => {
    // Point at drawing x=100 (scroll 0, cursor 100) stays under the cursor at 2x: scroll 100.
    expect(scrollAfterZoom(0, 100, 1, 2)).toBe(100);
    expect(scrollAfterZoom(100, 100, 2, 1)).toBe(0);
  });
});
