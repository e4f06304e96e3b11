import { describe, expect, it } from "vitest";
import { cellLayout, dimValues, formatWhere, isValidCell, joinCell, latestCell, matchesFilter, parseWhere, shiftCell, sliceStates, splitCell, whereProblem } from "./cells";
import type { PartitionsConfig } from "./types";

const day: PartitionsConfig = { interval: "day", timezone: "UTC" };
const cells: PartitionsConfig = {
  interval: "day",
  timezone: "UTC",
  dims: [
    { name: "region", kind: "static", values: ["us", "eu"] },
    { name: "customer", kind: "dynamic", product: "dim_customers", column: "id" },
  ],
};

describe("cell keys", () => {
  it("leaves time-only keys as they are", () => {
    expect(splitCell(day, "2024-03-10")).toEqual({ time: "2024-03-10", values: [] });
    expect(joinCell(day, "2024-03-10", [])).toBe("2024-03-10");
    expect(shiftCell(day, "2024-03-10", 1)).toBe("2024-03-11");
    expect(isValidCell(day, "2024-03-10")).toBe(true);
  });

  it("splits, joins and steps cells in declared order", () => {
    expect(splitCell(cells, "2024-03-10|eu|c42")).toEqual({ time: "2024-03-10", values: ["eu", "c42"] });
    expect(splitCell(cells, "2024-03-10|eu")).toBeNull();
    expect(joinCell(cells, "2024-03-10", ["us", "c1"])).toBe("2024-03-10|us|c1");
    expect(shiftCell(cells, "2024-03-10|eu|c42", -1)).toBe("2024-03-09|eu|c42");
    const regionFirst = { ...cells, time_pos: 1 };
    expect(joinCell(regionFirst, "2024-03-10", ["us", "c1"])).toBe("us|2024-03-10|c1");
    expect(splitCell(regionFirst, "us|2024-03-10|c1")).toEqual({ time: "2024-03-10", values: ["us", "c1"] });
  });

  it("checks every dimension", () => {
    expect(isValidCell(cells, "2024-03-10|eu|c42")).toBe(true);
    expect(isValidCell(cells, "2024-03-10|mars|c42")).toBe(false); // not a static value
    expect(isValidCell(cells, "2024-02-30|eu|c42")).toBe(false);
    expect(isValidCell(cells, "2024-03-10|eu|@new")).toBe(false);
    expect(isValidCell(cells, "2024-03-10")).toBe(false);
  });

  it("picks the latest cell keeping the chosen values", () => {
    const now = Date.UTC(2024, 2, 11, 12);
    expect(latestCell(cells, now, "2024-01-01|eu|c7")).toBe("2024-03-10|eu|c7");
    expect(latestCell(cells, now)).toBe(""); // a dynamic dimension has no value to start from
    expect(latestCell({ ...cells, dims: [cells.dims![0]] }, now)).toBe("2024-03-10|us");
  });

  it("filters by value and lists the values the keys show", () => {
    expect(matchesFilter(cells, "2024-03-10|eu|c1", { region: "eu" })).toBe(true);
    expect(matchesFilter(cells, "2024-03-10|us|c1", { region: "eu" })).toBe(false);
    expect(matchesFilter(cells, "2024-03-10|us|c1", { region: "", customer: "c1" })).toBe(true);
    expect(matchesFilter(cells, "2024-W10|us", { region: "eu" })).toBe(true); // another shape is never hidden
    expect(dimValues(cells, ["2024-03-10|us|c2", undefined, "2024-03-10|eu|c1", "2024-03-11|us|c2"])).toEqual({ region: ["us", "eu"], customer: ["c2", "c1"] });
  });
});

describe("cell layout", () => {
  it("names the parts in key order", () => {
    expect(cellLayout(cells)).toBe("DAY|region|customer");
    expect(cellLayout({ ...cells, time_pos: 2 })).toBe("region|customer|DAY");
  });
});

describe("where fields and slices", () => {
  const cfg = {
    interval: "day",
    timezone: "UTC",
    dims: [
      { name: "region", kind: "static", values: ["us", "eu"] },
      { name: "customer", kind: "dynamic" },
    ],
  } as unknown as PartitionsConfig;

  it("reads a where-field as --where does", () => {
    expect(parseWhere(" eu, us ,")).toEqual(["eu", "us"]);
    expect(parseWhere("")).toEqual([]);
    expect(formatWhere(["eu", "us"])).toBe("eu,us");
    expect(whereProblem(cfg.dims![0], ["eu"])).toBe("");
    expect(whereProblem(cfg.dims![0], ["mars"])).toMatch(/not a value of region: its values: us, eu/);
    expect(whereProblem(cfg.dims![0], ["@new"])).toMatch(/region is static/);
    expect(whereProblem(cfg.dims![1], ["@new", "c9"])).toBe("");
    expect(whereProblem(cfg.dims![1], ["a|b"])).toMatch(/not a value/);
  });

  it("slices by one dimension, filters by the others, worst state per day", () => {
    const keys = ["2024-01-01|us|c1", "2024-01-01|us|c2", "2024-01-01|eu|c1", "2024-01-02|us|c1", "2024-W01|us|c1"];
    const states = ["succeeded", "failed", "succeeded", "running", "failed"];
    const all = sliceStates(cfg, keys, (i) => states[i], "region", {});
    expect(all.values).toEqual(["us", "eu"]);
    expect(all.times).toEqual(["2024-01-01", "2024-01-02"]);
    expect(all.states.get("us")!.get("2024-01-01")).toBe("failed");
    expect(all.states.get("eu")!.get("2024-01-01")).toBe("succeeded");
    expect([...all.counts]).toEqual([["us", 3], ["eu", 1]]);
    const c1 = sliceStates(cfg, keys, (i) => states[i], "region", { customer: "c1" });
    expect(c1.states.get("us")!.get("2024-01-01")).toBe("succeeded");
    const byCustomer = sliceStates(cfg, keys, (i) => states[i], "customer", { region: "eu" });
    expect(byCustomer.values).toEqual(["c1", "c2"]);
    expect(byCustomer.states.get("c2")!.size).toBe(0);
  });
});
