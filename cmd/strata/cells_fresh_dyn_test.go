package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// TestCellReadsFreshnessDynamicThroughBinary: max_age over a dynamic
// dimension. orders is day × customer, its customers the ids of
// dim_customers; daily reads every customer of its day with a max_age. A
// day read refreshes exactly the missing cells of the customers in the
// key set, one run each, and none of the fresh ones; a customer added to
// dim_customers is a cell the next day read refreshes.
func TestCellReadsFreshnessDynamicThroughBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "proj")
	ids := filepath.Join(t.TempDir(), "ids")
	run := func(want int, args ...string) string {
		t.Helper()
		return runWant(t, bin, want, args...)
	}
	run(0, "init", dir)
	writeProject(t, dir, map[string]string{
		"pipelines/customers.yaml": "blocks:\n  - id: list\n    product: dim_customers\n",
		"blocks/list/list.go":      cellsCustomersFileGo(ids),
		"pipelines/p.yaml": `partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: customer
      from: {product: dim_customers, column: id}
retries: {attempts: 0}
blocks:
  - id: load
    product: orders
`,
		"blocks/load.sql":       "SELECT $partition_key AS k, $dim_customer AS customer, 1 AS n",
		"pipelines/daily.yaml":  "partitions: {interval: day, timezone: UTC, start: \"2024-01-01\"}\nreads:\n  - product: orders\n    freshness: {max_age: 1h}\nblocks:\n  - id: total\n",
		"blocks/total/total.go": fmt.Sprintf(freshReaderBlock, "total"),
		"pipelines/rng.yaml":    fmt.Sprintf(freshReader, "", "span"),
		"blocks/span/span.go":   strings.Replace(fmt.Sprintf(freshReaderBlock, "span"), "sdk.One(ctx.Partition.Key)", `sdk.Range("2024-01-01", "2024-01-02")`, 1),
	})
	if err := os.WriteFile(ids, []byte("c1,c2"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(0, "run", dir, "customers")
	run(0, "backfill", dir, "p", "--from", "2024-01-01", "--to", "2024-01-03", "--where", "customer=c1")
	if v := versionCounts(t, dir, "orders"); len(v) != 3 {
		t.Fatalf("orders after the backfill of c1: %v, want its 3 days", v)
	}

	run(0, "run", dir, "daily", "--partition", "2024-01-02")
	v := versionCounts(t, dir, "orders")
	if len(v) != 4 || v["2024-01-02|c2"] != 1 || v["2024-01-02|c1"] != 1 {
		t.Fatalf("orders after the day read: %v; want 2024-01-02|c2 refreshed alone and c1 kept", v)
	}
	if got := rows(t, dir, `SELECT key || ':' || cells FROM daily__total`); got != "2024-01-02:2" {
		t.Fatalf("daily totals %q: want both customers of the day", got)
	}

	// A new customer: a cell of the next day read, refreshed with c2's.
	if err := os.WriteFile(ids, []byte("c1,c2,c3"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(0, "run", dir, "customers")
	run(0, "run", dir, "daily", "--partition", "2024-01-03")
	v = versionCounts(t, dir, "orders")
	if len(v) != 6 || v["2024-01-03|c2"] != 1 || v["2024-01-03|c3"] != 1 || v["2024-01-03|c1"] != 1 || v["2024-01-02|c3"] != 0 {
		t.Fatalf("orders after the new customer's day read: %v; want 2024-01-03|c2 and |c3 refreshed, nothing else", v)
	}
	if got := rows(t, dir, `SELECT key || ':' || cells FROM daily__total ORDER BY key`); got != "2024-01-02:2 2024-01-03:3" {
		t.Fatalf("daily totals %q: want every customer of each day", got)
	}

	// A window of days (no cell key) reads every cell of the key set's
	// customers in it: the missing ones are refreshed, one run each.
	run(0, "run", dir, "rng")
	v = versionCounts(t, dir, "orders")
	if len(v) != 9 || v["2024-01-01|c2"] != 1 || v["2024-01-01|c3"] != 1 || v["2024-01-02|c3"] != 1 || v["2024-01-01|c1"] != 1 || v["2024-01-02|c2"] != 1 {
		t.Fatalf("orders after the range read: %v; want 2024-01-01|c2, 2024-01-01|c3 and 2024-01-02|c3 refreshed, nothing else", v)
	}
	if got := rows(t, dir, `SELECT key || ':' || cells FROM rng__span`); got != "all:6" {
		t.Fatalf("range totals %q: want the 6 cells of two days", got)
	}
}
