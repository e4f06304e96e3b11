package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// Freshness of reads of several cells: p is day × region (src, agg exposed
// as orders, a week × region rollup), daily totals every region of its day
// and wr every day of its week and region, both reading orders with
// sdk.One(their own key) and a max_age on it.
const freshP = `partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: region
      values: [us, eu, apac]
retries: {attempts: 0}
blocks:
  - id: src
  - id: agg
    upstream: [src]
    product: orders
  - id: weekly
    upstream: [agg]
    partitions: {interval: week}
`

// freshSrc writes one row per cell, tagged with the content of a file the
// test changes to rewrite a cell without changing the code.
func freshSrc(tagFile string) string {
	return fmt.Sprintf(`package src

import (
	"os"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	tag, _ := os.ReadFile(%q)
	t := sdk.NewTable(sdk.String("day"), sdk.String("region"), sdk.String("tag"), sdk.Int64("n"))
	t.Append(ctx.Partition.TimeKey, ctx.Partition.Value("region"), string(tag), int64(1))
	return t, nil
}
`, tagFile)
}

const freshAgg = `SELECT day, region, tag, n FROM src`
const freshWeekly = `SELECT count(*) AS days, $dim_region AS region FROM agg`

const freshReader = `%s
reads:
  - product: orders
    freshness: {max_age: 1h}
blocks:
  - id: %s
`

const freshReaderBlock = `package %s

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
`

