// How one value of a result is shown: numbers right-aligned and exact (the
// server sends int64 beyond 2^53, uint64, int128 and decimals as strings),
// dates and wall times as they are, and only instants moved into the
// display zone, with the offset they are read in.

import { formatInstantOffset, formatWallTime } from "../time";
import type { Column } from "../types";

export const NUMERIC = new Set(["int64", "float64", "int32", "float32", "uint64", "int128", "decimal"]);

export function formatCell(v: unknown, type: string, zone: string): string {
  if (v === null || v === undefined) return "null";
  if (type === "time" && typeof v === "string") return formatInstantOffset(v, zone);
  if (type === "timestamp" && typeof v === "string") return formatWallTime(v);
  if (type === "float64" && typeof v === "number") {
    return Number.isInteger(v) ? v.toFixed(1) : String(+v.toPrecision(12));
  }
  if (type === "int64" && typeof v === "number") return String(v);
  return typeof v === "string" ? v : JSON.stringify(v);
}

/** The header's type label: the DuckDB type where it says more (DECIMAL(38,10)). */
export function typeLabel(c: Column): string {
  return c.type === "decimal" && c.sql_type ? c.sql_type.toLowerCase() : c.type;
}
