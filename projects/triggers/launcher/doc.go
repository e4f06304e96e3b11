// Package launcher runs a project's triggers inside the server process: a
// loop that, at each tick of each schedule trigger, records the firing in
// the warehouse (_strata.trigger_ticks) and then launches the tick's work
// through the engine's own Launch and Run; it is not a second scheduler.
// Work launched by a trigger therefore gets the engine's concurrency caps,
// retries, pacing, crash-safe resume and snapshot binding, and carries an
// engine.Origin naming the trigger and tick (or the upstream change).
//
// Exactly once: a tick's work has a deterministic id (triggers.TickID), the
// firing row is written before the launch, and the last recorded tick is
// where the next start counts from. A crash between the row and the launch
// leaves an intent that the next start launches; a crash after the launch
// leaves a backfill that the engine resumes; LaunchAs under the same id
// never launches a second one. Ticks of one trigger run one after another,
// oldest first (a slow run delays the next tick instead of overlapping it).
//
// Event triggers follow the engine's publish notices: versions of a product
// that a downstream pipeline's trigger names are collected per trigger until
// the upstream work that published them has ended and a quiet period has
// passed, then mapped to the downstream partitions that overlap them (a day
// to its week, as staleness maps them) and launched as one backfill per
// contiguous range: an upstream backfill of 1,000 days is one downstream
// backfill. Pending changes live in memory until they are launched: a crash
// in the quiet period loses them (the downstream partitions then show as
// stale in a plan).
//
// The loop reads trigger definitions from the engine's current project at
// every step, and wakes when the engine's project is swapped (SetProject),
// so editing a pipeline file takes effect without a restart.
package launcher
