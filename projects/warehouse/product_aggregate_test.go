package warehouse

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// aMonthOfOrders publishes March 2024 in New York: one partition a day of
// perDay orders spread over the day (the last one at 23:30 local, which is
// the next day in UTC), amount = day + i%7. It returns the sum per day.
func aMonthOfOrders(t *testing.T, perDay int) (*Warehouse, map[string]float64) {
	wh := openTemp(t)
	ny, _ := time.LoadLocation("America/New_York")
	sums := map[string]float64{}
	var outs []Output
	for d := 1; d <= 31; d++ {
		key := fmt.Sprintf("2024-03-%02d", d)
		tbl := sdk.NewTable(sdk.Time("ordered_at"), sdk.Float64("amount"), sdk.Int64("qty"))
		start := time.Date(2024, 3, d, 0, 0, 0, 0, ny)
		for i := 0; i < perDay; i++ {
			// By wall clock, from 00:00 to 23:30 (2024-03-10 is 23 hours long).
			at := time.Date(2024, 3, d, 0, i*(23*60+30)/(perDay-1), 0, 0, ny)
			amount := float64(d + i%7)
			tbl.Append(at, amount, int64(1))
			sums[key] += amount
		}
		o := out("orders", key, tbl)
		o.PartitionStart, o.PartitionEnd = start, start.AddDate(0, 0, 1)
		outs = append(outs, o)
	}
	if _, err := wh.Publish(context.Background(), outs); err != nil {
		t.Fatal(err)
	}
	return wh, sums
}

// A month of 44,020 rows sums to 31 days in the pipeline's zone, each day
// exact, though no client could read it in one page; the bucket is chosen
// from the range, and the chart can say what it aggregated.
func TestAggregateSeriesOverTheWholeWindow(t *testing.T) {
	t.Parallel()
	wh, sums := aMonthOfOrders(t, 1420)
	ny, _ := time.LoadLocation("America/New_York")
	ctx := context.Background()
	a, err := wh.Aggregate(ctx, "orders", Selection{}, AggregateQuery{X: "ordered_at", Y: "amount", Agg: "sum", Zone: ny})
	if err != nil {
		t.Fatal(err)
	}
	if a.Bucket != "day" || len(a.Buckets) != 31 || a.Rows != 31*1420 || a.TotalRows != a.Rows || a.Skipped != 0 || a.Partitions != 31 {
		t.Fatalf("bucket %s, %d buckets, %d of %d rows, %d partitions", a.Bucket, len(a.Buckets), a.Rows, a.TotalRows, a.Partitions)
	}
	for _, b := range a.Buckets {
		if b.Value == nil || math.Abs(*b.Value-sums[b.Label]) > 1e-6 || b.Rows != 1420 {
			t.Fatalf("%s: %v over %d rows, want %v over 1420", b.Label, b.Value, b.Rows, sums[b.Label])
		}
		if st := b.Start.In(ny); st.Hour() != 0 || st.Minute() != 0 || st.Format("2006-01-02") != b.Label {
			t.Fatalf("%s starts at %s, not at its midnight in New York", b.Label, st)
		}
	}
	if a.Describe != "sum of amount per day, 31 buckets over 44,020 rows" {
		t.Fatalf("describe %q", a.Describe)
	}
	// Chosen buckets; UTC days would move the 23:30 orders to the next day.
	for _, c := range []struct {
		bucket string
		zone   *time.Location
		n      int
	}{{"week", ny, 5}, {"month", ny, 1}, {"hour", ny, 31*24 - 1}, {"day", time.UTC, 32}} {
		a, err := wh.Aggregate(ctx, "orders", Selection{}, AggregateQuery{X: "ordered_at", Agg: "count", Bucket: c.bucket, Zone: c.zone})
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Buckets) != c.n || a.Rows != 31*1420 {
			t.Fatalf("%s in %s: %d buckets (%d rows), want %d", c.bucket, c.zone, len(a.Buckets), a.Rows, c.n)
		}
	}
	// Per partition, and over a window of it.
	from := time.Date(2024, 3, 10, 0, 0, 0, 0, ny)
	p, err := wh.Aggregate(ctx, "orders", Selection{From: from, To: from.AddDate(0, 0, 6)}, AggregateQuery{X: "_partition", Y: "qty", Agg: "sum", Bucket: "none", Zone: ny})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Buckets) != 7 || p.Buckets[0].Label != "2024-03-10" || *p.Buckets[6].Value != 1420 || !p.Buckets[0].Start.Equal(from) {
		t.Fatalf("per partition: %+v", p.Buckets)
	}
	if p.Describe != "sum of qty per _partition, 7 buckets over 9,940 rows" {
		t.Fatalf("describe %q", p.Describe)
	}
	pw, err := wh.Aggregate(ctx, "orders", Selection{}, AggregateQuery{X: "_partition", Agg: "count", Bucket: "week", Zone: ny})
	if err != nil || len(pw.Buckets) != 5 {
		t.Fatalf("partitions by week: %v %+v", err, pw)
	}
	// auto over partitions: one point each, unless there are too many.
	for _, c := range []struct {
		max    int
		bucket string
		n      int
	}{{400, "none", 31}, {10, "week", 5}} {
		pa, err := wh.Aggregate(ctx, "orders", Selection{}, AggregateQuery{X: "_partition", Agg: "count", Zone: ny, MaxBuckets: c.max})
		if err != nil || pa.Bucket != c.bucket || len(pa.Buckets) != c.n {
			t.Fatalf("auto over partitions, max %d: %v %s %d", c.max, err, pa.Bucket, len(pa.Buckets))
		}
	}
	// Refusals say what was wanted.
	for _, c := range []struct {
		q    AggregateQuery
		want string
	}{
		{AggregateQuery{X: "amount", Agg: "count"}, `x "amount": want a time column or _partition (time columns: ordered_at)`},
		{AggregateQuery{X: "ordered_at", Y: "nope", Agg: "sum"}, `y "nope": want a numeric column (amount, qty)`},
		{AggregateQuery{X: "ordered_at", Agg: "median"}, `agg "median"`},
		{AggregateQuery{X: "ordered_at", Agg: "count", Bucket: "fortnight"}, `bucket "fortnight"`},
		{AggregateQuery{Kind: "pie"}, `kind "pie"`},
	} {
		if _, err := wh.Aggregate(ctx, "orders", Selection{}, c.q); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.q, err, c.want)
		}
	}
}

