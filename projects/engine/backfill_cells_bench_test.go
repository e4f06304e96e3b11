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
// STRATA_BENCH_CELL_CUSTOMERS shrink it.
func BenchmarkBackfillCells(b *testing.B) {
	days := envInt("STRATA_BENCH_CELL_DAYS", 100)
	customers := envInt("STRATA_BENCH_CELL_CUSTOMERS", 1000)
	baseDays := envInt("STRATA_BENCH_CELL_BASE_DAYS", 1000)
	cells := days * customers
	start := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	var cellT, dayT, cellCPU, dayCPU time.Duration
	for b.Loop() {
		e := newEnv(b, false, backfillCellsFiles(customers))
		pass := func(pipeline string, n int, wall, cpu *time.Duration) {
			to := start.AddDate(0, 0, n-1).Format("2006-01-02")
			t0, c0 := time.Now(), processCPU()
			st := e.backfill(BackfillSpec{Pipeline: pipeline, From: "2020-01-01", To: to})
			if st.State != StateSucceeded {
				b.Fatalf("%s: %s %q", pipeline, st.State, st.Message)
			}
			checkpoint(b, e.wh)
			*wall += time.Since(t0)
			*cpu += processCPU() - c0
		}
		pass("days", baseDays, &dayT, &dayCPU)
		pass("cells", days, &cellT, &cellCPU)
		if got := e.count(`SELECT count(*) FROM _strata.versions WHERE product = 'cells__load' AND is_current`); got != cells {
			b.Fatalf("%d cells published, want %d", got, cells)
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
	return map[string]string{
		"pipelines/days.yaml": `partitions: {interval: day, timezone: UTC, start: "2020-01-01"}
blocks:
  - id: load
`,
		"pipelines/cells.yaml": `partitions:
  interval: day
  timezone: UTC
  start: "2020-01-01"
  dimensions:
    - name: customer
      values: [` + strings.Join(vs, ", ") + `]
blocks:
  - id: load
`,
		"blocks/load.sql": "SELECT $partition_key AS k, 1 AS n",
	}
}
