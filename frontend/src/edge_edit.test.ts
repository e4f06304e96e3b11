import { describe, expect, it } from "vitest";
import { cycleVia, editUpstream } from "./edge_edit";

describe("editUpstream", () => {
  it("keeps the user's order and appends new upstreams in tick order", () => {
    expect(editUpstream(["segments", "clv"], ["clv", "segments", "raw"])).toEqual(["segments", "clv", "raw"]);
    expect(editUpstream(["b", "a"], ["a"])).toEqual(["a"]);
  });
});

describe("cycleVia", () => {
  const ups = new Map([
    ["raw", []],
    ["daily", ["raw"]],
    ["clv", ["daily"]],
  ]);
  it("names the loop in data-flow order", () => {
    expect(cycleVia("raw", ["clv"], ups)).toBe("raw → daily → clv → raw");
  });
  it("accepts an edge that closes no loop", () => {
    expect(cycleVia("clv", ["raw", "daily"], ups)).toBeNull();
  });
  it("refuses a block reading itself", () => {
    expect(cycleVia("raw", ["raw"], ups)).toBe("raw → raw");
  });
});
