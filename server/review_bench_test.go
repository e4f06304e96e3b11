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
// daily_customer_metrics (1,080 rows: the demo's first day four times over,
// every tenth customer's revenue changed, keyed by customer_id) of the
// staged five-year demo backfill, through HTTP, first 50 changed rows.
// Target: p50 <= 50 ms. The baseline, measured in the same loop, is the
// plainest read of the same partition through the API: GET
// /products/daily_customer_metrics/preview of its staged version (50 rows).
func BenchmarkReviewRowDiffAPI(b *testing.B) {
	e := newEnv(b)
	id, err := reviewbench.Build(context.Background(), e.eng, e.wh, reviewbench.Options{CustomerCopies: 4}) // reads only from here on
	if err != nil {
		b.Fatal(err)
	}
	days := []string{"2020-03-01", "2021-07-14", "2022-11-30", "2023-05-05", "2024-12-31"}
	var lat, base []time.Duration
	i := 0
	for b.Loop() {
		day := days[i%len(days)]
		start := time.Now()
		var d warehouse.PartitionDiff
		e.call(http.MethodGet, "/api/v1/backfills/"+id+"/diff?product=daily_customer_metrics&partition="+day+"&rows=50", nil, http.StatusOK, &d)
		lat = append(lat, time.Since(start))
		if d.Counts.Changed == 0 || len(d.Rows) != min(50, int(d.Counts.Changed)) {
			b.Fatalf("diff %+v, %d rows", d.Counts, len(d.Rows))
		}
		if i == 0 {
			b.Logf("partition %s: %d rows, %d changed", d.Partition, d.RowsAfter, d.Counts.Changed)
		}
		b.StopTimer()
		start = time.Now()
		var p struct{}
		e.call(http.MethodGet, "/api/v1/products/daily_customer_metrics/preview?partition="+day+"&version=2&limit=50", nil, http.StatusOK, &p)
		base = append(base, time.Since(start))
		b.StartTimer()
		i++
	}
	slices.Sort(lat)
	slices.Sort(base)
	p50, b50 := lat[len(lat)/2], base[len(base)/2]
	b.ReportMetric(float64(p50)/1e6, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100])/1e6, "p99-ms")
	b.ReportMetric(float64(b50)/1e6, "preview-p50-ms")
	b.ReportMetric(float64(p50)/float64(b50), "x-preview")
}
