package engine

import (
	"context"
	"maps"
	"slices"
	"testing"
)

// A promote's dry run lists exactly what the promote then switches: the
// weekly rollup staged in the range too (a confirmation that counted the
// days only listed 248 versions and then promoted 253), and it switches
// and records nothing.
func TestPromoteDryRunListsWhatThePromoteSwitches(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	files := func(scale string) map[string]string {
		f := reviewFiles(scale, "", "")
		f["pipelines/p.yaml"] += "  - id: wk\n    upstream: [src]\n    partitions: {interval: week}\n"
		f["blocks/wk.sql"] = `SELECT count(*) AS n, sum(v) AS total FROM src`
		return f
	}
	e := newEnv(t, false, files("1"))
	if st := e.backfill(spec("2024-01-01", "2024-01-14")); st.State != StateSucceeded {
		t.Fatalf("first backfill: %s %s", st.State, st.Message)
	}
	e.rewrite(files("2"))
	st := e.backfill(reviewSpec("2024-01-01", "2024-01-14"))
	if st.State != StateReview {
		t.Fatalf("%s %s", st.State, st.Message)
	}
	sum := e.count(`SELECT sum(v) FROM p__src`)
	plan, err := e.eng.PromoteBackfill(ctx, st.ID, PromoteOptions{Only: "2024-01-01..2024-01-07", DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if !plan.DryRun || plan.Partitions["p__src"] != 7 || plan.Partitions["p__agg"] != 7 || plan.Partitions["p__wk"] != 1 || plan.Versions != 15 {
		t.Fatalf("dry run: %+v", plan)
	}
	if got := plan.Plan["p__src"]; len(got) != 7 || got[0] != "2024-01-01" || got[6] != "2024-01-07" {
		t.Fatalf("dry run's src partitions: %v", got)
	}
	if n := e.count(`SELECT sum(v) FROM p__src`); n != sum {
		t.Fatalf("a dry run changed current data: sum %d, was %d", n, sum)
	}
	if rv := e.review(st.ID); len(rv.Promotions) != 0 || rv.Staged != plan.Versions+plan.Remaining {
		t.Fatalf("a dry run was recorded, or its remaining is off: %+v, staged %d", rv.Promotions, rv.Staged)
	}
	res, err := e.eng.PromoteBackfill(ctx, st.ID, PromoteOptions{Only: "2024-01-01..2024-01-07"})
	if err != nil {
		t.Fatal(err)
	}
	if res.DryRun || res.Versions != plan.Versions || !maps.Equal(res.Partitions, plan.Partitions) || res.Remaining != plan.Remaining {
		t.Fatalf("promoted %+v, the dry run said %+v", res, plan)
	}
	// Nothing left in the range: the dry run refuses as the promote would.
	if _, err := e.eng.PromoteBackfill(ctx, st.ID, PromoteOptions{Only: "2024-01-01..2024-01-07", DryRun: true}); err == nil {
		t.Fatal("a dry run of an already promoted range was not refused")
	}
	all, err := e.eng.PromoteBackfill(ctx, st.ID, PromoteOptions{DryRun: true})
	if err != nil || all.Versions != all.Partitions["p__src"]+all.Partitions["p__agg"]+all.Partitions["p__wk"] || !slices.IsSorted(all.Plan["p__src"]) {
		t.Fatalf("dry run of the rest: %+v %v", all, err)
	}
}
