package engine

import (
	"strings"
	"testing"
)

// acrossFiles: a day × region pipeline whose SQL block computes every
// region of a window of days in one query (batch across region), each row
// carrying the query's token; fail names a day whose window's query fails.
func acrossFiles(regions, fail string) map[string]string {
	return map[string]string{
		"pipelines/p.yaml": `partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: region
      values: [` + regions + `]
retries: {attempts: 0}
concurrency: 8
blocks:
  - id: calc
    batch: {max: 2, across: [region]}
`,
		"blocks/calc.sql": `SELECT strftime(d, '%Y-%m-%d') || '|' || r AS partition_key, r AS region, (SELECT random()) AS token,
	CASE WHEN strftime(d, '%Y-%m-%d') = '` + fail + `' THEN error('no data for ` + fail + `') ELSE 1 END AS ok
FROM generate_series($batch_start::TIMESTAMP, $batch_end::TIMESTAMP - INTERVAL 1 DAY, INTERVAL 1 DAY) t(d),
	(SELECT unnest(enum_range(NULL::regions)) AS r)`,
	}
}

// withRegions prepends the regions enum the block's query reads to every
// query of e's warehouse: created once, as a table would be.
func withRegions(t *testing.T, e *env, regions ...string) {
	t.Helper()
	if _, err := e.wh.DB().Exec(`CREATE TYPE regions AS ENUM ('` + strings.Join(regions, "', '") + `')`); err != nil {
		t.Fatal(err)
	}
}

