// Package faults is the seeded fault-injection suite behind
// docs/guarantees.md: it kills the real strata binary (kill -9) at random
// moments of backfills of the demo project, resumes them, and checks the
// guarantees directly in the DuckDB file.
//
// A trial is one backfill of a fresh demo project, drawn from a seed: CLI
// (`strata backfill`, then `strata backfill resume`) or server (`strata
// start` and the HTTP API, restarted after each kill), partition or atomic
// publish, paced or not, concurrency 1 or 4, optionally with one partition
// already current before it starts, and one to three kills at random
// delays. After every kill and at the end the invariants are read from the
// warehouse: one current version per partition, content equal to a clean
// reference run, nothing that had succeeded run again, no atomic version
// visible before the promote, and the backfill's accounting equal to the
// catalog.
//
// `make test` runs a short slice (TestFaultsShort: one trial of each
// corner, about a minute); `make soak` runs STRATA_SOAK_TRIALS random trials
// (TestFaultSoak). Both print their seed; STRATA_SOAK_SEED replays it.
package faults
