package engine

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// BenchmarkBackfillCells: issue 27's backfill rate. A backfill of 100,000
// small cells (100 days × 1,000 customers of a one-line SQL block, each cell
// its own run, version and publish) against its baseline in the same run: the
// same block backfilled over one-dimensional days (STRATA_BENCH_CELL_BASE_DAYS,
// default 1,000), so that cells/s / days/s says what a cell costs beside a
// calendar partition. Target: ≥ 1,000 cells/s. STRATA_BENCH_CELL_DAYS and
// STRATA_BENCH_CELL_CUSTOMERS shrink it; STRATA_BENCH_CELL_CONCURRENCY sets
// both backfills' concurrency (0: the pipelines').
//
// unbatched is the block as a user first writes it: one query per cell,
// the pipeline's default concurrency (4). batched-across-customers is the
// same rows computed the way a backfill of many small cells should be: a
// SQL batch across the customer dimension (batch: {max: 1, across:
// [customer]}: one query per day for its 1,000 cells) and concurrency: 64,
// so that the group commit shares a transaction among up to 64 cells.
func BenchmarkBackfillCells(b *testing.B) {
	b.Run("unbatched", func(b *testing.B) { benchBackfillCells(b, "cells") })
	b.Run("batched-across-customers", func(b *testing.B) { benchBackfillCells(b, "cells_batched") })
}

func benchBackfillCells(b *testing.B, pipeline string) {
	days := envInt("STRATA_BENCH_CELL_DAYS", 100)
	customers := envInt("STRATA_BENCH_CELL_CUSTOMERS", 1000)
	baseDays := envInt("STRATA_BENCH_CELL_BASE_DAYS", 1000)
	conc := envInt("STRATA_BENCH_CELL_CONCURRENCY", 0)
	cells := days * customers
	start := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	var cellT, dayT, cellCPU, dayCPU time.Duration
	for b.Loop() {
		e := newEnv(b, false, backfillCellsFiles(customers))
		pass := func(pipeline string, n int, wall, cpu *time.Duration) {
			to := start.AddDate(0, 0, n-1).Format("2006-01-02")
			t0, c0, n0 := time.Now(), processCPU(), e.wh.Commits()
			st := e.backfill(BackfillSpec{Pipeline: pipeline, From: "2020-01-01", To: to, Concurrency: conc})
			if st.State != StateSucceeded {
				b.Fatalf("%s: %s %q", pipeline, st.State, st.Message)
			}
			checkpoint(b, e.wh)
			*wall += time.Since(t0)
			*cpu += processCPU() - c0
			b.Logf("%s: %d partitions in %d transactions", pipeline, n*map[bool]int{true: customers, false: 1}[pipeline != "days"], e.wh.Commits()-n0)
		}
		pass("days", baseDays, &dayT, &dayCPU)
		pass(pipeline, days, &cellT, &cellCPU)
		if got := e.count(`SELECT count(*) FROM _strata.versions WHERE product = '` + pipeline + `__load' AND is_current`); got != cells {
			b.Fatalf("%d cells published, want %d", got, cells)
		}
		if got := e.count(`SELECT count(*) FROM ` + pipeline + `__load WHERE k = _partition AND n = 1`); got != cells {
			b.Fatalf("%d rows hold their own cell's key, want one per cell (%d)", got, cells)
		}
		e.close()
	}
	n := float64(b.N)
	cellRate := float64(cells) * n / cellT.Seconds()
	dayRate := float64(baseDays) * n / dayT.Seconds()
	b.ReportMetric(cellRate, "cells/s")
	b.ReportMetric(dayRate, "1d-partitions/s")
	b.ReportMetric(cellRate/dayRate, "cell/1d-rate")
	// Engine process CPU per partition, beside the wall-clock rates: on a
	// shared machine the rates follow the neighbours' load.
	b.ReportMetric(float64(cellCPU.Microseconds())/(float64(cells)*n), "cpu-us/cell")
	b.ReportMetric(float64(dayCPU.Microseconds())/(float64(baseDays)*n), "cpu-us/1d-partition")
}

func backfillCellsFiles(customers int) map[string]string {
	vs := make([]string, customers)
	for i := range vs {
		vs[i] = fmt.Sprintf("c%d", i)
	}
	dims := `partitions:
  interval: day
  timezone: UTC
  start: "2020-01-01"
  dimensions:
    - name: customer
      values: [` + strings.Join(vs, ", ") + `]
`
	return map[string]string{
		"pipelines/days.yaml": `partitions: {interval: day, timezone: UTC, start: "2020-01-01"}
blocks:
  - id: load
`,
		"pipelines/cells.yaml": dims + `blocks:
  - id: load
`,
		"pipelines/cells_batched.yaml": dims + `concurrency: 64
blocks:
  - id: load
    file: blocks/load_batched.sql
    batch: {max: 1, across: [customer]}
`,
		"blocks/load.sql": "SELECT $partition_key AS k, 1 AS n",
		// The same rows, every customer of the window's days in one query.
		"blocks/load_batched.sql": `SELECT strftime(d, '%Y-%m-%d') || '|c' || i AS partition_key, partition_key AS k, 1 AS n
FROM generate_series($batch_start::TIMESTAMP, $batch_end::TIMESTAMP - INTERVAL 1 DAY, INTERVAL 1 DAY) t(d), range(` + fmt.Sprint(customers) + `) c(i)`,
	}
}
