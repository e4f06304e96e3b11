// Time zones and formatting. Every timestamp the UI shows goes through
// formatInstant with the zone the user picked (the browser's, UTC or the
// pipeline's); settings.ts remembers the choice in localStorage.

export type ZoneMode = "local" | "utc" | "pipeline";

export const ZONE_MODES: ZoneMode[] = ["local", "utc", "pipeline"];

export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** The IANA zone for a mode; pipelineZone falls back to UTC when unknown. */
export function resolveZone(mode: ZoneMode, pipelineZone: string | undefined, local = browserZone()): string {
  switch (mode) {
    case "utc":
      return "UTC";
    case "pipeline":
      return pipelineZone || "UTC";
    default:
      return local;
  }
}

/** The stored mode; nothing stored means the pipeline's zone (the zone its partitions are cut in). */
export function parseZoneMode(v: string | null | undefined): ZoneMode {
  return v === "utc" || v === "pipeline" || v === "local" ? v : "pipeline";
}

export interface WallTime {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
  ms: number;
}

const partsCache = new Map<string, Intl.DateTimeFormat>();

function partsFormat(zone: string): Intl.DateTimeFormat {
  let f = partsCache.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    partsCache.set(zone, f);
  }
  return f;
}

/** The wall-clock reading of an instant in zone. */
export function wallTime(at: Date | number, zone: string): WallTime {
  const d = typeof at === "number" ? new Date(at) : at;
  const w: WallTime = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0, ms: d.getUTCMilliseconds() };
  for (const p of partsFormat(zone).formatToParts(d)) {
    switch (p.type) {
      case "year":
        w.year = +p.value;
        break;
      case "month":
        w.month = +p.value;
        break;
      case "day":
        w.day = +p.value;
        break;
      case "hour":
        w.hour = +p.value % 24;
        break;
      case "minute":
        w.minute = +p.value;
        break;
      case "second":
        w.second = +p.value;
        break;
    }
  }
  return w;
}

/** The zone's offset from UTC at an instant, in minutes (New York in winter: -300). */
export function zoneOffsetMinutes(at: Date | number, zone: string): number {
  const t = typeof at === "number" ? at : at.getTime();
  const w = wallTime(t, zone);
  const asUTC = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second, w.ms);
  return Math.round((asUTC - t) / 60000);
}

/**
 * The instant a wall-clock time in zone names. A time skipped by a DST jump
 * resolves after the jump, a repeated one to its first occurrence, as Go's
 * time.Date does.
 */
export function instantOf(w: Partial<WallTime> & { year: number; month: number; day: number }, zone: string): Date {
  const guess = Date.UTC(w.year, w.month - 1, w.day, w.hour ?? 0, w.minute ?? 0, w.second ?? 0, w.ms ?? 0);
  let t = guess - zoneOffsetMinutes(guess, zone) * 60000;
  const off2 = zoneOffsetMinutes(t, zone);
  const t2 = guess - off2 * 60000;
  if (t2 !== t) {
    // Near a transition: prefer the earlier instant whose wall time matches.
    const cand = [t, t2].sort((a, b) => a - b);
    for (const c of cand) {
      const back = wallTime(c, zone);
      if (back.hour === (w.hour ?? 0) && back.day === w.day) return new Date(c);
    }
    t = Math.max(t, t2);
  }
  return new Date(t);
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** "2024-01-02 06:29:59" in zone; seconds dropped when asked. */
export function formatInstant(at: string | Date | number, zone: string, opts: { seconds?: boolean; ms?: boolean } = {}): string {
  const d = at instanceof Date ? at : new Date(at);
  if (Number.isNaN(d.getTime())) return String(at);
  const w = wallTime(d, zone);
  let s = `${w.year}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}`;
  if (opts.seconds !== false) s += `:${pad(w.second)}`;
  if (opts.ms) s += `.${pad(w.ms, 3)}`;
  return s;
}

/** Just the clock: "06:29:59". */
export function formatClock(at: string | Date | number, zone: string): string {
  return formatInstant(at, zone).slice(11);
}

/** Human durations: "340 ms", "1.2 s", "2 min 03 s", "1 h 02 min". */
export function formatDuration(ms: number | undefined | null): string {
  if (ms == null || !Number.isFinite(ms)) return "–";
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(s < 10 ? 2 : 1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${pad(Math.round(s - m * 60))} s`;
  const h = Math.floor(m / 60);
  return `${h} h ${pad(m - h * 60)} min`;
}

/** Go's time.Duration in JSON is nanoseconds. */
export function nsToMs(ns: number | undefined | null): number {
  return (ns ?? 0) / 1e6;
}

/** Whether a string looks like an RFC 3339 timestamp the server sent. */
export function isTimestamp(v: unknown): v is string {
  return typeof v === "string" && /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(v);
}

/** "+05:30", "-04:00", "+00:00" for an offset in minutes. */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const m = Math.abs(minutes);
  return `${sign}${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
}

/**
 * An instant in zone with its offset, keeping the sub-second digits the
 * server sent: "2024-03-10 08:00:00.123456 -04:00". Instants (TIMESTAMPTZ)
 * are the only values shown in the display zone, so they say which offset
 * they are read in.
 */
export function formatInstantOffset(iso: string, zone: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const frac = /:\d\d(\.\d+)(?:Z|[+-]\d\d:\d\d)$/.exec(iso)?.[1] ?? "";
  return `${formatInstant(d, zone)}${frac} ${formatOffset(zoneOffsetMinutes(d, zone))}`;
}

/** A wall time without zone (TIMESTAMP) as sent, "2024-03-10T02:30:00", shown as "2024-03-10 02:30:00": never shifted. */
export function formatWallTime(s: string): string {
  return s.replace("T", " ");
}

/** How long ago an instant was: "just now", "40 s ago", "5 min ago", "3 h ago", "2 d ago". */
export function formatAgo(at: number, now: number): string {
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 5) return "just now";
  if (s < 60) return `${s} s ago`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.floor(h / 24)} d ago`;
}

/**
 * A block run's log with each line's leading instant ("2024-03-10T12:00:01.250Z
 * info …", as the engine writes ctx.Log lines) shown as the clock in zone
 * ("08:00:01.250 info …"). Other lines (stdout, older logs) stay as they are.
 */
export function logInZone(log: string, zone: string): string {
  return log.replace(/^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)) /gm, (whole, at: string) => {
    const d = new Date(at);
    return Number.isNaN(d.getTime()) ? whole : formatInstant(d, zone, { ms: true }).slice(11) + " ";
  });
}

let zones: string[] | undefined;
/** The IANA zones the browser knows, UTC first when missing: the zone pickers' list. */
export function zoneList(): string[] {
  if (!zones) {
    const intl = Intl as unknown as { supportedValuesOf?: (k: string) => string[] };
    zones = intl.supportedValuesOf?.("timeZone") ?? ["UTC"];
    if (!zones.includes("UTC")) zones.unshift("UTC");
  }
  return zones;
}
