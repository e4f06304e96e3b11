package engine

import (
	"context"
	"strings"
	"testing"
)

const rewirePipeline = `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
retries: {attempts: 0}
blocks:
  - id: a
  - id: c
  - id: b
    upstream: [%s]
`

// TestRewiredBlockIsStale: a block's fingerprint is its code and the
// variables it reads, not its wiring, so a block whose upstream was changed
// in the pipeline file (b read a; now it reads c) kept its output "current":
// the dry run skipped it under --reprocess stale, and the notebook showed the
// cell current, though a run now computes it from other data.
func TestRewiredBlockIsStale(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"pipelines/p.yaml": sprintf(rewirePipeline, "a"),
		"blocks/a.sql":     "SELECT 1 AS n",
		"blocks/c.sql":     "SELECT 2 AS n",
		// A Go Transform reads its upstreams as parameters, so its text need
		// not change with them; this SQL stands in for one.
		"blocks/b.sql": "SELECT 10 AS n",
	}
	e := newEnv(t, false, files)
	if st := e.backfill(spec("2024-01-01", "2024-01-02")); st.State != StateSucceeded {
		t.Fatalf("backfill: %s", st.Message)
	}
	files["pipelines/p.yaml"] = sprintf(rewirePipeline, "c")
	writeFiles(t, e.dir, files)
	e.reload()
	s := spec("2024-01-01", "2024-01-02")
	s.Reprocess = ReprocessStale
	plan, err := e.eng.Plan(context.Background(), s, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range plan.Partitions {
		if p.Action != "run" || !strings.HasPrefix(p.Products["p__b"], "stale") || !strings.Contains(p.Reason, "upstreams changed") {
			t.Fatalf("partition %s after b was rewired from a to c: %s %s %q %v", p.Key, p.Action, p.State, p.Reason, p.Products)
		}
	}
	sts, err := e.eng.StoredStates(context.Background(), "p", "2024-01-01")
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range sts {
		want := "current"
		if st.Block == "b" {
			want = "stale"
		}
		if st.State != want || (st.Block == "b" && st.Cause != CauseUpstream) {
			t.Fatalf("stored state of %s after the rewire: %+v, want %s", st.Block, st, want)
		}
	}
}

// TestSwappedUpstreamsAreStale: the same upstream products in another
// order are other inputs for a Go Transform (its parameters are the
// upstreams in the pipeline's order), yet the lineage recorded only which
// products a version read, as a map, so after 'upstream: [a, c]' became
// '[c, a]' the dry run skipped the partitions under --reprocess stale and
// the cell said current, though the stored output was computed with the
// tables the other way round. A version records the order it read its
// upstreams in; a version written before that was recorded is compared by
// the products alone, as before.
func TestSwappedUpstreamsAreStale(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"pipelines/p.yaml": sprintf(rewirePipeline, "a, c"),
		"blocks/a.sql":     "SELECT 1 AS n",
		"blocks/c.sql":     "SELECT 2 AS n",
		"blocks/b.sql":     "SELECT 10 AS n", // stands in for a Go Transform(ctx, x, y)
	}
	e := newEnv(t, false, files)
	if st := e.backfill(spec("2024-01-01", "2024-01-02")); st.State != StateSucceeded {
		t.Fatalf("backfill: %s", st.Message)
	}
	s := spec("2024-01-01", "2024-01-02")
	s.Reprocess = ReprocessStale
	plan, err := e.eng.Plan(context.Background(), s, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range plan.Partitions {
		if p.Action != "skip" {
			t.Fatalf("partition %s before the swap: %s %s %q", p.Key, p.Action, p.State, p.Reason)
		}
	}

	files["pipelines/p.yaml"] = sprintf(rewirePipeline, "c, a")
	writeFiles(t, e.dir, files)
	e.reload()
	if plan, err = e.eng.Plan(context.Background(), s, 0, -1); err != nil {
		t.Fatal(err)
	}
	for _, p := range plan.Partitions {
		if p.Action != "run" || !strings.HasPrefix(p.Products["p__b"], "stale") || !strings.Contains(p.Reason, "order") {
			t.Fatalf("partition %s after b's upstreams swapped: %s %s %q %v", p.Key, p.Action, p.State, p.Reason, p.Products)
		}
	}
	sts, err := e.eng.StoredStates(context.Background(), "p", "2024-01-01")
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range sts {
		if st.Block == "b" && (st.State != "stale" || st.Cause != CauseUpstream) {
			t.Fatalf("stored state of b after the swap: %+v, want stale (upstream)", st)
		}
	}
	// Run again, it is current in the new order.
	if st := e.backfill(s); st.State != StateSucceeded {
		t.Fatalf("backfill after the swap: %s", st.Message)
	}
	if plan, err = e.eng.Plan(context.Background(), s, 0, -1); err != nil {
		t.Fatal(err)
	}
	for _, p := range plan.Partitions {
		if p.Action != "skip" {
			t.Fatalf("partition %s after the rerun: %s %s %q", p.Key, p.Action, p.State, p.Reason)
		}
	}
	// A version written before the order was recorded is judged by the
	// products it read, as before: not stale for a swap.
	if _, err := e.wh.DB().Exec(`UPDATE _strata.versions SET inputs = NULL`); err != nil {
		t.Fatal(err)
	}
	files["pipelines/p.yaml"] = sprintf(rewirePipeline, "a, c")
	writeFiles(t, e.dir, files)
	e.reload()
	if plan, err = e.eng.Plan(context.Background(), s, 0, -1); err != nil {
		t.Fatal(err)
	}
	for _, p := range plan.Partitions {
		if p.Action != "skip" {
			t.Fatalf("partition %s, versions without a recorded order: %s %s %q", p.Key, p.Action, p.State, p.Reason)
		}
	}
}