// TestSQLBatchAcross: batch: {max: 2, across: [region]} over 4 days × 3
// regions computes 2 windows (2 days × every region) in 2 queries, and each
// cell is published as its own version holding only its row. A backfill of
// some regions publishes only those (the query's rows of the others are
// not taken), and a plain run publishes its own cell only.
func TestSQLBatchAcross(t *testing.T) {
	e := newEnv(t, false, acrossFiles("eu, us, apac", "none"))
	withRegions(t, e, "eu", "us", "apac")
	st := e.backfill(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-04"})
	if st.State != StateSucceeded {
		t.Fatalf("backfill: %s %q", st.State, st.Message)
	}
	got, rows := windowsOf(t, e)
	if len(got) != 12 || rows != 12 {
		t.Fatalf("%d cells holding %d rows, want 12 and 12 (one row per cell): %v", len(got), rows, got)
	}
	if n := e.count(`SELECT count(*) FROM p__calc WHERE partition_key = _partition`); n != 12 {
		t.Fatalf("%d rows are their own cell's, want all 12", n)
	}
	tokens := map[float64]bool{}
	for _, w := range [][]string{{"01", "02"}, {"03", "04"}} {
		tok := got["2024-01-"+w[0]+"|eu"]
		for _, d := range w {
			for _, r := range []string{"eu", "us", "apac"} {
				if got["2024-01-"+d+"|"+r] != tok {
					t.Fatalf("2024-01-%s|%s computed by another query than 2024-01-%s|eu: %v", d, r, w[0], got)
				}
			}
		}
		tokens[tok] = true
	}
	if len(tokens) != 2 {
		t.Fatalf("2 windows computed by %d queries: %v", len(tokens), got)
	}

	// Two regions of two more days: one query, apac's rows not taken.
	st = e.backfill(BackfillSpec{Pipeline: "p", From: "2024-01-05", To: "2024-01-06", Where: map[string][]string{"region": {"eu", "us"}}})
	if st.State != StateSucceeded {
		t.Fatalf("backfill of eu, us: %s %q", st.State, st.Message)
	}
	if n := e.count(`SELECT count(*) FROM _strata.versions WHERE product = 'p__calc' AND partition >= '2024-01-05'`); n != 4 {
		t.Fatalf("%d versions of 2024-01-05..06, want 4 (eu and us; apac not run)", n)
	}
	got, _ = windowsOf(t, e)
	if got["2024-01-05|eu"] != got["2024-01-06|us"] {
		t.Fatalf("the eu, us window was computed by several queries: %v", got)
	}

	// A plain run: its own cell only.
	res := e.run("p", "2024-01-20|us")
	if res.State != StateSucceeded {
		t.Fatalf("plain run: %s %s", res.State, res.Error)
	}
	if n := e.count(`SELECT count(*) FROM _strata.versions WHERE product = 'p__calc' AND partition LIKE '2024-01-20|%'`); n != 1 {
		t.Fatalf("plain run published %d cells, want its own", n)
	}
}

// TestSQLBatchAcrossFailurePublishesNoneOfIt: a window's failing query
// fails every cell of it (both days, every region), none published; the
// other window publishes. A row naming a cell of no day of the window, or
// no value of the dimension, fails its window whole.
func TestSQLBatchAcrossFailurePublishesNoneOfIt(t *testing.T) {
	e := newEnv(t, false, acrossFiles("eu, us", "2024-01-04"))
	withRegions(t, e, "eu", "us")
	st := e.backfill(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-04"})
	if st.State != StateFailed || st.Progress.Failed != 4 || st.Progress.Succeeded != 4 {
		t.Fatalf("backfill: %s %q %+v, want the 4 cells of 2024-01-03..04 failed, the 4 others succeeded", st.State, st.Message, st.Progress)
	}
	if n := e.count(`SELECT count(*) FROM _strata.versions WHERE product = 'p__calc' AND partition >= '2024-01-03'`); n != 0 {
		t.Fatalf("%d versions of the failed window written, want none", n)
	}
	if n := e.count(`SELECT count(DISTINCT partition_key) FROM _strata.run_events WHERE block_id = '' AND state = 'failed' AND error LIKE '%no data for 2024-01-04%'`); n != 4 {
		t.Fatalf("%d cells failed with the window's error, want its 4", n)
	}

	for _, c := range []struct{ region, want string }{
		{"'mars'", `"2024-01-01|mars", not a partition of the window`},
		{"r", `"2024-01-03|eu", not a partition of the window`},
	} {
		files := acrossFiles("eu, us", "none")
		// One row more: a region that is no value, or the day after the window.
		extra := `UNION ALL SELECT '2024-01-01|' || ` + c.region + `, 'x', 0, 1 FROM (SELECT 'eu' AS r)`
		if c.region == "r" {
			extra = `UNION ALL SELECT strftime($batch_end::TIMESTAMP, '%Y-%m-%d') || '|eu', 'x', 0, 1`
		}
		files["blocks/calc.sql"] += "\n" + extra
		e := newEnv(t, false, files)
		withRegions(t, e, "eu", "us")
		st := e.backfill(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-02"})
		if st.State != StateFailed || st.Progress.Failed != 4 {
			t.Fatalf("%s: backfill %s %q %+v, want its window's 4 cells failed", c.region, st.State, st.Message, st.Progress)
		}
		if n := e.count(`SELECT count(*) FROM _strata.versions WHERE product = 'p__calc'`); n != 0 {
			t.Fatalf("%s: %d versions published from a window with a stray row, want none", c.region, n)
		}
		var msg string
		if err := e.wh.DB().QueryRow(`SELECT error FROM _strata.run_events WHERE block_id = '' AND state = 'failed' LIMIT 1`).Scan(&msg); err != nil || !strings.Contains(msg, c.want) {
			t.Fatalf("%s: error %q (%v), want it to say %s", c.region, msg, err, c.want)
		}
	}
}

// TestSQLBatchAcrossCellFailsAlone: one cell of a window whose publish is
// refused (its key, with a 195-byte region, is longer than the warehouse
// takes) fails alone: nothing of it is published, while the window's other
// cells, computed by the same query and committed in the same group
// transactions, succeed, each its own version.
func TestSQLBatchAcrossCellFailsAlone(t *testing.T) {
	long := strings.Repeat("z", 195)
	e := newEnv(t, false, acrossFiles("eu, us, "+long+", apac", "none"))
	withRegions(t, e, "eu", "us", long, "apac")
	st := e.backfill(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-02"})
	if st.State != StateFailed || st.Progress.Failed != 2 || st.Progress.Succeeded != 6 {
		t.Fatalf("backfill: %s %q %+v, want the 2 cells of the long region failed, the 6 others succeeded", st.State, st.Message, st.Progress)
	}
	got, rows := windowsOf(t, e)
	if len(got) != 6 || rows != 6 {
		t.Fatalf("%d cells holding %d rows published, want 6 and 6: %v", len(got), rows, got)
	}
	tok := got["2024-01-01|eu"]
	for k, v := range got {
		if v != tok {
			t.Fatalf("%s computed by another query than 2024-01-01|eu: %v", k, got)
		}
	}
	if n := e.count(`SELECT count(*) FROM _strata.versions WHERE product = 'p__calc' AND partition LIKE '%zzz%'`); n != 0 {
		t.Fatalf("%d versions of the refused cells, want none", n)
	}
	if n := e.count(`SELECT count(DISTINCT partition_key) FROM _strata.run_events WHERE block_id = '' AND state = 'failed' AND error LIKE '%longer than 200 characters%'`); n != 2 {
		t.Fatalf("%d cells failed for their key, want the 2 of the long region", n)
	}
	if n := e.count(`SELECT count(DISTINCT partition_key) FROM _strata.run_events WHERE block_id = '' AND state = 'succeeded'`); n != 6 {
		t.Fatalf("the log says %d cells succeeded, want 6", n)
	}
}
