package engine

import (
	"context"
	"strings"
	"testing"
)

// The batch block: one row per day of its window, each with the window's
// token (a scalar subquery, evaluated once per query), so rows computed by
// one query share it. fail_day makes the query fail when its window holds
// that day; spill returns a row for the day after the window.
func batchFiles(max, extra string) map[string]string {
	return map[string]string{
		"pipelines/p.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
retries: {attempts: 0}
concurrency: 3
blocks:
  - id: calc
    batch: {max: ` + max + `}
`,
		"blocks/calc.sql": `SELECT strftime(d, '%Y-%m-%d') AS partition_key, d AS day, (SELECT random()) AS token
FROM generate_series($batch_start::TIMESTAMP, $batch_end::TIMESTAMP - INTERVAL 1 DAY` + extra + `, INTERVAL 1 DAY) t(d)`,
	}
}

// windowsOf reads, per current version of p__calc, its partition and the
// token of its rows: the partitions grouped by the query that computed them.
func windowsOf(t *testing.T, e *env) (map[string]float64, int) {
	t.Helper()
	rows, err := e.wh.DB().Query(`SELECT v.partition, any_value(c.token), count(*) FROM _strata.versions v JOIN p__calc c ON c._partition = v.partition
		WHERE v.product = 'p__calc' AND v.is_current GROUP BY 1 ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]float64{}
	total := 0
	for rows.Next() {
		var k string
		var tok float64
		var n int
		if err := rows.Scan(&k, &tok, &n); err != nil {
			t.Fatal(err)
		}
		out[k] = tok
		total += n
	}
	return out, total
}

// TestSQLBatch: a SQL block with batch: {max: 5} over 12 days computes 3
// windows (5, 5, 2 days) in 3 queries, and each day is published as its own
// version holding only its rows; a plain run computes its day alone.
func TestSQLBatch(t *testing.T) {
	e := newEnv(t, false, batchFiles("5", ""))
	st := e.backfill(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-12"})
	if st.State != StateSucceeded {
		t.Fatalf("backfill: %s %q", st.State, st.Message)
	}
	got, rows := windowsOf(t, e)
	if len(got) != 12 || rows != 12 {
		t.Fatalf("%d current versions holding %d rows, want 12 and 12 (one row per day): %v", len(got), rows, got)
	}
	if n := e.count(`SELECT count(*) FROM _strata.versions WHERE product = 'p__calc'`); n != 12 {
		t.Fatalf("%d versions, want one per day", n)
	}
	windows := [][]string{{"01", "02", "03", "04", "05"}, {"06", "07", "08", "09", "10"}, {"11", "12"}}
	tokens := map[float64]bool{}
	for _, w := range windows {
		tok := got["2024-01-"+w[0]]
		for _, d := range w {
			if got["2024-01-"+d] != tok {
				t.Fatalf("2024-01-%s was computed by another query than 2024-01-%s: %v", d, w[0], got)
			}
		}
		tokens[tok] = true
	}
	if len(tokens) != 3 {
		t.Fatalf("3 windows computed by %d queries, want 3: %v", len(tokens), got)
	}

	// A plain run: its window is its own partition.
	res := e.run("p", "2024-01-20")
	if res.State != StateSucceeded {
		t.Fatalf("plain run: %s %s", res.State, res.Error)
	}
	if n := e.count(`SELECT count(*) FROM p__calc WHERE _partition = '2024-01-20'`); n != 1 {
		t.Fatalf("plain run published %d rows, want 1", n)
	}
}

// TestSQLBatchFailurePublishesNoneOfIt: a query that fails for one window
// fails every partition of that window, none of which is published, while
// the other windows publish; a query that returns a row of no partition of
// its window fails its window whole too.
func TestSQLBatchFailurePublishesNoneOfIt(t *testing.T) {
	files := batchFiles("5", "")
	files["blocks/calc.sql"] = `SELECT strftime(d, '%Y-%m-%d') AS partition_key, d AS day, (SELECT random()) AS token,
	CASE WHEN strftime(d, '%Y-%m-%d') = '2024-01-08' THEN error('no data for 2024-01-08') ELSE 1 END AS ok
FROM generate_series($batch_start::TIMESTAMP, $batch_end::TIMESTAMP - INTERVAL 1 DAY, INTERVAL 1 DAY) t(d)`
	e := newEnv(t, false, files)
	st := e.backfill(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-12"})
	if st.State != StateFailed {
		t.Fatalf("backfill: %s %q, want failed", st.State, st.Message)
	}
	got, _ := windowsOf(t, e)
	for _, d := range []string{"06", "07", "08", "09", "10"} {
		if _, ok := got["2024-01-"+d]; ok {
			t.Fatalf("2024-01-%s of the failed window is published: %v", d, got)
		}
	}
	if n := e.count(`SELECT count(*) FROM _strata.versions WHERE product = 'p__calc' AND partition BETWEEN '2024-01-06' AND '2024-01-10'`); n != 0 {
		t.Fatalf("%d versions of the failed window written (staged or not), want none", n)
	}
	if len(got) != 7 {
		t.Fatalf("%d days published, want the 7 of the two other windows: %v", len(got), got)
	}
	if n := e.count(`SELECT count(DISTINCT partition_key) FROM _strata.run_events WHERE block_id = '' AND state = 'failed' AND error LIKE '%no data for 2024-01-08%'`); n != 5 {
		t.Fatalf("%d partitions failed with the window's error, want its 5", n)
	}

	// One row outside the window: the window fails whole.
	e2 := newEnv(t, false, batchFiles("4", " + INTERVAL 1 DAY"))
	st = e2.backfill(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-04"})
	if st.State != StateFailed {
		t.Fatalf("spilling backfill: %s %q, want failed", st.State, st.Message)
	}
	if n := e2.count(`SELECT count(*) FROM _strata.versions WHERE product = 'p__calc'`); n != 0 {
		t.Fatalf("%d versions published from a window whose query returned a row of another partition, want none", n)
	}
	var msg string
	if err := e2.wh.DB().QueryRow(`SELECT error FROM _strata.run_events WHERE block_id = '' AND state = 'failed' LIMIT 1`).Scan(&msg); err != nil ||
		!strings.Contains(msg, `partition_key "2024-01-05", not a partition of the window`) {
		t.Fatalf("error %q (%v): want it to name the row's partition and the window", msg, err)
	}
}

// TestSQLBatchConfig: batch where one query cannot compute several
// partitions is refused with the field and the reason.
func TestSQLBatchConfig(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"  - id: calc\n    batch: {max: 0}\n", "max 0: want between 1 and 366"},
		{"  - id: calc\n    batch: {size: 3}\n", "size"},
		{"  - id: src\n  - id: calc\n    upstream: [src]\n    batch: {max: 3}\n", "reads upstream blocks (src)"},
		{"  - id: gosrc\n    batch: {max: 3}\n", "is a Go block"},
		{"  - id: calc\n    batch: {max: 3, across: [region]}\n", `"region" is not a value dimension of its partitions: this pipeline has no value dimension`},
		{"  - id: calc\n    batch: {max: 3, across: region}\n", "want a list"},
	} {
		files := batchFiles("5", "")
		files["pipelines/p.yaml"] = "partitions: {interval: day, timezone: UTC, start: \"2024-01-01\"}\nblocks:\n" + c.yaml
		files["blocks/src.sql"] = "SELECT 1 AS x"
		files["blocks/gosrc/gosrc.go"] = "package gosrc\n\nimport \"github.com/stratahq/strata/blocks/sdk\"\n\nfunc Load(ctx *sdk.Context) (*sdk.Table, error) { return sdk.NewTable(sdk.Int64(\"x\")), nil }\n"
		e := newEnv(t, false, files)
		_, err := e.eng.Plan(context.Background(), BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-02"}, 0, 1)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%q: error %v, want it to say %q", c.yaml, err, c.want)
		}
		if !strings.Contains(err.Error(), "batch") {
			t.Fatalf("%q: error %v does not name the batch field", c.yaml, err)
		}
	}
}

