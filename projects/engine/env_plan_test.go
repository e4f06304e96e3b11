package engine

import (
	"context"
	"strings"
	"testing"
)

// A backfill into an environment plans --reprocess missing and stale
// against what the environment holds (its pins, else prod's current
// versions), not against prod alone: a partition built in the environment
// is not missing there, and one rebuilt there with the new code is not
// stale there.
func TestEnvBackfillPlansAgainstTheEnv(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	e.backfill(spec("2024-01-01", "2024-01-05"))
	const owner = "env:dev"
	inEnv := RunOptions{Stage: true, Pin: owner, PreferPinned: owner}
	res, err := e.eng.Run(context.Background(), "p", "2024-01-07", inEnv)
	if err != nil {
		t.Fatal(err)
	}
	e.mustSucceed(res)

	missing := spec("2024-01-01", "2024-01-09")
	missing.Reprocess, missing.Into = "missing", owner
	plan, err := e.eng.Plan(context.Background(), missing, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	var run []string
	for _, p := range plan.Partitions {
		if p.Action == "run" {
			run = append(run, p.Key)
		}
	}
	if got := strings.Join(run, " "); got != "2024-01-06 2024-01-08 2024-01-09" {
		t.Fatalf("missing in env:dev plans %q, want 2024-01-06 2024-01-08 2024-01-09 (dev built 2024-01-07)", got)
	}

	// A code change, rebuilt in the env for one day: that day is not stale there.
	e.rewrite(map[string]string{"blocks/agg.sql": `SELECT count(*) * 100 AS n, sum(x) AS s, $partition_key AS day FROM src`})
	if res, err = e.eng.Run(context.Background(), "p", "2024-01-03", inEnv); err != nil {
		t.Fatal(err)
	}
	e.mustSucceed(res)
	stale := spec("2024-01-01", "2024-01-05")
	stale.Reprocess, stale.Into = "stale", owner
	if plan, err = e.eng.Plan(context.Background(), stale, 0, -1); err != nil {
		t.Fatal(err)
	}
	run = nil
	for _, p := range plan.Partitions {
		if p.Action == "run" {
			run = append(run, p.Key)
		}
	}
	if got := strings.Join(run, " "); got != "2024-01-01 2024-01-02 2024-01-04 2024-01-05" {
		t.Fatalf("stale in env:dev plans %q, want every day but 2024-01-03 (dev rebuilt it)", got)
	}

	// Rebuilt again into the env, the day's compare-and-set base is still
	// prod's current version (what promote checks), not dev's earlier one.
	again := spec("2024-01-03", "2024-01-03")
	again.Reprocess, again.Into = "all", owner
	if st := e.backfill(again); st.State != StateSucceeded {
		t.Fatalf("backfill into env:dev: %+v", st)
	}
	var prodV, basedOn int
	if err := e.eng.wh.DB().QueryRow(`SELECT version FROM _strata.versions WHERE is_current AND product = 'p__agg' AND partition = '2024-01-03'`).Scan(&prodV); err != nil {
		t.Fatal(err)
	}
	if err := e.eng.wh.DB().QueryRow(`SELECT coalesce(based_on, -1) FROM _strata.versions WHERE product = 'p__agg' AND partition = '2024-01-03' ORDER BY version DESC LIMIT 1`).Scan(&basedOn); err != nil || basedOn != prodV {
		t.Fatalf("env backfill's version of p__agg 2024-01-03 based on v%d (%v), want prod's current v%d", basedOn, err, prodV)
	}

	// Prod plans as before: 2024-01-03 is stale in prod, 2024-01-07 missing.
	stale.Into = ""
	if plan, err = e.eng.Plan(context.Background(), stale, 0, -1); err != nil {
		t.Fatal(err)
	}
	if plan.ToRun != 5 {
		t.Fatalf("stale in prod runs %d partitions, want 5", plan.ToRun)
	}
	missing.Into = ""
	if plan, err = e.eng.Plan(context.Background(), missing, 0, -1); err != nil {
		t.Fatal(err)
	}
	if plan.ToRun != 4 {
		t.Fatalf("missing in prod runs %d partitions, want 4", plan.ToRun)
	}
}
