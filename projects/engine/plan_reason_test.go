package engine

import (
	"context"
	"strings"
	"testing"
)

// A dry run after a variable change says that the variable changed, as the
// notebook's cell states do; before, the plan said "the code of src
// changed", sending the user to look for an edit nobody made.
func TestPlanSaysAVariableChangedNotTheCode(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	if st := e.backfill(spec("2024-01-01", "2024-01-03")); st.State != StateSucceeded {
		t.Fatalf("backfill: %s", st.Message)
	}
	writeFiles(t, e.dir, map[string]string{"pipelines/p.yaml": sprintf(dailyPipeline, "2030-01-01")})
	e.reload()
	s := spec("2024-01-01", "2024-01-03")
	s.Reprocess = ReprocessStale
	plan, err := e.eng.Plan(context.Background(), s, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range plan.Partitions {
		if p.State != "stale" || !strings.Contains(p.Reason, `fail_on "" → "2030-01-01"`) || strings.Contains(p.Reason, "code") {
			t.Fatalf("partition %s after a variable change: %s, %q", p.Key, p.State, p.Reason)
		}
		// agg reads src, which the variable changes: it is rewritten too,
		// and was shown "current v1".
		for prod, st := range p.Products {
			if !strings.HasPrefix(st, "stale") {
				t.Fatalf("partition %s: product %s is %q after its upstream's variable changed; want stale", p.Key, prod, st)
			}
		}
	}
	for _, r := range plan.Rollups {
		if r.Action != "run" || !strings.HasPrefix(r.State, "stale") {
			t.Fatalf("rollup %s of rewritten days: %s %s %v", r.Key, r.Action, r.State, r.Products)
		}
		for prod, st := range r.Products {
			if !strings.HasPrefix(st, "stale") {
				t.Fatalf("rollup %s: product %s is %q although its days are rewritten", r.Key, prod, st)
			}
		}
	}
	// A code change still says code.
	files := dailyFiles("2030-01-01")
	files["blocks/agg.sql"] = `SELECT count(*) + 0 AS n, sum(x) AS s, $partition_key AS day FROM src`
	writeFiles(t, e.dir, files)
	e.reload()
	if st := e.backfill(s); st.State != StateSucceeded {
		t.Fatalf("stale pass: %s", st.Message)
	}
	files["blocks/agg.sql"] = `SELECT count(*) + 1 AS n, sum(x) AS s, $partition_key AS day FROM src`
	writeFiles(t, e.dir, files)
	e.reload()
	plan, err = e.eng.Plan(context.Background(), s, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	if p := plan.Partitions[0]; p.State != "stale" || p.Reason != "the code of agg changed" {
		t.Fatalf("after a code change: %s %q", p.State, p.Reason)
	}
}
