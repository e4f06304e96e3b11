package faults

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/strataproc"
)

// The N-dimensional trial (issue 27): a day × region pipeline (a SQL load
// per cell, an aggregate of it, a week × region rollup) backfilled by the
// CLI at concurrency 4, killed with SIGKILL at seeded moments, resumed, and
// compared cell by cell with a clean reference run: every cell has exactly
// one current version of each product, from one run, holding what the
// reference holds; none is lost, none ran again once it had succeeded.

const cellsPipeline = `partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: region
      values: [us, eu, apac, latam]
retries: {attempts: 0}
blocks:
  - id: load
  - id: agg
    upstream: [load]
  - id: weekly
    upstream: [agg]
    partitions: {interval: week}
`

var cellsBlocks = map[string]string{
	"blocks/load.sql":   `SELECT $partition_key AS cell, $dim_region AS region, i, hash($partition_key || i) % 1000 AS x FROM range(200) t(i)`,
	"blocks/agg.sql":    `SELECT $partition_key AS cell, $dim_region AS region, count(*) AS n, sum(x) AS s FROM load`,
	"blocks/weekly.sql": `SELECT $partition_key AS cell, $dim_region AS region, sum(n) AS n, sum(s) AS s, count(*) AS days FROM agg`,
}

// The trial's box: two whole weeks × 4 regions = 56 day cells and 8 week
// cells.
const (
	cellsFrom    = "2024-01-01"
	cellsTo      = "2024-01-14"
	cellsRegions = 4
	cellsDays    = 14
	cellsTotal   = cellsDays*cellsRegions + 2*cellsRegions
)

// cellsBatchedLoad is the load block computing every region of 3 days in
// one query (batch across region): the same columns and values, plus
// partition_key. A kill lands between the publishes of a window's cells;
// the resume computes the window again for the cells left.
const cellsBatchedLoad = `SELECT strftime(d, '%Y-%m-%d') || '|' || r AS partition_key, partition_key AS cell, r AS region, i, hash(partition_key || i) % 1000 AS x
FROM generate_series($batch_start::TIMESTAMP, $batch_end::TIMESTAMP - INTERVAL 1 DAY, INTERVAL 1 DAY) t(d),
	(VALUES ('us'), ('eu'), ('apac'), ('latam')) v(r), range(200) n(i)`

// CellsTrial is one N-D trial: kill moments as fractions of the clean
// run's duration (drawn from the seed, so a seed replays the plan), the
// k-th (from 0) divided by k+1. Batched: the load block is cellsBatchedLoad.
type CellsTrial struct {
	Seed    int64
	Kills   []float64
	Batched bool
}

func (t CellsTrial) String() string {
	load := ""
	if t.Batched {
		load = ", load batched across region (3 days a query)"
	}
	return fmt.Sprintf("cells trial (seed %d): day × region%s, cli, concurrency 4, kills at %v of the clean run", t.Seed, load, t.Kills)
}

// PlanCellsTrial draws kills (1 to 3) from seed.
func PlanCellsTrial(seed int64) CellsTrial {
	rng := rand.New(rand.NewSource(seed))
	t := CellsTrial{Seed: seed}
	for range 1 + rng.Intn(3) {
		t.Kills = append(t.Kills, 0.05+0.6*rng.Float64())
	}
	return t
}

