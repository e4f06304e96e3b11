package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// A backfill of a subset of blocks recomputes only those; a left-out
// upstream is read from the warehouse, a left-out downstream keeps its
// versions and is then stale, and the rollups of blocks left out are not
// scheduled.
func TestBackfillBlockSubset(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, false, dailyFiles(""))
	if st := e.backfill(spec("2024-01-01", "2024-01-07")); st.State != StateSucceeded {
		t.Fatalf("first backfill: %s %s", st.State, st.Message)
	}

	// Only src, all three days again.
	s := spec("2024-01-01", "2024-01-03")
	s.Blocks, s.Reprocess = []string{"src"}, ReprocessAll
	st := e.backfill(s)
	if st.State != StateSucceeded || st.Progress.Succeeded != 3 || st.Total != 3 {
		t.Fatalf("subset backfill: %s %+v total %d %s", st.State, st.Progress, st.Total, st.Message)
	}
	if n := e.count(`SELECT count(*) FROM _strata.versions WHERE product = 'p__src' AND version = 2`); n != 3 {
		t.Fatalf("src: %d partitions at v2, want 3", n)
	}
	if n := e.count(`SELECT count(*) FROM _strata.versions WHERE product IN ('p__agg', 'p__weekly') AND version > 1`); n != 0 {
		t.Fatalf("agg or weekly rewritten by a backfill of src only (%d versions)", n)
	}
	// The left-out downstream is stale where the subset rewrote its input.
	full := spec("2024-01-01", "2024-01-07")
	full.Reprocess = ReprocessStale
	plan, err := e.eng.Plan(ctx, full, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	if plan.ByState["stale"] != 3 || plan.ToRun < 3 {
		t.Fatalf("after the subset: states %v, to run %d; want the 3 days stale", plan.ByState, plan.ToRun)
	}

	// Only agg: it reads src's current versions (v2) from the warehouse.
	s = spec("2024-01-01", "2024-01-03")
	s.Blocks, s.Reprocess = []string{"agg"}, ReprocessStale
	if st := e.backfill(s); st.State != StateSucceeded || st.Progress.Succeeded != 3 {
		t.Fatalf("agg subset: %s %+v %s", st.State, st.Progress, st.Message)
	}
	if n := e.count(`SELECT count(*) FROM _strata.versions WHERE product = 'p__src' AND version = 3`); n != 0 {
		t.Fatal("a backfill of agg only ran src")
	}
	if n := e.count(`SELECT count(*) FROM _strata.versions WHERE product = 'p__agg' AND version = 2`); n != 3 {
		t.Fatalf("agg: %d partitions at v2, want 3", n)
	}

	// A subset over days where its left-out upstream has no data fails,
	// naming the upstream.
	s = spec("2024-01-08", "2024-01-08")
	s.Blocks = []string{"agg"}
	st = e.backfill(s)
	if st.State != StateFailed || st.Progress.Failed != 1 {
		t.Fatalf("agg over a day without src: %s %+v", st.State, st.Progress)
	}
	fails, err := e.eng.BackfillFailures(ctx, st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(fails) != 1 || !strings.Contains(fails[0].Example, "upstream src has no data") {
		t.Fatalf("failure groups %+v: want the missing upstream src named", fails)
	}
}

// A subset naming what is not a block, or only a rollup, is refused with
// the reason before anything runs.
func TestBackfillBlockSubsetRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	for _, c := range []struct {
		blocks []string
		want   string
	}{
		{[]string{"src", "nope"}, `no block "nope" (its blocks: src, agg, weekly)`},
		{[]string{"weekly"}, "has no block partitioned by day"},
	} {
		s := spec("2024-01-01", "2024-01-03")
		s.Blocks = c.blocks
		_, err := e.eng.Plan(context.Background(), s, 0, -1)
		var se *SpecError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("blocks %v: %v, want a SpecError with %q", c.blocks, err, c.want)
		}
	}
	if n := e.count(`SELECT count(*) FROM _strata.versions`); n != 0 {
		t.Fatal("a refused subset wrote versions")
	}
}

