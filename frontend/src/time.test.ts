import { describe, expect, it } from "vitest";
import { formatAgo, formatDuration, formatInstant, formatInstantOffset, formatWallTime, instantOf, isTimestamp, logInZone, parseZoneMode, resolveZone, wallTime, zoneOffsetMinutes } from "./time";

describe("formatInstant", () => {
  const cases: [string, string, string][] = [
    ["2024-01-02T06:29:59-05:00", "UTC", "2024-01-02 11:29:59"],
    ["2024-01-02T06:29:59-05:00", "America/New_York", "2024-01-02 06:29:59"],
    ["2024-01-02T23:30:00Z", "Asia/Tokyo", "2024-01-03 08:30:00"],
    // DST: 07:30 UTC on the spring-forward day is 03:30 EDT; the day before it is 02:30 EST.
    ["2024-03-10T07:30:00Z", "America/New_York", "2024-03-10 03:30:00"],
    ["2024-03-09T07:30:00Z", "America/New_York", "2024-03-09 02:30:00"],
    ["2024-11-03T05:30:00Z", "America/New_York", "2024-11-03 01:30:00"],
    ["2024-11-03T06:30:00Z", "America/New_York", "2024-11-03 01:30:00"],
    ["2024-02-29T12:00:00Z", "Australia/Adelaide", "2024-02-29 22:30:00"],
  ];
  it.each(cases)("%s in %s", (iso, zone, want) => {
    expect(formatInstant(iso, zone)).toBe(want);
  });
  it("keeps unparseable values as they are", () => {
    expect(formatInstant("not a time", "UTC")).toBe("not a time");
  });
  it("drops seconds or adds milliseconds", () => {
    expect(formatInstant("2024-01-02T06:29:59.123Z", "UTC", { seconds: false })).toBe("2024-01-02 06:29");
    expect(formatInstant("2024-01-02T06:29:59.123Z", "UTC", { ms: true })).toBe("2024-01-02 06:29:59.123");
  });
});

describe("zones", () => {
  it("resolves the setting", () => {
    expect(resolveZone("utc", "America/New_York", "Europe/Paris")).toBe("UTC");
    expect(resolveZone("pipeline", "America/New_York", "Europe/Paris")).toBe("America/New_York");
    expect(resolveZone("pipeline", undefined, "Europe/Paris")).toBe("UTC");
    expect(resolveZone("local", "America/New_York", "Europe/Paris")).toBe("Europe/Paris");
  });
  it("parses stored modes, defaulting to the pipeline's zone", () => {
    expect(parseZoneMode("utc")).toBe("utc");
    expect(parseZoneMode("local")).toBe("local");
    expect(parseZoneMode("bogus")).toBe("pipeline");
    expect(parseZoneMode(null)).toBe("pipeline");
  });
  it("shows instants with their offset, wall times as they are", () => {
    expect(formatInstantOffset("2024-03-10T12:00:00Z", "America/New_York")).toBe("2024-03-10 08:00:00 -04:00");
    expect(formatInstantOffset("2024-03-10T06:00:00.123456Z", "America/New_York")).toBe("2024-03-10 01:00:00.123456 -05:00");
    expect(formatInstantOffset("2024-03-10T12:00:00Z", "Asia/Kolkata")).toBe("2024-03-10 17:30:00 +05:30");
    expect(formatWallTime("2024-03-10T02:30:00")).toBe("2024-03-10 02:30:00");
  });
  it("knows offsets across DST", () => {
    expect(zoneOffsetMinutes(Date.parse("2024-01-15T12:00:00Z"), "America/New_York")).toBe(-300);
    expect(zoneOffsetMinutes(Date.parse("2024-07-15T12:00:00Z"), "America/New_York")).toBe(-240);
    expect(zoneOffsetMinutes(Date.parse("2024-07-15T12:00:00Z"), "Australia/Adelaide")).toBe(570);
  });
  it("turns wall times into instants", () => {
    expect(instantOf({ year: 2024, month: 3, day: 10, hour: 0 }, "America/New_York").toISOString()).toBe("2024-03-10T05:00:00.000Z");
    expect(instantOf({ year: 2024, month: 3, day: 11, hour: 0 }, "America/New_York").toISOString()).toBe("2024-03-11T04:00:00.000Z");
    // 02:30 does not exist on the spring-forward day: after the jump.
    expect(instantOf({ year: 2024, month: 3, day: 10, hour: 2, minute: 30 }, "America/New_York").toISOString()).toBe("2024-03-10T07:30:00.000Z");
    // 01:30 happens twice on the fall-back day: the first one.
    expect(instantOf({ year: 2024, month: 11, day: 3, hour: 1, minute: 30 }, "America/New_York").toISOString()).toBe("2024-11-03T05:30:00.000Z");
  });
  it("reads wall time", () => {
    expect(wallTime(Date.parse("2024-12-31T23:59:59Z"), "Asia/Kolkata")).toMatchObject({ year: 2025, month: 1, day: 1, hour: 5, minute: 29 });
  });
});

describe("formatDuration", () => {
  it.each([
    [0.5, "0.50 ms"],
    [340, "340 ms"],
    [1234, "1.23 s"],
    [12_345, "12.3 s"],
    [123_000, "2 min 03 s"],
    [3_720_000, "1 h 02 min"],
    [undefined, "–"],
  ])("%s ms", (ms, want) => expect(formatDuration(ms as number)).toBe(want));
});

it("recognizes RFC 3339 timestamps", () => {
  expect(isTimestamp("2024-01-02T06:29:59-05:00")).toBe(true);
  expect(isTimestamp("2024-01-02T06:29:59.123456Z")).toBe(true);
  expect(isTimestamp("2024-01-02")).toBe(false);
  expect(isTimestamp(5)).toBe(false);
});

describe("logInZone", () => {
  it("shows each ctx.Log line's UTC instant as the clock in the display zone", () => {
    const log = "2024-03-10T12:00:01.250Z info loaded\nplain stdout\n2024-03-10T12:00:02.000Z warn slow\n";
    expect(logInZone(log, "America/New_York")).toBe("08:00:01.250 info loaded\nplain stdout\n08:00:02.000 warn slow\n");
    expect(logInZone(log, "UTC")).toBe("12:00:01.250 info loaded\nplain stdout\n12:00:02.000 warn slow\n");
  });
  it("leaves older clock-only lines as they are", () => {
    expect(logInZone("15:04:05.000 info x\n", "Asia/Kolkata")).toBe("15:04:05.000 info x\n");
  });
});

describe("formatAgo", () => {
  it("reads an age", () => {
    const now = Date.parse("2024-03-10T12:00:00Z");
    expect(formatAgo(now - 2000, now)).toBe("just now");
    expect(formatAgo(now - 40_000, now)).toBe("40 s ago");
    expect(formatAgo(now - 5 * 60_000, now)).toBe("5 min ago");
    expect(formatAgo(now - 3 * 3600_000, now)).toBe("3 h ago");
    expect(formatAgo(now - 72 * 3600_000, now)).toBe("3 d ago");
  });
});