// TestCellReadsFreshnessThroughBinary: through the CLI, a reader of
// several cells refreshes (max_age) exactly the cells it reads that are
// missing, one run each, and none of the fresh ones; rewriting one cell
// makes stale, with the cell named, the day that read it, the week ×
// region reader of its region and the rollup of its region's week, and
// nothing else.
func TestCellReadsFreshnessThroughBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "proj")
	tag := filepath.Join(t.TempDir(), "tag")
	run := func(want int, args ...string) string {
		t.Helper()
		return runWant(t, bin, want, args...)
	}
	run(0, "init", dir)
	for p, c := range map[string]string{
		"pipelines/p.yaml":        freshP,
		"blocks/src/src.go":       freshSrc(tag),
		"blocks/agg.sql":          freshAgg,
		"blocks/weekly.sql":       freshWeekly,
		"pipelines/daily.yaml":    fmt.Sprintf(freshReader, `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}`, "total"),
		"blocks/total/total.go":   fmt.Sprintf(freshReaderBlock, "total"),
		"pipelines/wr.yaml":       fmt.Sprintf(freshReader, "partitions:\n  interval: week\n  timezone: UTC\n  start: \"2024-01-01\"\n  dimensions:\n    - name: region\n      values: [us, eu, apac]", "wtotal"),
		"blocks/wtotal/wtotal.go": fmt.Sprintf(freshReaderBlock, "wtotal"),
		"pipelines/rng.yaml":      fmt.Sprintf(freshReader, "", "span"),
		"pipelines/tail.yaml":     "blocks:\n  - id: latest\n",
		"blocks/latest/latest.go": strings.Replace(fmt.Sprintf(freshReaderBlock, "latest"), "sdk.One(ctx.Partition.Key)", "sdk.Last(2)", 1),
		"blocks/span/span.go":     strings.Replace(fmt.Sprintf(freshReaderBlock, "span"), "sdk.One(ctx.Partition.Key)", `sdk.Range("2024-01-05", "2024-01-06")`, 1),
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(tag, []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(0, "backfill", dir, "p", "--from", "2024-01-01", "--to", "2024-01-07", "--where", "region=us,eu")

	// max_age per cell: the day reads its three regions; apac's cell is
	// missing and is refreshed, alone; us and eu are fresh and kept.
	run(0, "run", dir, "daily", "--partition", "2024-01-03")
	versions := versionCounts(t, dir, "orders")
	if versions["2024-01-03|apac"] != 1 || versions["2024-01-03|us"] != 1 || versions["2024-01-03|eu"] != 1 || len(versions) != 15 {
		t.Fatalf("orders versions after the day read: %v; want 2024-01-03|apac refreshed alone (15 cells, one version each)", versions)
	}
	run(0, "run", dir, "daily", "--partition", "2024-01-04")
	run(0, "run", dir, "wr", "--partition", "2024-W01|eu")
	if v := versionCounts(t, dir, "orders"); len(v) != 16 || v["2024-01-04|apac"] != 1 {
		t.Fatalf("orders versions after the week × region read: %v; want 2024-01-04|apac refreshed and the eu days kept", v)
	}
	// A range of days reads every region of them: the missing apac cells
	// of those days are refreshed, one each.
	run(0, "run", dir, "rng")
	if v := versionCounts(t, dir, "orders"); len(v) != 18 || v["2024-01-05|apac"] != 1 || v["2024-01-06|apac"] != 1 || v["2024-01-05|eu"] != 1 {
		t.Fatalf("orders versions after the range read: %v; want 2024-01-05|apac and 2024-01-06|apac refreshed alone", v)
	}
	if got := rows(t, dir, `SELECT key || ':' || cells FROM rng__span`); got != "all:6" {
		t.Fatalf("range totals %q: want the 6 cells of two days", got)
	}
	// The last two days are every cell of the two latest days: us, eu and
	// apac of 2024-01-06 (refreshed above), us and eu of 2024-01-07.
	run(0, "run", dir, "tail")
	if got := rows(t, dir, `SELECT key || ':' || cells FROM tail__latest`); got != "all:5" {
		t.Fatalf("last-2 totals %q: want the 5 cells of the two latest days", got)
	}
	if got := rows(t, dir, `SELECT key || ':' || cells FROM daily__total ORDER BY key`); got != "2024-01-03:3 2024-01-04:3" {
		t.Fatalf("daily totals %q: want every region of each day", got)
	}
	if got := rows(t, dir, `SELECT key || ':' || cells FROM wr__wtotal`); got != "2024-W01|eu:7" {
		t.Fatalf("week × region totals %q: want the 7 eu days", got)
	}

	// One cell rewritten: what read it is stale, naming it.
	if err := os.WriteFile(tag, []byte("b"), 0o644); err != nil {
		t.Fatal(err)
	}
	// src and agg alone: the week × region rollup keeps its version.
	run(0, "backfill", dir, "p", "--from", "2024-01-03", "--to", "2024-01-03", "--where", "region=eu", "--blocks", "src,agg", "--reprocess", "all")
	if v := versionCounts(t, dir, "orders"); v["2024-01-03|eu"] != 2 {
		t.Fatalf("2024-01-03|eu has %d versions after its rewrite, want 2", v["2024-01-03|eu"])
	}
	type partition struct {
		Key    string `json:"key"`
		State  string `json:"state"`
		Action string `json:"action"`
		Reason string `json:"reason"`
	}
	type planned struct {
		Partitions []partition `json:"partitions"`
		Rollups    []partition `json:"rollups"`
	}
	stale := func(pipeline, from, to string, extra ...string) map[string]string {
		t.Helper()
		var p planned
		out := run(0, append([]string{"backfill", dir, pipeline, "--from", from, "--to", to, "--reprocess", "stale", "--dry-run", "--all", "--format", "json"}, extra...)...)
		if err := json.Unmarshal([]byte(out), &p); err != nil {
			t.Fatalf("plan of %s: %v\n%s", pipeline, err, out)
		}
		got := map[string]string{}
		for _, pp := range append(p.Partitions, p.Rollups...) {
			if pp.Action == "run" && pp.State != "missing" {
				got[pp.Key] = pp.Reason
			}
		}
		return got
	}
	check := func(what string, got map[string]string, want ...string) {
		t.Helper()
		if len(got) != len(want) {
			t.Errorf("%s: stale %v, want exactly %v", what, got, want)
		}
		for _, k := range want {
			if !strings.Contains(got[k], "2024-01-03|eu") {
				t.Errorf("%s: %s stale for %q, want the reason to name the cell 2024-01-03|eu", what, k, got[k])
			}
		}
	}
	check("daily", stale("daily", "2024-01-01", "2024-01-07"), "2024-01-03")
	check("wr", stale("wr", "2024-W01", "2024-W01"), "2024-W01|eu")
	check("p's weekly rollup", stale("p", "2024-01-01", "2024-01-07", "--where", "region=us,eu"), "2024-W01|eu")
	// The plan's summary counts the stale rollup: the day cells are all
	// current, the week × region rollup of eu is not.
	out := run(0, "backfill", dir, "p", "--from", "2024-01-01", "--to", "2024-01-07", "--where", "region=us,eu", "--reprocess", "stale", "--dry-run")
	if !strings.Contains(out, "today: 0 missing, 0 failed, 0 stale, 14 current; rollups: 0 missing, 0 failed, 1 stale, 1 current\n") {
		t.Errorf("plan summary does not count the stale week × region rollup:\n%s", out)
	}
}

// rows reads one column of a query as space-separated values.
func rows(t *testing.T, dir, query string) string {
	t.Helper()
	db, err := sql.Open("duckdb", filepath.Join(dir, ".strata", "warehouse.duckdb")+"?access_mode=read_only")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rs, err := db.Query(query)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	var out []string
	for rs.Next() {
		var s string
		if err := rs.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}