// TestSQLBatchCells: in a day × region pipeline a window is consecutive
// days of one region: 6 days × 2 regions with max 3 is 4 queries, each cell
// its own version.
func TestSQLBatchCells(t *testing.T) {
	e := newEnv(t, false, map[string]string{
		"pipelines/p.yaml": `partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: region
      values: [eu, us]
blocks:
  - id: calc
    batch: {max: 3}
`,
		"blocks/calc.sql": `SELECT strftime(d, '%Y-%m-%d') || '|' || $dim_region AS partition_key, $dim_region AS region, (SELECT random()) AS token
FROM generate_series($batch_start::TIMESTAMP, $batch_end::TIMESTAMP - INTERVAL 1 DAY, INTERVAL 1 DAY) t(d)`,
	})
	st := e.backfill(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-06"})
	if st.State != StateSucceeded {
		t.Fatalf("backfill: %s %q", st.State, st.Message)
	}
	got, rows := windowsOf(t, e)
	if len(got) != 12 || rows != 12 {
		t.Fatalf("%d cells holding %d rows, want 12 and 12: %v", len(got), rows, got)
	}
	tokens := map[float64]bool{}
	for _, r := range []string{"eu", "us"} {
		for _, w := range [][]string{{"01", "02", "03"}, {"04", "05", "06"}} {
			tok := got["2024-01-"+w[0]+"|"+r]
			for _, d := range w {
				if got["2024-01-"+d+"|"+r] != tok {
					t.Fatalf("2024-01-%s|%s computed by another query than its window's first day: %v", d, r, got)
				}
			}
			tokens[tok] = true
		}
	}
	if len(tokens) != 4 {
		t.Fatalf("4 windows computed by %d queries: %v", len(tokens), got)
	}
}