func TestAggregateHistogram(t *testing.T) {
	t.Parallel()
	wh, _ := aMonthOfOrders(t, 100)
	a, err := wh.Aggregate(context.Background(), "orders", Selection{}, AggregateQuery{Kind: "histogram", Y: "amount", Bins: 10})
	if err != nil {
		t.Fatal(err)
	}
	// amount runs from 1 to 37.
	var n int64
	for _, b := range a.Buckets {
		n += b.Rows
	}
	if len(a.Buckets) != 10 || n != 3100 || a.Buckets[0].Lo != 1 || a.Buckets[9].Hi != 37 || a.BinWidth != 3.6 {
		t.Fatalf("%d bins, %d rows, %+v", len(a.Buckets), n, a)
	}
	if !strings.HasPrefix(a.Describe, "rows per range of amount, 10 bins of width 3.6 over 3,100 rows") {
		t.Fatalf("describe %q", a.Describe)
	}
	auto, err := wh.Aggregate(context.Background(), "orders", Selection{}, AggregateQuery{Kind: "histogram", Y: "amount"})
	if err != nil || len(auto.Buckets) != 13 { // Sturges: ceil(log2(3100)) + 1
		t.Fatalf("auto bins: %v %d", err, len(auto.Buckets))
	}
}

func TestAutoBucket(t *testing.T) {
	t.Parallel()
	d := func(s string) time.Time { t, _ := time.Parse(time.RFC3339, s); return t }
	for _, c := range []struct {
		from, to string
		want     string
	}{
		{"2024-03-01T00:00:00Z", "2024-03-01T05:00:00Z", "minute"},
		{"2024-03-01T00:00:00Z", "2024-03-10T00:00:00Z", "hour"},
		{"2024-03-01T00:00:00Z", "2024-03-31T23:30:00Z", "day"},
		{"2020-01-01T00:00:00Z", "2024-12-31T00:00:00Z", "week"},
		{"1900-01-01T00:00:00Z", "2024-12-31T00:00:00Z", "year"},
	} {
		if got := AutoBucket(d(c.from), d(c.to), 400); got != c.want {
			t.Errorf("%s..%s: %s, want %s", c.from, c.to, got, c.want)
		}
	}
}

// A DATE (or naive TIMESTAMP) x is a wall time already: its buckets are its
// dates in any zone, never shifted (DATE '2024-03-10' is not 03-09 in New
// York), and a DECIMAL y adds up.
func TestAggregateDateAndDecimal(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	ny, _ := time.LoadLocation("America/New_York")
	for _, k := range []string{"2024-03-10", "2024-03-11", "2024-03-12"} {
		tbl := sdk.NewTable(sdk.Date("day"), sdk.Decimal("amount", 18, 2))
		tbl.Append(day(k), "1.25")
		tbl.Append(day(k), "2.50")
		publish(t, wh, "d", k, tbl)
	}
	a, err := wh.Aggregate(context.Background(), "d", Selection{}, AggregateQuery{X: "day", Y: "amount", Agg: "sum", Bucket: "day", Zone: ny})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range a.Buckets {
		got = append(got, fmt.Sprintf("%s=%v", b.Label, *b.Value))
	}
	if strings.Join(got, " ") != "2024-03-10=3.75 2024-03-11=3.75 2024-03-12=3.75" {
		t.Fatalf("%v", got)
	}
}
