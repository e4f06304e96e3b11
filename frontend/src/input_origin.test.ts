import { describe, expect, it } from "vitest";
import { describeOrigin } from "./input_origin";

describe("describeOrigin", () => {
  it("names a draft with its wall-clock time in the display zone", () => {
    expect(describeOrigin({ block: "raw_orders", draft: true, draft_at: "2024-01-03T19:02:30Z" }, "America/New_York")).toBe("raw_orders: your draft from 14:02");
  });
  it("names the published version of one partition", () => {
    expect(describeOrigin({ block: "raw_orders", draft: false, versions: { "2024-01-03": 3 } }, "UTC")).toBe("raw_orders: published v3");
  });
  it("names a range of versions over several partitions", () => {
    expect(describeOrigin({ block: "d", draft: false, versions: { a: 2, b: 1, c: 1 } }, "UTC")).toBe("d: published v1–v2 (3 partitions)");
  });
});
