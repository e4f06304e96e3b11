import { describe, expect, it } from "vitest";
import { compareKeys, firstKey, isValidKey, keyExample, lastKeys, latestPartition, mapKey, partitionAt, partitionStart, shiftKey } from "./partitions";

const ny = (interval: string, extra = {}) => ({ interval, timezone: "America/New_York", week_start: "monday", ...extra });

describe("latestPartition", () => {
  // 2024-03-10 03:00 UTC is still March 9 in New York.
  const now = Date.parse("2024-03-10T03:00:00Z");
  it.each([
    ["day", "2024-03-08"],
    ["hour", "2024-03-09T21"],
    ["week", "2024-W09"],
    ["month", "2024-02"],
    ["quarter", "2023-Q4"],
    ["year", "2023"],
    ["none", "all"],
  ])("%s", (interval, want) => expect(latestPartition(ny(interval), now)).toBe(want));
  it("is empty before the first partition ends", () => {
    expect(latestPartition(ny("day", { start: "2024-03-09" }), now)).toBe("");
    expect(latestPartition(ny("day", { start: "2024-03-08" }), now)).toBe("2024-03-08");
  });
  it("uses the zone's calendar, not UTC's", () => {
    const t = Date.parse("2024-03-10T12:00:00Z");
    expect(latestPartition({ interval: "day", timezone: "Pacific/Kiritimati" }, t)).toBe("2024-03-10");
    expect(latestPartition({ interval: "day", timezone: "Pacific/Pago_Pago" }, t)).toBe("2024-03-09");
  });
});

describe("keyExample", () => {
  const now = Date.parse("2026-12-07T22:00:00Z");
  it.each([
    ["day", "2026-12-06"],
    ["hour", "2026-12-07T16"],
    ["week", "2026-W49"],
    ["month", "2026-11"],
    ["none", "all"],
  ])("%s: the latest complete partition now, not a fixed date", (interval, want) => expect(keyExample(ny(interval), now)).toBe(want));
  it("is the first partition before any ended", () => {
    expect(keyExample(ny("day", { start: "2027-01-01" }), now)).toBe("2027-01-01");
  });
});

describe("keys", () => {
  it("steps across month, year and leap-day edges", () => {
    expect(shiftKey(ny("day"), "2024-02-28", 1)).toBe("2024-02-29");
    expect(shiftKey(ny("day"), "2024-02-29", 1)).toBe("2024-03-01");
    expect(shiftKey(ny("day"), "2023-12-31", 1)).toBe("2024-01-01");
    expect(shiftKey(ny("month"), "2024-01", -1)).toBe("2023-12");
    expect(shiftKey(ny("quarter"), "2024-Q1", -1)).toBe("2023-Q4");
    expect(shiftKey(ny("hour"), "2024-03-10T23", 1)).toBe("2024-03-11T00");
    expect(shiftKey(ny("year"), "2024", -3)).toBe("2021");
  });
  it("numbers ISO weeks, 53-week years included", () => {
    expect(shiftKey(ny("week"), "2020-W52", 1)).toBe("2020-W53");
    expect(shiftKey(ny("week"), "2020-W53", 1)).toBe("2021-W01");
    expect(shiftKey(ny("week"), "2024-W01", -1)).toBe("2023-W52");
    expect(partitionAt(ny("week"), Date.parse("2024-12-30T12:00:00Z"))).toBe("2025-W01");
    expect(isValidKey(ny("week"), "2021-W53")).toBe(false);
  });
  it("weeks can start on Sunday", () => {
    const sun = { interval: "week", timezone: "UTC", week_start: "sunday" };
    // Jan 4 2026 is a Sunday: week 1 starts that day.
    expect(partitionAt(sun, Date.parse("2026-01-04T12:00:00Z"))).toBe("2026-W01");
    expect(partitionAt(sun, Date.parse("2026-01-03T12:00:00Z"))).toBe("2025-W53"); // 2025 has 53 Sunday-started weeks
  });
  it("validates", () => {
    expect(isValidKey(ny("day"), "2023-02-29")).toBe(false);
    expect(isValidKey(ny("day"), "2024-02-29")).toBe(true);
    expect(isValidKey(ny("day"), "2024-3-1")).toBe(false);
    expect(isValidKey(ny("month"), "2024-13")).toBe(false);
    expect(isValidKey(ny("hour"), "2024-03-10T24")).toBe(false);
    expect(shiftKey(ny("day"), "nope", 1)).toBeNull();
  });
  it("lists windows oldest first and orders keys", () => {
    expect(lastKeys(ny("day"), "2024-03-02", 3)).toEqual(["2024-02-29", "2024-03-01", "2024-03-02"]);
    expect(compareKeys(ny("week"), "2020-W53", "2021-W01")).toBe(-1);
    expect(firstKey(ny("week", { start: "2020-01-01" }))).toBe("2020-W01");
  });
});

