import { describe, expect, it } from "vitest";
import { formatCell, formatDiffValue } from "./table";

describe("formatCell numbers", () => {
  it("shows a float64 with every digit the API and CSV carry", () => {
    // The grid used to round to 12 significant digits: 0.30000000000000004 read 0.3.
    expect(formatCell(0.1 + 0.2, "float64", "UTC")).toBe("0.30000000000000004");
    expect(formatCell(1234567.123456789, "float64", "UTC")).toBe("1234567.123456789");
    expect(formatCell(2 / 3, "float64", "UTC")).toBe("0.6666666666666666");
    expect(formatCell(1e-7, "float64", "UTC")).toBe("1e-7");
    expect(formatCell(3, "float64", "UTC")).toBe("3.0");
    expect(formatCell(1e21, "float64", "UTC")).toBe("1e+21");
    expect(formatCell(-0.5, "float64", "UTC")).toBe("-0.5");
  });
  it("shows a float32 as its shortest float32 digits, not the float64 it widens to", () => {
    expect(formatCell(Math.fround(0.1), "float32", "UTC")).toBe("0.1");
    expect(formatCell(Math.fround(16777217), "float32", "UTC")).toBe("16777216.0");
    expect(formatCell(Math.fround(1.2345678), "float32", "UTC")).toBe("1.2345678");
  });
  it("leaves NaN and infinities the server sends as strings", () => {
    expect(formatCell("NaN", "float64", "UTC")).toBe("NaN");
    expect(formatCell("+Inf", "float64", "UTC")).toBe("+Inf");
  });
});

describe("formatDiffValue", () => {
  it("shows a review diff's instants in the display zone with their offset, not raw …Z", () => {
    expect(formatDiffValue("2024-03-10T12:00:00Z", "America/New_York")).toBe("2024-03-10 08:00:00 -04:00");
    expect(formatDiffValue("2024-03-10T12:00:00.5Z", "UTC")).toBe("2024-03-10 12:00:00.5 +00:00");
  });
  it("leaves wall times, dates, numbers and text as sent", () => {
    expect(formatDiffValue("2024-03-10T02:30:00", "America/New_York")).toBe("2024-03-10T02:30:00");
    expect(formatDiffValue("2024-03-10", "America/New_York")).toBe("2024-03-10");
    expect(formatDiffValue(0.1 + 0.2, "UTC")).toBe("0.30000000000000004");
    expect(formatDiffValue("a", "UTC")).toBe("a");
  });
});
