package engine

import (
	"context"
	"strings"
	"testing"
)

// TestProductReadIsLineage: a block that reads a global product with
// ctx.Product computes from it as from an upstream, yet its version
// recorded only its pipeline upstreams, and staleness compared only the
// pipeline's own products: after raw_events 2024-01-05 was rewritten, the
// reader's partition stayed current (the dry run skipped it under
// --reprocess stale, the cell said current) though a run now reads other
// rows.
func TestProductReadIsLineage(t *testing.T) {
	e := newEnv(t, false, map[string]string{
		"pipelines/raw.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: raw
    product: raw_events
`,
		"blocks/raw.sql":          "SELECT $partition_key AS day\n",
		"pipelines/readers.yaml":  readerPipeline("1000h"),
		"blocks/reader/reader.go": readerBlock,
	})
	e.mustSucceed(e.run("raw", "2024-01-05"))
	e.mustSucceed(e.run("readers", "2024-01-10"))
	s := spec("2024-01-10", "2024-01-10")
	s.Pipeline, s.Reprocess = "readers", ReprocessStale
	plan, err := e.eng.Plan(context.Background(), s, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	if p := plan.Partitions[0]; p.Action != "skip" {
		t.Fatalf("before the rewrite: %s %s %q", p.Action, p.State, p.Reason)
	}
	e.mustSucceed(e.run("raw", "2024-01-05"))
	if plan, err = e.eng.Plan(context.Background(), s, 0, -1); err != nil {
		t.Fatal(err)
	}
	if p := plan.Partitions[0]; p.Action != "run" || !strings.Contains(p.Reason, "raw_events") {
		t.Fatalf("after raw_events 2024-01-05 was rewritten: %s %s %q, want stale, naming raw_events", p.Action, p.State, p.Reason)
	}
	sts, err := e.eng.StoredStates(context.Background(), "readers", "2024-01-10")
	if err != nil || len(sts) != 1 || sts[0].State != "stale" {
		t.Fatalf("stored state after the rewrite: %+v %v, want stale", sts, err)
	}
}

// TestSQLProductReadByNameIsLineage: a SQL block that reads a global
// product by its view's name, without declaring it, computes from it as a
// ctx.Product read does, yet recorded nothing of it: after raw_events was
// rewritten, the reader stayed current in the dry run. The versions the
// query read (every current partition of the product, in its snapshot) are
// its lineage now.
func TestSQLProductReadByNameIsLineage(t *testing.T) {
	e := newEnv(t, false, map[string]string{
		"pipelines/raw.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: raw
    product: raw_events
`,
		"blocks/raw.sql": "SELECT $partition_key AS day\n",
		"pipelines/readers.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: counter
    product: event_counts
`,
		// A CTE named like a product shadows it: "other" reads nothing global.
		"blocks/counter.sql": "WITH other AS (SELECT 1 AS x) SELECT $partition_key AS day, count(*) AS n FROM raw_events, other\n",
	})
	e.mustSucceed(e.run("raw", "2024-01-05"))
	e.mustSucceed(e.run("readers", "2024-01-10"))
	s := spec("2024-01-10", "2024-01-10")
	s.Pipeline, s.Reprocess = "readers", ReprocessStale
	plan, err := e.eng.Plan(context.Background(), s, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	if p := plan.Partitions[0]; p.Action != "skip" {
		t.Fatalf("before the rewrite: %s %s %q", p.Action, p.State, p.Reason)
	}
	e.mustSucceed(e.run("raw", "2024-01-05"))
	if plan, err = e.eng.Plan(context.Background(), s, 0, -1); err != nil {
		t.Fatal(err)
	}
	if p := plan.Partitions[0]; p.Action != "run" || !strings.Contains(p.Reason, "raw_events") {
		t.Fatalf("after raw_events 2024-01-05 was rewritten: %s %s %q, want stale, naming raw_events", p.Action, p.State, p.Reason)
	}
}
