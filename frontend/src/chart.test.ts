import { describe, expect, it } from "vitest";
import { niceTicks, numericColumns, scale, series, shortNumber, xColumns } from "./chart";
import type { Preview } from "./types";

const p: Preview = {
  columns: [
    { name: "_partition", type: "string" },
    { name: "customer_id", type: "int64" },
    { name: "revenue", type: "float64" },
    { name: "at", type: "time" },
  ],
  rows: [
    ["2024-01-02", 1, 10, "2024-01-02T10:00:00Z"],
    ["2024-01-01", 2, 5, "2024-01-01T10:00:00Z"],
    ["2024-01-02", 3, 2.5, "2024-01-02T10:00:00Z"],
    ["2024-01-01", 4, null, "2024-01-01T11:00:00Z"],
  ],
  row_count: 4,
};

describe("series", () => {
  it("finds the axes", () => {
    expect(numericColumns(p)).toEqual(["customer_id", "revenue"]);
    expect(xColumns(p)).toEqual(["_partition", "at"]);
  });
  it("sums per partition, in key order", () => {
    expect(series(p, "_partition", "revenue", "sum")).toEqual([
      { label: "2024-01-01", x: 0, y: 5 },
      { label: "2024-01-02", x: 1, y: 12.5 },
    ]);
  });
  it("averages and counts", () => {
    expect(series(p, "_partition", "revenue", "avg").map((d) => d.y)).toEqual([5, 6.25]);
    expect(series(p, "_partition", "revenue", "count").map((d) => d.y)).toEqual([2, 2]);
  });
  it("orders time axes by instant", () => {
    const s = series(p, "at", "revenue", "max");
    expect(s.map((d) => d.label)).toEqual(["2024-01-01T10:00:00Z", "2024-01-02T10:00:00Z"]);
    expect(s[1].y).toBe(10);
  });
});

it("makes round ticks", () => {
  expect(niceTicks(0, 100, 5)).toEqual([0, 20, 40, 60, 80, 100]);
  expect(niceTicks(0, 12.5, 4)).toEqual([0, 5, 10, 15]);
  expect(niceTicks(3, 3, 4).length).toBeGreaterThan(1);
});

it("scales and labels", () => {
  const s = scale(0, 10, 100, 0);
  expect(s(0)).toBe(100);
  expect(s(5)).toBe(50);
  expect(shortNumber(12_345)).toBe("12.3k");
  expect(shortNumber(2_500_000)).toBe("2.5M");
  expect(shortNumber(0.256)).toBe("0.256");
});
