package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/warehouse"
)

// BenchmarkStoreGrowth measures whether a durable run-state commit (the
// "running" event a block waits for before it is dispatched) costs more when
// the event log is large: the same two-event Write against a log of 1,000
// events and one of 100,000 (about a five-year daily backfill of the demo),
// measured alternately in the same run. growth-x is the large/small ratio
// of the p50s.
func BenchmarkStoreGrowth(b *testing.B) {
	ctx := context.Background()
	open := func(n int) *Store {
		wh, err := warehouse.Open(ctx, filepath.Join(b.TempDir(), "warehouse.duckdb"), warehouse.Options{})
		if err != nil {
			b.Fatal(err)
		}
		s, err := OpenStore(ctx, wh.DB())
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { s.Close(); wh.Close() })
		for start := 0; start < n; start += 1000 {
			evs := make([]Event, 0, 1000)
			for i := start; i < min(start+1000, n); i++ {
				evs = append(evs, Event{RunID: fmt.Sprintf("run_%d", i/8), Pipeline: "clv", Partition: "2020-01-01",
					Block: fmt.Sprintf("b%d", i%8), State: StateSucceeded, Rows: 300, DurationMS: 3})
			}
			if err := s.Write(ctx, evs...); err != nil {
				b.Fatal(err)
			}
		}
		return s
	}
	stores := []*Store{open(1000), open(100_000)}
	took := [2][]time.Duration{}
	for b.Loop() {
		for i, s := range stores {
			start := time.Now()
			if err := s.Write(ctx, Event{RunID: "r", Pipeline: "clv", Partition: "2025-01-01", State: StateRunning},
				Event{RunID: "r", Pipeline: "clv", Partition: "2025-01-01", Block: "raw_orders", State: StateRunning}); err != nil {
				b.Fatal(err)
			}
			took[i] = append(took[i], time.Since(start))
		}
	}
	p50 := func(d []time.Duration) float64 {
		d = slices.Clone(d)
		slices.Sort(d)
		return float64(d[len(d)/2].Microseconds()) / 1000
	}
	b.ReportMetric(p50(took[0]), "write-1k-p50-ms")
	b.ReportMetric(p50(took[1]), "write-100k-p50-ms")
	b.ReportMetric(p50(took[1])/p50(took[0]), "growth-x")
}
