package warehouse

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// BenchmarkAggregate5y measures a chart of a five-year daily product (1,827
// partitions of 1,000 orders: 1,827,000 rows) aggregated in the warehouse:
// sum per auto bucket (weeks) of a time column, per partition, and a
// histogram, each over the whole window. The baseline, measured alternately,
// is what the chart did before: read the first 10,000 rows of the window
// (which drew a fraction of it). x-read10k is the weekly series' p50 over
// the baseline's.
func BenchmarkAggregate5y(b *testing.B) {
	ctx := context.Background()
	wh := openTemp(b)
	ny, _ := time.LoadLocation("America/New_York")
	first := time.Date(2020, 1, 1, 0, 0, 0, 0, ny)
	const days, perDay = 1827, 1000
	for d0 := 0; d0 < days; d0 += 100 {
		var outs []Output
		for d := d0; d < min(d0+100, days); d++ {
			start := first.AddDate(0, 0, d)
			key := start.Format("2006-01-02")
			tbl := sdk.NewTable(sdk.Time("ordered_at"), sdk.Float64("amount"))
			for i := 0; i < perDay; i++ {
				tbl.Append(start.Add(time.Duration(i)*86*time.Second), float64(i%97))
			}
			outs = append(outs, Output{Product: "orders", Partition: key, PartitionStart: start, PartitionEnd: start.AddDate(0, 0, 1), Table: tbl, RunID: "r", CodeHash: "c"})
		}
		if _, err := wh.Publish(ctx, outs); err != nil {
			b.Fatal(err)
		}
	}
	cases := []struct {
		name string
		q    AggregateQuery
		n    int
	}{
		{"weekly", AggregateQuery{X: "ordered_at", Y: "amount", Agg: "sum", Zone: ny}, 262},
		{"partition", AggregateQuery{X: "_partition", Y: "amount", Agg: "sum", Bucket: "none", Zone: ny}, days},
		{"histogram", AggregateQuery{Kind: "histogram", Y: "amount"}, 22},
	}
	took := map[string][]time.Duration{}
	for b.Loop() {
		for _, c := range cases {
			start := time.Now()
			a, err := wh.Aggregate(ctx, "orders", Selection{}, c.q)
			if err != nil {
				b.Fatal(err)
			}
			took[c.name] = append(took[c.name], time.Since(start))
			if len(a.Buckets) != c.n || a.Rows != days*perDay {
				b.Fatalf("%s: %d buckets over %d rows (%s)", c.name, len(a.Buckets), a.Rows, a.Describe)
			}
		}
		start := time.Now()
		if _, _, err := wh.ReadCounted(ctx, "orders", Selection{}, 10_000); err != nil {
			b.Fatal(err)
		}
		took["read10k"] = append(took["read10k"], time.Since(start))
	}
	p50 := func(d []time.Duration) float64 {
		d = slices.Clone(d)
		slices.Sort(d)
		return float64(d[len(d)/2].Microseconds()) / 1000
	}
	for _, k := range []string{"weekly", "partition", "histogram", "read10k"} {
		b.ReportMetric(p50(took[k]), k+"-p50-ms")
	}
	b.ReportMetric(p50(took["weekly"])/p50(took["read10k"]), "x-read10k")
}
