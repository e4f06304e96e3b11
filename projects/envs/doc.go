// Package envs owns environments: named sets of current pointers over the
// one version store, beside prod's. An environment copies nothing. It
// holds a pointer only where it differs from prod: the versions its runs
// and backfills staged, pinned under its owner name ("env:<name>") in the
// warehouse's pins. Every other partition reads as prod's current one, so
// an environment with nothing changed holds no row at all.
//
//   - Create records the name and makes the warehouse overlay schema
//     <name> whose views (`dev.clv__clv`) show the environment's pointer
//     where it has one and prod's current version elsewhere.
//   - Runs and backfills aimed at it stage their versions (never current)
//     under its pins and read their upstreams through it (engine
//     RunOptions.PreferPinned, BackfillSpec.Into); prod's pointers do not
//     move.
//   - Diff is the review diff of every pinned version against prod's
//     current one, with the pipelines' review checks.
//   - Promote switches every pointer into prod in one transaction, each a
//     compare-and-set against the version prod held when the pointer's
//     version was staged (its based_on); one partition prod changed since
//     refuses all of it and names the partitions.
//   - Discard drops the environment's own versions, pins and views.
//   - Retention keeps every version an environment points at: pins are
//     what retention already protects.
//
// This package knows the warehouse and the engine; it knows nothing of
// HTTP or the CLI, which adapt it. Triggers stay in prod: nothing here
// launches work on a schedule.
package envs
