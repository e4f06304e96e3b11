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
