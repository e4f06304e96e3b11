import { describe, expect, it } from "vitest";
import { columnRows } from "./review_columns";

describe("review column statistics", () => {
  it("reads before → after, with the change of means and totals", () => {
    const rows = columnRows([
      { name: "customer_id", type: "int64", changed: false, before: { nulls: 0, distinct: 731, min: "1", max: "800" }, after: { nulls: 0, distinct: 731, min: "1", max: "800" } },
      {
        name: "revenue",
        type: "float64",
        changed: true,
        before: { nulls: 0, distinct: 731, min: "7.82", max: "142.25", sum: 50986.82, mean: 67.3, total: "50986.82" },
        after: { nulls: 2, distinct: 729, min: "7.82", max: "150", sum: 51496.69, mean: 67.97, total: "51496.69" },
      },
      { name: "note", type: "string", changed: true, before: null, after: { nulls: 5, distinct: 3, min: "a", max: "c" } },
    ]);
    expect(rows.map((r) => r.name)).toEqual(["revenue", "note", "customer_id"]);
    const rev = rows[0];
    expect(rev.nulls).toEqual({ text: "0 → 2", moved: true, delta: undefined });
    expect(rev.min).toEqual({ text: "7.82", moved: false });
    expect(rev.max.text).toBe("142.25 → 150");
    expect(rev.mean).toEqual({ text: "67.3 → 67.97", moved: true, delta: "+1.00%" });
    expect(rev.total).toEqual({ text: "50986.82 → 51496.69", moved: true, delta: "+1.00%" });
    expect(rows[1].side).toBe("added");
    expect(rows[1].nulls).toEqual({ text: "5", moved: false });
    expect(rows[2].mean).toBeUndefined();
    // A small change reads as a small percentage, not in exponent form.
    const small = columnRows([{ name: "x", type: "float64", changed: true, before: { nulls: 0, distinct: 1, min: "1", max: "1", mean: 65.80893 }, after: { nulls: 0, distinct: 1, min: "1", max: "1", mean: 65.811612 } }]);
    expect(small[0].mean?.delta).toBe("+0.0041%");
  });
});
