package server

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/warehouse"
)

// wideSource builds a 10,000-row output with an exact decimal column.
const wideSource = `package raw_orders

import (
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.Int64("n"), sdk.Decimal("amount", 38, 10), sdk.String("name"), sdk.Time("at"))
	for i := 0; i < 10000; i++ {
		t.Append(i, fmt.Sprintf("%d.%010d", (i*7919)%10007, i), fmt.Sprintf("cust-%05d", i), ctx.Partition.Start)
	}
	return t, t.Err()
}
`

// pageLatency times GET path and GET base alternately, n times each, and
// reports both p50s and their ratio: a sorted or filtered page as a
// multiple of the plain first page measured in the same run.
func pageLatency(b *testing.B, e *env, base, path string) {
	var lb, lp []time.Duration
	get := func(p string, into *[]time.Duration) {
		start := time.Now()
		resp, data := e.request(http.MethodGet, p, nil)
		*into = append(*into, time.Since(start))
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("GET %s: %d %s", p, resp.StatusCode, data)
		}
	}
	for b.Loop() {
		get(base, &lb)
		get(path, &lp)
	}
	p50 := func(l []time.Duration) float64 {
		sort.Slice(l, func(i, j int) bool { return l[i] < l[j] })
		return ms(l[len(l)/2])
	}
	bp, pp := p50(lb), p50(lp)
	b.ReportMetric(bp, "first-page-p50-ms")
	b.ReportMetric(pp, "page-p50-ms")
	if bp > 0 {
		b.ReportMetric(pp/bp, "x-first-page")
	}
}

// BenchmarkDraftPageSorted: a page of 100 rows at offset 5,000 of a cell's
// 10,000-row output sorted by a DECIMAL(38,10) column, through the API,
// against the unsorted first page.
func BenchmarkDraftPageSorted(b *testing.B) {
	e := newEnv(b)
	c := e.connect()
	c.hello("bench-pages")
	if m, _ := c.execute("raw_orders", wideSource, "2024-03-10", 60*time.Second); m.Type != MsgResult {
		b.Fatal(m.Error)
	}
	base := "/api/v1/sessions/bench-pages/drafts/clv/raw_orders/rows?partition=2024-03-10&limit=100"
	pageLatency(b, e, base, base+"&offset=5000&sort=amount:desc")
}

// BenchmarkDraftPagesOneSort: paging through one sort (the order is kept
// with the draft): page 1 and page 51 of the sorted output, alternately.
func BenchmarkDraftPagesOneSort(b *testing.B) {
	e := newEnv(b)
	c := e.connect()
	c.hello("bench-pages-1")
	if m, _ := c.execute("raw_orders", wideSource, "2024-03-10", 60*time.Second); m.Type != MsgResult {
		b.Fatal(m.Error)
	}
	base := "/api/v1/sessions/bench-pages-1/drafts/clv/raw_orders/rows?partition=2024-03-10&limit=100&sort=amount:desc"
	pageLatency(b, e, base, base+"&offset=5000")
}

// BenchmarkProductPageSorted: the same page of a stored 10,000-row
// partition, sorted by DuckDB, against its unsorted first page.
func BenchmarkProductPageSorted(b *testing.B) {
	e := newEnv(b)
	pl, err := e.eng.Pipeline("clv")
	if err != nil {
		b.Fatal(err)
	}
	spec, err := engine.SpecOf(pl.Block("daily_customer_metrics").Partitions)
	if err != nil {
		b.Fatal(err)
	}
	p, err := spec.Parse("2024-03-10")
	if err != nil {
		b.Fatal(err)
	}
	t := sdk.NewTable(sdk.Int64("customer_id"), sdk.Decimal("revenue", 38, 10), sdk.String("day"))
	for i := 0; i < 10000; i++ {
		t.Append(i, fmt.Sprintf("%d.%010d", (i*7919)%10007, i), p.Key)
	}
	if _, err := e.wh.Publish(context.Background(), []warehouse.Output{{Product: "daily_customer_metrics", Partition: p.Key,
		PartitionStart: p.Start, PartitionEnd: p.End, Table: t, RunID: "bench", CodeHash: "bench"}}); err != nil {
		b.Fatal(err)
	}
	base := "/api/v1/products/daily_customer_metrics/preview?partition=2024-03-10&limit=100"
	pageLatency(b, e, base, base+"&offset=5000&sort=revenue:desc")
}
