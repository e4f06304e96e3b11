package engine

import (
	"context"
	"strings"
	"testing"
)

// TestFreshnessReadDoesNotUndoARollback: raw_events 2024-01-05 v2 was bad,
// so it was rolled back to v1, computed 10 hours earlier. A reader with
// max_age 6h then refreshed it at once (v1 is 10 hours old), so the next
// read made a v3 with the code that had made v2, and the rollback the user
// had just been told succeeded was gone. The version a rollback puts back
// keeps the age of its data (when it was computed: a rollback does not make
// data younger, as a Dagster materialization's time or a SQLMesh
// interval's stays), so it is not fresh either: the read fails, saying
// why and what refreshes it, and nothing is recomputed over the rollback.
func TestFreshnessReadDoesNotUndoARollback(t *testing.T) {
	e := newEnv(t, false, map[string]string{
		"pipelines/raw.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: raw
    product: raw_events
`,
		"blocks/raw.sql":          "SELECT $partition_key AS day\n",
		"pipelines/readers.yaml":  readerPipeline("6h"),
		"blocks/reader/reader.go": readerBlock,
	})
	ctx := context.Background()
	e.mustSucceed(e.run("raw", "2024-01-05"))
	if _, err := e.wh.DB().Exec(`UPDATE _strata.versions SET created_at = created_at - INTERVAL 10 HOUR WHERE product = 'raw_events'`); err != nil {
		t.Fatal(err)
	}
	e.mustSucceed(e.run("raw", "2024-01-05"))
	if err := e.eng.RollbackProduct(ctx, "raw_events", "2024-01-05", 1); err != nil {
		t.Fatal(err)
	}
	current := func() int {
		return e.count(`SELECT version FROM _strata.current WHERE product = 'raw_events' AND partition = '2024-01-05'`)
	}

	res := e.run("readers", "2024-01-10")
	if v := current(); v != 1 {
		t.Fatalf("a max_age read after the rollback to v1 made v%d current: the rollback was undone", v)
	}
	if res.State != StateFailed || !strings.Contains(res.Error, "rollback") || !strings.Contains(res.Error, "max_age 6h") {
		t.Fatalf("reader after the rollback: %s %q, want failed, naming the rollback and max_age", res.State, res.Error)
	}
	if n := e.count(`SELECT count(*) FROM _strata.versions WHERE product = 'raw_events'`); n != 2 {
		t.Fatalf("%d versions of raw_events, want 2: nothing recomputed", n)
	}

	// A version put back that is younger than max_age is read as it is.
	if _, err := e.wh.DB().Exec(`UPDATE _strata.versions SET created_at = now() WHERE product = 'raw_events' AND version = 1`); err != nil {
		t.Fatal(err)
	}
	e.mustSucceed(e.run("readers", "2024-01-11"))
	if v := current(); v != 1 {
		t.Fatalf("a fresh rolled-back version was replaced: v%d", v)
	}

	// Written again by a run, the partition is refreshed as any other.
	if _, err := e.wh.DB().Exec(`UPDATE _strata.versions SET created_at = created_at - INTERVAL 10 HOUR WHERE product = 'raw_events'`); err != nil {
		t.Fatal(err)
	}
	e.mustSucceed(e.run("raw", "2024-01-05"))
	if _, err := e.wh.DB().Exec(`UPDATE _strata.versions SET created_at = created_at - INTERVAL 10 HOUR WHERE product = 'raw_events' AND version = 3`); err != nil {
		t.Fatal(err)
	}
	e.mustSucceed(e.run("readers", "2024-01-12"))
	if v := current(); v != 4 {
		t.Fatalf("after a run wrote the partition again, a stale read refreshed to v%d, want v4", v)
	}
}