// cellsProject makes a fresh project holding the cells pipeline.
func cellsProject(t testing.TB, bin, dir string, batched bool) {
	t.Helper()
	if out, code := strataproc.Run(t, bin, "init", dir); code != 0 {
		t.Fatalf("init: %s", out)
	}
	files := map[string]string{"pipelines/cells.yaml": cellsPipeline}
	for k, v := range cellsBlocks {
		files[k] = v
	}
	if batched {
		files["pipelines/cells.yaml"] = strings.Replace(cellsPipeline, "  - id: load\n", "  - id: load\n    batch: {max: 3, across: [region]}\n", 1)
		files["blocks/load.sql"] = cellsBatchedLoad
	}
	for p, c := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var cellsArgs = []string{"--from", cellsFrom, "--to", cellsTo, "--concurrency", "4"}

// RunCells plays an N-D trial: a reference run (timed), then the trial.
func (d *Driver) RunCells(t *testing.T, tr CellsTrial) violations {
	t.Helper()
	ref := filepath.Join(t.TempDir(), "cells-reference")
	cellsProject(t, d.Bin, ref, tr.Batched)
	start := time.Now()
	if out, code := strataproc.Run(t, d.Bin, append([]string{"backfill", ref, "cells"}, cellsArgs...)...); code != 0 {
		t.Fatalf("reference backfill: exit %d\n%s", code, out)
	}
	clean := time.Since(start)
	want := readCells(t, ref)
	if len(want) != 2*cellsDays*cellsRegions+2*cellsRegions {
		t.Fatalf("the reference holds %d product cells, want %d: %v", len(want), 2*cellsDays*cellsRegions+2*cellsRegions, want)
	}

	// A trial none of whose kills landed (the machine ran it faster than
	// the reference) tests nothing: it is played again, sooner.
	for attempt := range 3 {
		v, killed := d.cellsAttempt(t, tr, attempt, clean, want)
		if killed || len(v) > 0 {
			return v
		}
		clean /= 2
	}
	return violations{"three attempts of the trial ended before any kill: nothing was tested"}
}

// cellsAttempt plays the trial once in a fresh project; killed says
// whether a kill landed.
func (d *Driver) cellsAttempt(t *testing.T, tr CellsTrial, attempt int, clean time.Duration, want content) (violations, bool) {
	var v violations
	killed := false
	dir := filepath.Join(t.TempDir(), fmt.Sprintf("cells-trial%d", attempt))
	cellsProject(t, d.Bin, dir, tr.Batched)
	trial := Trial{Mode: "cli", Publish: "partition", Concurrency: 4, From: cellsFrom, To: cellsTo}
	id := ""
	for i, frac := range tr.Kills {
		// A resume has less left to do: its kill comes sooner.
		delay := time.Duration(frac * float64(clean) / float64(i+1))
		args := append([]string{"backfill", dir, "cells"}, cellsArgs...)
		if id != "" {
			args = []string{"backfill", "resume", dir, id}
		}
		var what string
		id, what = d.cliRun(t, args, id, delay)
		killed = killed || strings.HasPrefix(what, "killed")
		t.Logf("%s: attempt %d step %d: %s", tr, attempt, i, what)
		w, err := openWarehouse(dir)
		if err != nil {
			v.addf("after kill %d: %v", i, err)
			return v, killed
		}
		if id == "" {
			id = w.recordedBackfill()
		}
		if id != "" {
			for _, e := range w.checkAnyTime(id, "partition") {
				v.addf("after kill %d: %s", i, e)
			}
		}
		w.close()
	}
	args := append([]string{"backfill", dir, "cells"}, cellsArgs...)
	if id != "" {
		args = []string{"backfill", "resume", dir, id}
	}
	out, code := strataproc.Run(t, d.Bin, args...)
	if id == "" {
		if m := regexp.MustCompile(`(?m)^backfill (bf_\S+): pipeline`).FindStringSubmatch(out); m != nil {
			id = m[1]
		}
	}
	if code != 0 || id == "" {
		v.addf("the last `strata %s` exited %d:\n%s", strings.Join(args[:2], " "), code, out)
		return v, killed
	}
	st := d.backfillStatus(t, dir, id)
	t.Logf("%s: ended %s %q counts %v", tr, st.Backfill.State, st.Backfill.Message, st.Counts)
	if st.Backfill.State != "succeeded" || st.Counts["succeeded"] != cellsTotal || st.Backfill.Total != cellsTotal {
		v.addf("backfill ended %s, total %d, counts %v: want succeeded, %d cells (56 days × regions, 8 weeks × regions) all succeeded", st.Backfill.State, st.Backfill.Total, st.Counts, cellsTotal)
	}
	w, err := openWarehouse(dir)
	if err != nil {
		v.addf("at the end: %v", err)
		return v, killed
	}
	defer w.close()
	v = append(v, w.checkAnyTime(id, trial.Publish)...)
	v.zero(w, "product cells without exactly one version, from the backfill",
		`SELECT count(*) FROM (SELECT product, partition FROM _strata.versions GROUP BY 1, 2 HAVING count(*) <> 1 OR bool_or(NOT starts_with(run_id, ?)) OR bool_or(NOT is_current))`, id+":")
	v.zero(w, "partition runs of the backfill counted succeeded more than once",
		`SELECT count(*) FROM (SELECT partition_key FROM _strata.run_events WHERE backfill_id = ? AND block_id = '' AND state = 'succeeded' GROUP BY 1 HAVING count(*) > 1)`, id)
	got := readCells(t, dir)
	for _, e := range want.diff(got) {
		v.addf("content differs from the clean reference run: %s", e)
	}
	return v, killed
}

// readCells reads every product cell's current content in dir.
func readCells(t testing.TB, dir string) content {
	t.Helper()
	w, err := openWarehouse(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	c := content{}
	for _, p := range []string{"cells__load", "cells__agg", "cells__weekly"} {
		rows, err := w.db.Query(fmt.Sprintf(`SELECT _partition, count(*), sum(hash(t)::HUGEINT)::VARCHAR FROM %q t GROUP BY 1`, p))
		if err != nil {
			t.Fatalf("read %s: %v", p, err)
		}
		for rows.Next() {
			var part, sum string
			var n int
			if err := rows.Scan(&part, &n, &sum); err != nil {
				t.Fatal(err)
			}
			c[p+"/"+part] = fmt.Sprintf("%d rows, hash %s", n, sum)
		}
		rows.Close()
	}
	return c
}
