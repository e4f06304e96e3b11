import { describe, expect, it } from "vitest";
import { parseKeys, setWhere } from "./where_field";
import type { DimConfig } from "../types";

const region: DimConfig = { name: "region", kind: "static", values: ["us", "eu", "apac"] };
const customer: DimConfig = { name: "customer", kind: "dynamic", product: "customers", column: "id" };

describe("where field", () => {
  it("keeps the chosen values of a static dimension in their declared order", () => {
    expect(setWhere(undefined, region, ["eu", "us"])).toEqual({ region: ["us", "eu"] });
  });
  it("every value, or none, of a static dimension is no filter", () => {
    expect(setWhere({ region: ["eu"] }, region, ["apac", "eu", "us"])).toBeUndefined();
    expect(setWhere({ region: ["eu"], customer: ["c1"] }, region, [])).toEqual({ customer: ["c1"] });
  });
  it("takes typed keys of a dynamic dimension", () => {
    expect(setWhere(undefined, customer, parseKeys(" c1, c2 c1,,@new"))).toEqual({ customer: ["c1", "c2", "@new"] });
    expect(setWhere({ customer: ["c1"] }, customer, parseKeys(""))).toBeUndefined();
  });
});
