package engine

import (
	"fmt"
	"testing"
)

// oldCellFiles: orders is day × region (one row per cell); the readers
// read the cells of their day with a max_age of 1h on orders: godaily
// through ctx.Product of its day's key, gorange of a range of time keys
// (every cell of those days), sqldaily by naming it in its query,
// sqlbatch in a batch window of 2 days.
var oldCellFiles = map[string]string{
	"pipelines/p.yaml": `partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: region
      values: [us, eu, apac]
blocks:
  - id: load
    product: orders
`,
	"blocks/load.sql": "SELECT $partition_key AS k, left($partition_key, 10) AS day",
	"pipelines/godaily.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
reads:
  - product: orders
    freshness: {max_age: 1h}
blocks:
  - id: gtotal
`,
	"blocks/gtotal/gtotal.go": `package gtotal

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	in, err := ctx.Product("orders", sdk.One(ctx.Partition.Key))
	if err != nil {
		return nil, err
	}
	t := sdk.NewTable(sdk.String("key"), sdk.Int64("cells"))
	t.Append(ctx.Partition.Key, int64(in.Len()))
	return t, nil
}
`,
	"pipelines/gorange.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
reads:
  - product: orders
    freshness: {max_age: 1h}
blocks:
  - id: rtotal
`,
	"blocks/rtotal/rtotal.go": `package rtotal

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	in, err := ctx.Product("orders", sdk.Range(ctx.Partition.Key, ctx.Partition.Key))
	if err != nil {
		return nil, err
	}
	t := sdk.NewTable(sdk.String("key"), sdk.Int64("cells"))
	t.Append(ctx.Partition.Key, int64(in.Len()))
	return t, nil
}
`,
	"pipelines/sqldaily.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
reads:
  - product: orders
    freshness: {max_age: 1h}
blocks:
  - id: stotal
`,
	"blocks/stotal.sql": "SELECT count(*) AS cells FROM orders",
	"pipelines/sqlbatch.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
reads:
  - product: orders
    freshness: {max_age: 1h}
blocks:
  - id: btotal
    batch: {max: 2}
`,
	"blocks/btotal.sql": `SELECT strftime(d, '%Y-%m-%d') AS partition_key, count(o.k) AS cells
FROM generate_series($batch_start::TIMESTAMP, $batch_end::TIMESTAMP - INTERVAL 1 DAY, INTERVAL 1 DAY) t(d)
	LEFT JOIN orders o ON o.day = strftime(d, '%Y-%m-%d')
GROUP BY d`,
}

// TestMappedReadsRefreshOldCells: under a max_age, a read of the cells
// mapped onto a day refreshes those that are present but older than
// max_age and those missing, one run each, and keeps the fresh ones; for a
// Go block's ctx.Product of a key or a range and for a SQL query naming
// the product, in a run and in a batch window.
func TestMappedReadsRefreshOldCells(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ reader, product, day string }{
		{"godaily", "godaily__gtotal", "2024-01-03"},
		{"gorange", "gorange__rtotal", "2024-01-06"},
		{"sqldaily", "sqldaily__stotal", "2024-01-04"},
		{"sqlbatch", "sqlbatch__btotal", "2024-01-05"},
	} {
		t.Run(c.reader, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, false, oldCellFiles)
			if st := e.backfill(BackfillSpec{Pipeline: "p", From: c.day, To: c.day, Where: map[string][]string{"region": {"us", "eu"}}}); st.State != StateSucceeded {
				t.Fatalf("backfill p: %s %s", st.State, st.Message)
			}
			versions := func() string {
				var got string
				_ = e.wh.DB().QueryRow(`SELECT string_agg(partition || ':' || n, ' ' ORDER BY partition) FROM (
					SELECT partition, count(*) AS n FROM _strata.versions WHERE product = 'orders' GROUP BY partition)`).Scan(&got)
				return got
			}
			// eu two hours old, us fresh, apac missing.
			if _, err := e.wh.DB().Exec(`UPDATE _strata.versions SET created_at = created_at - INTERVAL 2 HOUR
				WHERE product = 'orders' AND partition = ?`, c.day+"|eu"); err != nil {
				t.Fatal(err)
			}
			e.mustSucceed(e.run(c.reader, c.day))
			want := fmt.Sprintf("%[1]s|apac:1 %[1]s|eu:2 %[1]s|us:1", c.day)
			if got := versions(); got != want {
				t.Fatalf("orders versions after %s read %s: %s; want the old eu refreshed, the missing apac made and the fresh us kept (%s)", c.reader, c.day, got, want)
			}
			if n := e.count(`SELECT count(*) FROM ` + c.product + ` WHERE cells = 3`); n != 1 {
				t.Fatalf("%s did not read the 3 cells of its day", c.product)
			}
			// Fresh now: a second read refreshes nothing.
			e.mustSucceed(e.run(c.reader, c.day))
			if got := versions(); got != want {
				t.Fatalf("orders versions after a second read: %s; want %s (nothing refreshed)", got, want)
			}
		})
	}
}
