// Package audit is the append-only record of who did what to a project:
// every run, backfill, promote, discard, rollback, trigger change, file
// save and user change, with the actor's name, as the server (or the CLI)
// saw it where the request entered.
//
// It is a JSON-lines file, .strata/audit.jsonl, not a warehouse table: the
// CLI must be able to read it (and append its own runs) while `strata
// start` holds the warehouse, which DuckDB opens for one process only. Lines
// are only ever appended, each under an exclusive file lock in one write, so
// two processes never interleave one. Nothing here edits or deletes a line.
//
// It knows nothing of roles or HTTP: callers hand it the actor.
package audit
