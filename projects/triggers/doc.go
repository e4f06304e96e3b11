// Package triggers is the pure part of Strata's triggers: cron schedules in
// an IANA zone, which partitions a tick runs, and the catch-up plan after
// downtime. Everything takes `now` (or the tick) as an argument; nothing here
// reads a clock, the warehouse or the engine. The loop that launches due
// ticks through the engine lives in projects/triggers/launcher.
//
// # Wall-clock semantics through DST
//
// A cron expression names wall-clock times in the trigger's zone. Where the
// wall clock does not map to exactly one instant, Strata follows Vixie
// cron's rule, which is what people who wrote "30 1 * * *" expect:
//
//   - A schedule with fixed hours ("30 1 * * *", "0 9-17 * * 1-5") fires once
//     per matching wall time. On a fall-back night the repeated 01:30 fires
//     at its first occurrence only. On a spring-forward night a wall time in
//     the skipped hour fires once at the first valid instant after it (the
//     transition, 03:00 in America/New_York); several skipped wall times and
//     a real tick at that instant collapse into one tick.
//   - A schedule that fires every hour ("*/15 * * * *", "0 * * * *") keeps its
//     rhythm in elapsed time: both occurrences of a repeated hour fire and a
//     skipped hour has nothing to fire.
//
// A tick is identified by its instant (UTC); run and backfill ids derive from
// pipeline, trigger and tick, so replaying a tick after a crash finds the work
// it already launched.
package triggers
