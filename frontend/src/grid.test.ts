import { describe, expect, it } from "vitest";
import { cellAt, cellRect, countStates, gridLayout, legendCounts, stateCode, visibleRange } from "./grid";

describe("gridLayout", () => {
  it("gives a few partitions big cells", () => {
    const g = gridLayout(5, 600);
    expect(g.cell).toBe(22);
    expect(g.rows).toBe(1);
  });
  it("shrinks cells for many partitions and scrolls the rest", () => {
    const g = gridLayout(100_000, 900);
    expect(g.cell).toBe(5);
    expect(g.cols).toBe(150);
    expect(g.rows).toBe(667);
    expect(g.height).toBe(667 * 6 - 1);
  });
  it("fits a year of days without scrolling", () => {
    const g = gridLayout(365, 900, { targetHeight: 320 });
    expect(g.rows * (g.cell + g.gap)).toBeLessThanOrEqual(320);
    expect(g.cell).toBeGreaterThan(10);
  });
});

describe("hit testing", () => {
  const g = gridLayout(1000, 300, { maxCell: 10, minCell: 10, gap: 2 });
  it("maps points to cells and back", () => {
    expect(g.cols).toBe(25);
    expect(cellAt(g, 0, 0)).toBe(0);
    expect(cellAt(g, 13, 1)).toBe(1);
    expect(cellAt(g, 11, 1)).toBe(-1); // the gap
    expect(cellAt(g, 1, 13)).toBe(25);
    expect(cellAt(g, 299, 1)).toBe(-1); // past the last column
    expect(cellRect(g, 26)).toEqual({ x: 12, y: 12, w: 10, h: 10 });
    for (const i of [0, 7, 24, 25, 999]) {
      const r = cellRect(g, i);
      expect(cellAt(g, r.x + 5, r.y + 5)).toBe(i);
    }
    expect(cellAt(g, 1, 12 * 40 + 1)).toBe(-1); // below the last row
  });
  it("finds the visible cells of a scroll position", () => {
    expect(visibleRange(g, 0, 120)).toEqual([0, 250]);
    expect(visibleRange(g, 121, 60)).toEqual([250, 400]);
    expect(visibleRange(g, 10_000, 100)).toEqual([1000, 1000]);
  });
});

it("codes and counts states", () => {
  const s = new Uint8Array([stateCode("succeeded"), stateCode("failed"), stateCode("succeeded"), stateCode("bogus")]);
  expect(countStates(s)).toMatchObject({ succeeded: 2, failed: 1, queued: 1, running: 0 });
});

describe("legendCounts", () => {
  it("reads the status's counts, queued being the rest of the total", () => {
    expect(legendCounts({ succeeded: 3, failed: 122, running: 1, skipped: 2, cancelled: 0, conflicts: 1 }, 200)).toEqual({
      queued: 71,
      running: 1,
      succeeded: 3,
      failed: 122,
      skipped: 2,
      cancelled: 0,
      paused: 0,
      conflict: 1,
    });
  });
  it("never counts a negative queue", () => {
    expect(legendCounts({ succeeded: 5, failed: 0, running: 0, skipped: 0, cancelled: 0 }, 4).queued).toBe(0);
  });
});