// TestBackfillBlockSubsetWithWhere: a block subset and a value-dimension
// filter narrow the same backfill together: only the chosen blocks run,
// and only in the chosen regions; the left-out downstream turns stale in
// those regions alone.
func TestBackfillBlockSubsetWithWhere(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, false, cellFiles(""))
	if st := e.backfill(cellSpec("2024-01-01", "2024-01-03", nil)); st.State != StateSucceeded {
		t.Fatalf("first backfill: %s %+v %s", st.State, st.Progress, st.Message)
	}

	// src only, eu only, all three days again.
	s := cellSpec("2024-01-01", "2024-01-03", map[string][]string{"region": {"eu"}})
	s.Blocks, s.Reprocess = []string{"src"}, ReprocessAll
	plan, err := e.eng.Plan(ctx, s, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Total != 3 || plan.ToRun != 3 || len(plan.Rollups) != 0 {
		t.Fatalf("plan of src × eu: total %d, to run %d, %d rollups; want 3, 3, 0", plan.Total, plan.ToRun, len(plan.Rollups))
	}
	for _, p := range plan.Partitions {
		if !strings.HasSuffix(p.Key, "|eu") {
			t.Fatalf("plan of src × eu holds %s", p.Key)
		}
	}
	st := e.backfill(s)
	if st.State != StateSucceeded || st.Progress.Succeeded != 3 || st.Total != 3 {
		t.Fatalf("src × eu: %s %+v total %d %s", st.State, st.Progress, st.Total, st.Message)
	}
	for _, c := range []struct {
		query string
		want  int
	}{
		{`SELECT count(*) FROM _strata.current WHERE product = 'p__src' AND version = 2 AND partition LIKE '%|eu'`, 3},
		{`SELECT count(*) FROM _strata.versions WHERE product = 'p__src' AND version > 1 AND partition NOT LIKE '%|eu'`, 0},
		{`SELECT count(*) FROM _strata.versions WHERE product IN ('p__agg', 'p__weekly') AND version > 1`, 0},
	} {
		if n := e.count(c.query); n != c.want {
			t.Errorf("after src × eu: %s = %d, want %d", c.query, n, c.want)
		}
	}

	// agg is stale in eu only: its input changed there and nowhere else.
	stale := cellSpec("2024-01-01", "2024-01-03", nil)
	stale.Blocks, stale.Reprocess = []string{"agg"}, ReprocessStale
	if plan, err = e.eng.Plan(ctx, stale, 0, -1); err != nil {
		t.Fatal(err)
	}
	var run []string
	for _, p := range plan.Partitions {
		if p.Action == "run" {
			run = append(run, p.Key)
		}
	}
	if strings.Join(run, " ") != "2024-01-01|eu 2024-01-02|eu 2024-01-03|eu" {
		t.Fatalf("agg stale after src × eu: %v (states %v)", run, plan.ByState)
	}

	// agg only, us and eu: eu's three are stale, us's current.
	s = cellSpec("2024-01-01", "2024-01-03", map[string][]string{"region": {"us", "eu"}})
	s.Blocks, s.Reprocess = []string{"agg"}, ReprocessStale
	st = e.backfill(s)
	if st.State != StateSucceeded || st.Progress.Succeeded != 3 || st.Progress.Skipped != 3 {
		t.Fatalf("agg × us,eu stale: %s %+v %s", st.State, st.Progress, st.Message)
	}
	if n := e.count(`SELECT count(*) FROM _strata.current WHERE product = 'p__agg' AND version = 2 AND partition LIKE '%|eu'`); n != 3 {
		t.Fatalf("agg × eu: %d cells at v2, want 3", n)
	}
	if n := e.count(`SELECT count(*) FROM _strata.versions WHERE product = 'p__src' AND version > 2`); n != 0 {
		t.Fatal("a backfill of agg only ran src")
	}
}
