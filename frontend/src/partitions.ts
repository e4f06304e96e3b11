// Partition keys of the server's calendars (projects/partitions), enough for
// the UI: the latest partition (the one before the partition holding now,
// which has ended), stepping a key back and forth, and a window of keys.
// Keys: hour 2024-03-10T05, day 2024-03-10, week 2024-W10, month 2024-03,
// quarter 2024-Q1, year 2024, none "all". Pure: now is an argument.
// Hours are the hours the zone's clock actually shows: the hour skipped when
// clocks spring forward does not exist, and both occurrences of the hour
// repeated when they fall back carry their UTC offset, as the server keys
// them (2024-11-03T01-04:00, then 2024-11-03T01-05:00). Hours step by 60
// minutes of real time, so a half-hour clock change (Australia/Lord_Howe)
// is approximated here; the server's keys stay the reference.

import { instantOf, wallTime, zoneOffsetMinutes } from "./time";
import type { PartitionsConfig } from "./types";

const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

/** Days since 1970-01-01 of a civil date (proleptic Gregorian). */
export function civilDays(y: number, m: number, d: number): number {
  return Math.floor(Date.UTC(y, m - 1, d) / 86400000);
}

export function civilFromDays(days: number): { y: number; m: number; d: number } {
  const dt = new Date(days * 86400000);
  return { y: dt.getUTCFullYear(), m: dt.getUTCMonth() + 1, d: dt.getUTCDate() };
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");
const weekday = (days: number) => (((days + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday

function weekStartIndex(cfg: PartitionsConfig): number {
  const i = WEEKDAYS.indexOf((cfg.week_start || "monday").toLowerCase());
  return i < 0 ? 1 : i;
}

function floorWeek(days: number, ws: number): number {
  return days - ((weekday(days) - ws + 7) % 7);
}

/** First day of week 1: the week holding January 4 (ISO when weeks start on Monday). */
function week1Start(y: number, ws: number): number {
  return floorWeek(civilDays(y, 1, 4), ws);
}

function weekKey(start: number, ws: number): string {
  const y = civilFromDays(start + 3).y;
  const n = Math.floor((start - week1Start(y, ws)) / 7) + 1;
  return `${pad(y, 4)}-W${pad(n)}`;
}

function dayKey(days: number): string {
  const c = civilFromDays(days);
  return `${pad(c.y, 4)}-${pad(c.m)}-${pad(c.d)}`;
}

/**
 * A partition as a position: for hours the start instant (ms since the
 * epoch), since wall hours repeat and skip; for the rest a civil number (the
 * first day, a month or quarter count, a year).
 */
interface Pos {
  interval: string;
  n: number;
}

const HOUR = 3600000;
const zoneOf = (cfg: PartitionsConfig) => cfg.timezone || "UTC";

function posOfWall(cfg: PartitionsConfig, y: number, m: number, d: number, h: number): Pos {
  const days = civilDays(y, m, d);
  switch (cfg.interval) {
    case "hour":
      return { interval: "hour", n: instantOf({ year: y, month: m, day: d, hour: h }, zoneOf(cfg)).getTime() };
    case "day":
      return { interval: "day", n: days };
    case "week":
      return { interval: "week", n: floorWeek(days, weekStartIndex(cfg)) };
    case "month":
      return { interval: "month", n: y * 12 + (m - 1) };
    case "quarter":
      return { interval: "quarter", n: y * 4 + Math.floor((m - 1) / 3) };
    case "year":
      return { interval: "year", n: y };
  }
  return { interval: "none", n: 0 };
}

function step(p: Pos, by: number): Pos {
  const unit = p.interval === "week" ? 7 : p.interval === "hour" ? HOUR : 1;
  return { interval: p.interval, n: p.n + by * unit };
}

/** The wall hour an instant is in, as "2024-03-10T05". */
function wallHour(t: number, zone: string): string {
  const w = wallTime(t, zone);
  return `${dayKey(civilDays(w.year, w.month, w.day))}T${pad(w.hour)}`;
}

function offsetText(minutes: number): string {
  const a = Math.abs(minutes);
  return `${minutes < 0 ? "-" : "+"}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
}

function hourKey(cfg: PartitionsConfig, t: number): string {
  const zone = zoneOf(cfg);
  const key = wallHour(t, zone);
  const repeated = wallHour(t - HOUR, zone) === key || wallHour(t + HOUR, zone) === key;
  return repeated ? key + offsetText(zoneOffsetMinutes(t, zone)) : key;
}

function keyOf(cfg: PartitionsConfig, p: Pos): string {
  switch (p.interval) {
    case "hour":
      return hourKey(cfg, p.n);
    case "day":
      return dayKey(p.n);
    case "week":
      return weekKey(p.n, weekStartIndex(cfg));
    case "month":
      return `${pad(Math.floor(p.n / 12), 4)}-${pad((p.n % 12) + 1)}`;
    case "quarter":
      return `${pad(Math.floor(p.n / 4), 4)}-Q${(p.n % 4) + 1}`;
    case "year":
      return pad(p.n, 4);
  }
  return "all";
}

const KEY_PATTERNS: Record<string, RegExp> = {
  hour: /^(\d{4})-(\d\d)-(\d\d)T(\d\d)(?:([+-])(\d\d):(\d\d))?$/,
  day: /^(\d{4})-(\d\d)-(\d\d)$/,
  week: /^(\d{4})-W(\d\d)$/,
  month: /^(\d{4})-(\d\d)$/,
  quarter: /^(\d{4})-Q([1-4])$/,
  year: /^(\d{4})$/,
};


function parsePos(cfg: PartitionsConfig, key: string): Pos | null {
  const i = cfg.interval;
  if (i === "none") return key === "all" ? { interval: "none", n: 0 } : null;
  const m = KEY_PATTERNS[i]?.exec(key);
  if (!m) return null;
  const y = +m[1];
  switch (i) {
    case "hour":
    case "day": {
      const mo = +m[2],
        d = +m[3];
      if (mo < 1 || mo > 12 || d < 1 || d > 31) return null;
      const days = civilDays(y, mo, d);
      if (civilFromDays(days).d !== d) return null; // 2023-02-30
      if (i === "day") return { interval: i, n: days };
      const h = +m[4];
      if (h > 23) return null;
      // The instant of that wall hour (at the given offset, or the zone's
      // first one); the key must then be that instant's own spelling, which
      // refuses a skipped hour, a plain repeated hour and a wrong offset.
      const t = m[5] ? Date.UTC(y, mo - 1, d, h) - (m[5] === "-" ? -1 : 1) * (+m[6] * 60 + +m[7]) * 60000 : posOfWall(cfg, y, mo, d, h).n;
      return hourKey(cfg, t) === key ? { interval: i, n: t } : null;
    }
    case "week": {
      const ws = weekStartIndex(cfg);
      const n = +m[2];
      const weeks = (week1Start(y + 1, ws) - week1Start(y, ws)) / 7;
      if (n < 1 || n > weeks) return null;
      return { interval: i, n: week1Start(y, ws) + (n - 1) * 7 };
    }
    case "month": {
      const mo = +m[2];
      return mo < 1 || mo > 12 ? null : { interval: i, n: y * 12 + mo - 1 };
    }
    case "quarter":
      return { interval: i, n: y * 4 + (+m[2] - 1) };
    case "year":
      return { interval: i, n: y };
  }
  return null;
}

/** Whether key is a valid key of cfg's interval. */
export function isValidKey(cfg: PartitionsConfig, key: string): boolean {
  return parsePos(cfg, key) !== null;
}

/** The partition holding the instant. */
function posAt(cfg: PartitionsConfig, at: Date | number): Pos {
  const t = typeof at === "number" ? at : at.getTime();
  const w = wallTime(t, zoneOf(cfg));
  // An hour starts at the instant its wall clock shows :00 (at :30 UTC in
  // Asia/Kolkata), so floor in wall minutes, not in UTC hours.
  if (cfg.interval === "hour") return { interval: "hour", n: t - ((w.minute * 60 + w.second) * 1000 + w.ms) };
  return posOfWall(cfg, w.year, w.month, w.day, w.hour);
}

/** The key of the partition holding the instant. */
export function partitionAt(cfg: PartitionsConfig, at: Date | number): string {
  return keyOf(cfg, posAt(cfg, at));
}

/** The latest partition that has ended by now (the server's Spec.Latest), or "" before the first. */
export function latestPartition(cfg: PartitionsConfig, now: Date | number): string {
  if (cfg.interval === "none") return "all";
  const key = keyOf(cfg, step(posAt(cfg, now), -1));
  if (cfg.start && compareKeys(cfg, key, firstKey(cfg)) < 0) return "";
  return key;
}

/**
 * An example key for placeholders and "want e.g." hints: the latest
 * complete partition now, in cfg's interval and zone (the one a user most
 * likely means), else the first one. A fixed date (once 2024-03-10) read as
 * a suggestion years off.
 */
export function keyExample(cfg: PartitionsConfig, now: Date | number = Date.now()): string {
  if (cfg.interval === "none") return "all";
  return latestPartition(cfg, now) || firstKey(cfg) || partitionAt(cfg, now);
}

/** The first partition: the one holding the configured start date. */
export function firstKey(cfg: PartitionsConfig): string {
  const m = /^(\d{4})-(\d\d)-(\d\d)/.exec(cfg.start ?? "");
  if (!m) return "";
  const h = /T(\d\d)/.exec(cfg.start ?? "");
  return keyOf(cfg, posOfWall(cfg, +m[1], +m[2], +m[3], h ? +h[1] : 0));
}

/** The key n partitions after key (before, for negative n); null when key is not valid. */
export function shiftKey(cfg: PartitionsConfig, key: string, n: number): string | null {
  const p = parsePos(cfg, key);
  return p ? keyOf(cfg, step(p, n)) : null;
}

/** Orders keys of one interval by time (-1, 0, 1). Invalid keys compare as strings. */
export function compareKeys(cfg: PartitionsConfig, a: string, b: string): number {
  const pa = parsePos(cfg, a),
    pb = parsePos(cfg, b);
  if (!pa || !pb) return a < b ? -1 : a > b ? 1 : 0;
  return Math.sign(pa.n - pb.n);
}

/** The n keys ending with last, oldest first. */
export function lastKeys(cfg: PartitionsConfig, last: string, n: number): string[] {
  const p = parsePos(cfg, last);
  if (!p) return [];
  const out: string[] = [];
  for (let i = n - 1; i >= 0; i--) out.push(keyOf(cfg, step(p, -i)));
  return out;
}

/** The instant a partition starts, in its zone; null when key is not valid. */
export function partitionStart(cfg: PartitionsConfig, key: string): Date | null {
  const p = parsePos(cfg, key);
  if (!p) return null;
  let y: number, m: number, d: number;
  switch (p.interval) {
    case "hour":
      return new Date(p.n);
    case "day":
    case "week":
      ({ y, m, d } = civilFromDays(p.n));
      break;
    case "month":
      [y, m, d] = [Math.floor(p.n / 12), (p.n % 12) + 1, 1];
      break;
    case "quarter":
      [y, m, d] = [Math.floor(p.n / 4), (p.n % 4) * 3 + 1, 1];
      break;
    case "year":
      [y, m, d] = [p.n, 1, 1];
      break;
    default:
      return new Date(0);
  }
  return instantOf({ year: y, month: m, day: d }, zoneOf(cfg));
}

/** The key, in another calendar, of the partition holding key's start: a day's week, month or quarter. */
export function mapKey(from: PartitionsConfig, key: string, to: PartitionsConfig): string | null {
  const start = partitionStart(from, key);
  return start ? partitionAt(to, start) : null;
}
