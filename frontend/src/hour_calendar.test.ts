import { describe, expect, it } from "vitest";
import { civilDays } from "./partitions";
import { layoutHours, parseHourKey } from "./views/hour_calendar";

describe("parseHourKey", () => {
  it("reads the day and wall hour, with or without the offset of a repeated hour", () => {
    expect(parseHourKey("2024-03-10T05")).toEqual({ days: civilDays(2024, 3, 10), hour: 5 });
    expect(parseHourKey("2024-11-03T01-05:00")).toEqual({ days: civilDays(2024, 11, 3), hour: 1 });
    expect(parseHourKey("2024-03-10")).toBeNull();
    expect(parseHourKey("2024-03-10T24")).toBeNull();
  });
});

describe("layoutHours", () => {
  it("draws one row per day, a gap after Sunday, and a block per month", () => {
    // Fri 2024-02-23 .. Tue 2024-03-05: two months, Sundays Feb 25 and Mar 3.
    const l = layoutHours(civilDays(2024, 2, 23), civilDays(2024, 3, 5));
    expect(l.rows.length).toBe(12);
    expect(l.months.map((m) => `${m.year}-${m.month}`)).toEqual(["2024-2", "2024-3"]);
    const y = (m: number, d: number) => l.rows.find((r) => r.days === civilDays(2024, m, d))!.y;
    expect(y(2, 24) - y(2, 23)).toBe(y(2, 26) - y(2, 25) - 4); // the week gap after Sunday the 25th
    expect(l.rows.find((r) => r.days === civilDays(2024, 3, 1))!.x).toBeGreaterThan(0); // March beside February
    expect(y(3, 1)).toBe(y(2, 23)); // both months start at the top of their blocks
  });
  it("wraps to a new row of months after four", () => {
    const l = layoutHours(civilDays(2024, 1, 1), civilDays(2024, 6, 30));
    expect(l.rows.length).toBe(182);
    expect(l.months[4].x).toBe(0);
    expect(l.months[4].y).toBeGreaterThan(l.months[3].y);
  });
});
