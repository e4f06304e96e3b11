// Package engine runs pipelines: one partition at a time (`strata run`), or
// a backfill over a range, with dynamic fan-out, retries, pacing, crash-safe
// resume and consistent publishing.
//
// # How a run executes
//
// A run is a DAG of block executions for one partition. Scheduling is
// event-driven: every block waits on its upstreams' done channels and starts
// the moment the last one closes; there is no tick. Go blocks run on the
// kernel pool (whose size caps concurrent block runs), SQL blocks run inside
// the warehouse's DuckDB. A dynamic block's output rows each spawn a child of
// every block downstream of it down to the first reduce, which receives the
// union of the children's outputs; children are started through a bounded
// window, so 100,000 children are not 100,000 goroutines.
//
// Blocks partitioned like their pipeline run for the run's partition and
// publish together in one warehouse transaction. A block with a coarser
// interval (a weekly rollup in a daily pipeline) then runs for the coarse
// partition containing the run's, reading its upstream's fine partitions
// from the warehouse, and publishes in a second transaction.
//
// # State and exactly-once
//
// Run state is an append-only event log in the warehouse (_strata.run_events),
// written by one goroutine that groups many events into one transaction (DuckDB
// costs about a millisecond per commit and answers concurrent updates of one
// row with conflicts, so nothing here ever updates a row). The intent event is
// durable before a block is dispatched. Run ids are deterministic for
// backfills (backfill id + partition key), and every published version records
// its run id, so a resumed backfill asks the warehouse whether a run already
// published and never publishes the same run twice.
package engine
