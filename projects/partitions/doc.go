// Package partitions is Strata's partition math: what a partition key means,
// which instants a partition covers, ranges of partitions, and the mapping
// between intervals, in any IANA time zone and across DST.
//
// It owns partition keys (their formats, strict parsing and stable
// spelling), ranges (inclusive, counted without materializing, iterated
// lazily, capped when materialized), and zone and DST math (23- and 25-hour
// days, skipped and repeated hours, week numbering). It is pure: the current
// time is passed in (Spec.Latest takes now), nothing reads the clock, and
// nothing does I/O beyond loading zone data through the time package.
//
// It must not know about the warehouse (products, versions, staleness
// records), the run engine, pipelines files, or HTTP. Those packages ask it
// questions such as "which days make up 2024-W10" or "which weeks does
// rewriting 2024-03-10 make stale" and store the answers themselves.
//
// # Keys
//
//	hour     2024-03-10T14          a repeated hour: 2024-11-03T01-04:00, 2024-11-03T01-05:00
//	day      2024-03-10
//	week     2024-W10               two-digit week; the year is the week-year
//	month    2024-03
//	quarter  2024-Q1
//	year     2024
//	none     all                    one partition covering all time, zero Start and End
//
// Keys are written in the spec's zone: 2024-03-10 in America/New_York is the
// New York calendar day. Years are four digits (0000-9999); At still answers
// for instants outside those years, but Parse refuses their keys. Keys of one
// interval sort lexicographically in time order, with one exception: the two
// keys of an hour repeated when clocks fall back carry UTC offsets, and east
// of UTC the first occurrence has the larger offset (2024-10-27T02+02:00
// before 2024-10-27T02+01:00 in Europe/Berlin). Callers that need time order
// should order by Partition.Start.
//
// # Time zones and DST
//
// Partition boundaries are wall-clock boundaries in the spec's zone. The
// boundary at a wall time W is the first instant at which the zone's clock
// shows W or later, so:
//
//   - A day runs from local midnight to the next local midnight: 23 hours on
//     2024-03-10 and 25 hours on 2024-11-03 in America/New_York. Lengths are
//     never added (no Start+24h).
//   - A day whose midnight is skipped (America/Sao_Paulo sprang forward at
//     00:00 until 2019) starts at the transition, 01:00 local.
//   - An hour the clocks skip does not exist: Parse("2024-03-10T02") in New
//     York is an error saying so (errors.Is ErrSkipped). A day the zone
//     skipped entirely (2011-12-30 in Pacific/Apia) does not exist either,
//     and Range, Count and Iter step over it.
//   - An hour repeated when clocks fall back is two partitions whose keys
//     carry the offset. The plain key of such an hour is ambiguous
//     (ErrAmbiguous) and the error lists both valid keys. Offsets are
//     written only for repeated hours, so every partition has one spelling.
//   - Zones with offsets of 30 or 45 minutes (Asia/Kolkata, Australia/Adelaide,
//     Asia/Kathmandu) work the same way: their hours start at :30 or :15 UTC;
//     a half-hour clock change (Australia/Lord_Howe) leaves a 30-minute hour.
//
// # Weeks
//
// Weeks start on Spec.WeekStart (NewSpec defaults to Monday). Week 1 of a year
// is the first week with at least four days in that year, which is the week
// containing January 4, and the key's year is the year of the week's fourth
// day. With Monday this is exactly ISO 8601: 2020-12-31 and 2021-01-01 are
// both in 2020-W53, and 2020 and 2026 have 53 weeks. The same rule applied
// to weeks starting Sunday gives the US CDC epidemiological ("MMWR") weeks;
// US "week 1 contains January 1" numbering is not offered because its partial
// first and last weeks cannot tile time. Week keys only make sense together
// with their week start: 2024-W10 names different days for Monday and Sunday
// weeks.
//
// # Bounds and the unpartitioned interval
//
// Spec.Start is the first partition: Parse, Range, Count and Iter refuse keys
// before it, Latest returns the zero Partition until the first partition is
// complete, and Covering and Containing leave out partitions before the
// other spec's first. At, Next and Prev are plain calendar math and ignore
// it.
//
// Interval none has a single partition, "all", with zero Start and End; it
// contains every instant, At always returns it, Latest returns it (it is
// always current), Next and Prev return the zero Partition (there is no
// neighbour), Range("all", "all") has one element, and it overlaps every
// partition of every other spec in Covering and Containing.
package partitions
