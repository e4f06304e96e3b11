package engine

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

// BenchmarkRunsList measures the Runs page's query: the first page of 50,
// filtered by launcher and state, and a deep page, against the event log of
// a five-year daily backfill (1,827 runs of 8 blocks, 2 events each: 32,886
// events) and, as the baseline measured alternately, of 100 runs. growth-x
// is the large/small ratio of the unfiltered first page's p50.
func BenchmarkRunsList(b *testing.B) {
	ctx := context.Background()
	fill := func(runs int) *env {
		e := newEnv(b, false, dailyFiles(""))
		day := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
		for r := 0; r < runs; r += 100 {
			var evs []Event
			for i := r; i < min(r+100, runs); i++ {
				key := day.AddDate(0, 0, i).Format("2006-01-02")
				id, st := fmt.Sprintf("bf_5y:%s", key), StateSucceeded
				if i%97 == 0 {
					st = StateFailed
				}
				base := Event{RunID: id, BackfillID: "bf_5y", Pipeline: "p", Partition: key}
				for _, blk := range []string{"", "b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8"} {
					ev := base
					ev.Block, ev.State = blk, StateRunning
					end := base
					end.Block, end.State, end.Rows, end.DurationMS = blk, st, 300, 3
					evs = append(evs, ev, end)
				}
			}
			if err := e.eng.store.Write(ctx, evs...); err != nil {
				b.Fatal(err)
			}
		}
		return e
	}
	small, large := fill(100), fill(1827)
	queries := []struct {
		name string
		f    RunFilter
	}{
		{"first", RunFilter{Limit: 51}},
		{"backfill", RunFilter{Origin: OriginBackfill, Limit: 51}},
		{"failed", RunFilter{State: StateFailed, Limit: 51}},
		{"deep", RunFilter{Limit: 51, Offset: 1500}},
	}
	took := map[string][]time.Duration{}
	for b.Loop() {
		for _, q := range queries {
			for _, e := range []struct {
				tag string
				e   *env
			}{{"100", small}, {"5y", large}} {
				start := time.Now()
				rs, err := e.e.eng.Runs(ctx, q.f)
				if err != nil {
					b.Fatal(err)
				}
				if q.name == "first" && len(rs) != min(51, map[string]int{"100": 100, "5y": 1827}[e.tag]) {
					b.Fatalf("%d runs", len(rs))
				}
				took[q.name+"-"+e.tag] = append(took[q.name+"-"+e.tag], time.Since(start))
			}
		}
	}
	p50 := func(d []time.Duration) float64 {
		d = slices.Clone(d)
		slices.Sort(d)
		return float64(d[len(d)/2].Microseconds()) / 1000
	}
	for _, q := range queries {
		b.ReportMetric(p50(took[q.name+"-5y"]), q.name+"-5y-p50-ms")
	}
	b.ReportMetric(p50(took["first-100"]), "first-100-p50-ms")
	b.ReportMetric(p50(took["first-5y"])/p50(took["first-100"]), "growth-x")
}