describe("partitionStart and mapKey", () => {
  it("starts partitions at local midnight, DST days included", () => {
    expect(partitionStart(ny("day"), "2024-03-10")?.toISOString()).toBe("2024-03-10T05:00:00.000Z");
    expect(partitionStart(ny("day"), "2024-03-11")?.toISOString()).toBe("2024-03-11T04:00:00.000Z");
    expect(partitionStart(ny("month"), "2024-11")?.toISOString()).toBe("2024-11-01T04:00:00.000Z");
    expect(partitionStart(ny("week"), "2024-W10")?.toISOString()).toBe("2024-03-04T05:00:00.000Z");
    expect(partitionStart(ny("hour"), "2024-03-10T03")?.toISOString()).toBe("2024-03-10T07:00:00.000Z");
    expect(partitionStart(ny("day"), "bad")).toBeNull();
  });
  it("maps a day to its week, month and quarter", () => {
    expect(mapKey(ny("day"), "2024-01-03", ny("week"))).toBe("2024-W01");
    expect(mapKey(ny("day"), "2023-01-01", ny("week"))).toBe("2022-W52");
    expect(mapKey(ny("day"), "2024-05-31", ny("month"))).toBe("2024-05");
    expect(mapKey(ny("day"), "2024-05-31", ny("quarter"))).toBe("2024-Q2");
  });
});

// The hours the zone's clock shows, keyed as projects/partitions keys them.
describe("hours across DST", () => {
  it("skips the hour clocks spring over", () => {
    expect(shiftKey(ny("hour"), "2024-03-10T01", 1)).toBe("2024-03-10T03");
    expect(shiftKey(ny("hour"), "2024-03-10T03", -1)).toBe("2024-03-10T01");
    expect(isValidKey(ny("hour"), "2024-03-10T02")).toBe(false);
  });
  it("gives both occurrences of the repeated hour their offset", () => {
    expect(lastKeys(ny("hour"), "2024-11-03T02", 4)).toEqual(["2024-11-03T00", "2024-11-03T01-04:00", "2024-11-03T01-05:00", "2024-11-03T02"]);
    expect(partitionStart(ny("hour"), "2024-11-03T01-05:00")?.toISOString()).toBe("2024-11-03T06:00:00.000Z");
    expect(partitionAt(ny("hour"), Date.parse("2024-11-03T05:30:00Z"))).toBe("2024-11-03T01-04:00");
    expect(latestPartition(ny("hour"), Date.parse("2024-11-03T07:10:00Z"))).toBe("2024-11-03T01-05:00");
    expect(compareKeys(ny("hour"), "2024-11-03T01-05:00", "2024-11-03T01-04:00")).toBe(1);
    // The plain key is ambiguous, an offset must be the hour's own, and
    // offsets are written only for repeated hours.
    expect(isValidKey(ny("hour"), "2024-11-03T01")).toBe(false);
    expect(isValidKey(ny("hour"), "2024-11-03T01-06:00")).toBe(false);
    expect(isValidKey(ny("hour"), "2024-11-03T03-05:00")).toBe(false);
  });
  it("orders Berlin's repeated hour by time, not by spelling", () => {
    const berlin = { interval: "hour", timezone: "Europe/Berlin" };
    expect(shiftKey(berlin, "2024-10-27T02+02:00", 1)).toBe("2024-10-27T02+01:00");
    expect(compareKeys(berlin, "2024-10-27T02+02:00", "2024-10-27T02+01:00")).toBe(-1);
  });
  it("starts Kolkata's hours at :30 UTC", () => {
    const kolkata = { interval: "hour", timezone: "Asia/Kolkata" };
    expect(partitionAt(kolkata, Date.parse("2024-03-10T04:45:00Z"))).toBe("2024-03-10T10");
    expect(partitionStart(kolkata, "2024-03-10T10")?.toISOString()).toBe("2024-03-10T04:30:00.000Z");
  });
});
