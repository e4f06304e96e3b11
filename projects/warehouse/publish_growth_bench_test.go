package warehouse

import (
	"context"
	"slices"
	"testing"
	"time"
)

// BenchmarkPublishGrowth measures whether a publish costs more on a large
// warehouse: the same replace-and-retain publish (a new version of an
// existing partition, the current one switched, the oldest deleted) and a
// new partition's publish, against a product that already holds 100 and
// 2,000 daily partitions x 3 versions of 300 rows. Both warehouses are built
// through Publish (100 outputs per call) and measured alternately in the
// same run, so the machine's load affects both alike. growth-x is the
// large/small ratio of the p50s: 1.0 means the cost does not grow with the
// warehouse.
func BenchmarkPublishGrowth(b *testing.B) {
	ctx := context.Background()
	tbl := bigTable(300, 1, false)
	build := func(n int) *Warehouse {
		wh := openTemp(b)
		for range 3 {
			for start := 0; start < n; start += 100 {
				var outs []Output
				for i := start; i < min(start+100, n); i++ {
					outs = append(outs, out("facts", day("2015-01-01").AddDate(0, 0, i).Format("2006-01-02"), tbl))
				}
				if _, err := wh.Publish(ctx, outs); err != nil {
					b.Fatal(err)
				}
			}
		}
		return wh
	}
	type side struct {
		wh        *Warehouse
		n         int
		republish []time.Duration
		fresh     []time.Duration
	}
	sides := []*side{{wh: build(100), n: 100}, {wh: build(2000), n: 2000}}
	timed := func(wh *Warehouse, o Output) time.Duration {
		start := time.Now()
		if _, err := wh.Publish(ctx, []Output{o}); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	i := 0
	for b.Loop() {
		for _, s := range sides {
			// Republish a partition in the middle of the product, and add a
			// partition after its last one.
			key := day("2015-01-01").AddDate(0, 0, (i*37)%s.n).Format("2006-01-02")
			s.republish = append(s.republish, timed(s.wh, out("facts", key, tbl)))
			key = day("2015-01-01").AddDate(0, 0, s.n+i).Format("2006-01-02")
			s.fresh = append(s.fresh, timed(s.wh, out("facts", key, tbl)))
		}
		i++
	}
	p50 := func(d []time.Duration) float64 {
		d = slices.Clone(d)
		slices.Sort(d)
		return float64(d[len(d)/2].Microseconds()) / 1000
	}
	small, large := sides[0], sides[1]
	b.ReportMetric(p50(small.republish), "republish-100-p50-ms")
	b.ReportMetric(p50(large.republish), "republish-2000-p50-ms")
	b.ReportMetric(p50(large.republish)/p50(small.republish), "republish-growth-x")
	b.ReportMetric(p50(small.fresh), "new-100-p50-ms")
	b.ReportMetric(p50(large.fresh), "new-2000-p50-ms")
	b.ReportMetric(p50(large.fresh)/p50(small.fresh), "new-growth-x")
}
