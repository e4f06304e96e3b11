import { describe, expect, it } from "vitest";
import { aggPoints, niceTicks, numericColumns, scale, series, serverXColumns, shortNumber, xColumns } from "./chart";
import type { Aggregation, Preview } from "./types";

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

describe("server aggregations", () => {
  it("places buckets at their start instant and skips empty values", () => {
    const a = {
      product: "p", kind: "series", agg: "sum", zone: "UTC", partitions: 2, total_rows: 3, rows: 3, skipped: 0, describe: "",
      buckets: [
        { label: "2024-03-10", start: "2024-03-10T05:00:00Z", value: 2, rows: 2 },
        { label: "2024-03-11", start: "2024-03-11T04:00:00Z", value: null, rows: 1 },
      ],
    } as Aggregation;
    expect(aggPoints(a)).toEqual([{ x: Date.parse("2024-03-10T05:00:00Z"), label: "2024-03-10", y: 2 }]);
    const h = { ...a, kind: "histogram", buckets: [{ label: "0–5", lo: 0, hi: 5, value: 4, rows: 4 }, { label: "5–10", lo: 5, hi: 10, value: 0, rows: 0 }] } as Aggregation;
    expect(aggPoints(h).map((p) => [p.x, p.y])).toEqual([[0, 4], [5, 0]]);
  });
  it("offers _partition and time columns as the x the server buckets", () => {
    const p = { columns: [{ name: "_partition", type: "string" }, { name: "at", type: "time" }, { name: "n", type: "int64" }], rows: [], row_count: 0 } as unknown as Preview;
    expect(serverXColumns(p)).toEqual(["_partition", "at"]);
  });
});
