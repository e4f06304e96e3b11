import { describe, expect, it } from "vitest";
import { groupKeys, SHOWN_KEYS, type FailureGroup } from "./failure_groups";

const group = (n: number): FailureGroup => ({
  block: "raw_orders",
  class: "source offline for <time>",
  example: "source offline for 2024-03-04",
  state: "failed",
  count: n,
  partitions: Array.from({ length: n }, (_, i) => ({ key: `k${i}`, interval: "day", state: "failed" })),
});

describe("failure groups", () => {
  it("lists the first keys and how many more", () => {
    expect(groupKeys(group(3), false)).toEqual({ shown: ["k0", "k1", "k2"], more: 0 });
    const g = groupKeys(group(900), false);
    expect(g.shown.length).toBe(SHOWN_KEYS);
    expect(g.more).toBe(900 - SHOWN_KEYS);
    expect(groupKeys(group(900), true).shown.length).toBe(900);
  });
});
