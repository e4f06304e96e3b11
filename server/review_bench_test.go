package server

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/engine/reviewbench"
	"github.com/stratahq/strata/projects/warehouse"
)

// BenchmarkReviewRowDiffAPI: GET /backfills/:id/diff for one partition of
// daily_customer_metrics (the demo's first day, every tenth customer's revenue changed, keyed by
// customer_id) of the staged five-year demo backfill, through HTTP, first
// 50 changed rows. Target: p50 <= 50 ms.
func BenchmarkReviewRowDiffAPI(b *testing.B) {
	e := newEnv(b)
	id, err := reviewbench.Build(context.Background(), e.eng, e.wh) // reads only from here on
	if err != nil {
		b.Fatal(err)
	}
	days := []string{"2020-03-01", "2021-07-14", "2022-11-30", "2023-05-05", "2024-12-31"}
	var lat []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		var d warehouse.PartitionDiff
		e.call(http.MethodGet, "/api/v1/backfills/"+id+"/diff?product=daily_customer_metrics&partition="+days[i%len(days)]+"&rows=50", nil, http.StatusOK, &d)
		lat = append(lat, time.Since(start))
		if d.Counts.Changed == 0 || len(d.Rows) != min(50, int(d.Counts.Changed)) {
			b.Fatalf("diff %+v, %d rows", d.Counts, len(d.Rows))
		}
		if i == 0 {
			b.Logf("partition %s: %d rows, %d changed", d.Partition, d.RowsAfter, d.Counts.Changed)
		}
		i++
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2])/1e6, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100])/1e6, "p99-ms")
}
