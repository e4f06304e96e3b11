// How one value of a result is shown: numbers right-aligned and exact (the
// server sends int64 beyond 2^53, uint64, int128 and decimals as strings),
// dates and wall times as they are, and only instants moved into the
// display zone, with the offset they are read in.

import { formatInstantOffset, formatWallTime, isTimestamp } from "../time";
import type { Column } from "../types";

export const NUMERIC = new Set(["int64", "float64", "int32", "float32", "uint64", "int128", "decimal"]);

export function formatCell(v: unknown, type: string, zone: string): string {
  if (v === null || v === undefined) return "null";
  if (type === "time" && typeof v === "string") return formatInstantOffset(v, zone);
  if (type === "timestamp" && typeof v === "string") return formatWallTime(v);
  if (type === "float64" && typeof v === "number") return formatFloat(v);
  if (type === "float32" && typeof v === "number") return formatFloat(shortest32(v));
  if (type === "int64" && typeof v === "number") return String(v);
  return typeof v === "string" ? v : JSON.stringify(v);
}

/**
 * A value of a review's row diff, which carries no column types: instants
 * (RFC 3339 with Z or an offset) in the display zone with their offset, as
 * the result grid shows them; everything else as sent (numbers are exact
 * already: String gives every digit).
 */
export function formatDiffValue(v: unknown, zone: string): string {
  if (isTimestamp(v)) return formatInstantOffset(v, zone);
  return typeof v === "string" ? v : JSON.stringify(v);
}

/**
 * A float exactly: JavaScript's shortest round-trip digits, the ones the API
 * and the CSV carry (no rounding to fewer digits: 0.30000000000000004 is not
 * 0.3), with ".0" on whole numbers so they read as floats.
 */
export function formatFloat(v: number): string {
  return Number.isInteger(v) && Math.abs(v) < 1e21 ? v.toFixed(1) : String(v);
}

/** The shortest decimal that reads back as the same float32 (a REAL column widened to a double). */
function shortest32(v: number): number {
  const f = Math.fround(v);
  for (let p = 1; p <= 9; p++) {
    const d = +f.toPrecision(p);
    if (Math.fround(d) === f) return d;
  }
  return f;
}

/** The header's type label: the DuckDB type where it says more (DECIMAL(38,10)). */
export function typeLabel(c: Column): string {
  return c.type === "decimal" && c.sql_type ? c.sql_type.toLowerCase() : c.type;
}
