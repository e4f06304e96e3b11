package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/warehouse"
)

var sprintf = fmt.Sprintf

// The demo project end to end: every block, the per-segment fan-out and its
// reduce, the weekly rollup, versions, preview of an old version, rollback.
func TestDemoRunVersionsAndRollback(t *testing.T) {
	t.Parallel()
	e := newEnv(t, true, nil)
	ctx := context.Background()
	first := e.run("clv", "2024-03-10")
	e.mustSucceed(first)
	want := []string{"raw_orders", "daily_customer_metrics", "clv", "segments", "segment_stats", "segment_report", "weekly_customer_rollup"}
	seen := map[string]bool{}
	children := 0
	for _, b := range first.Blocks {
		seen[b.Block] = true
		if b.Child != "" {
			children++
		}
	}
	for _, w := range want {
		if !seen[w] {
			t.Errorf("block %s did not run", w)
		}
	}
	if children != 3 {
		t.Errorf("segment_stats children = %d, want one per segment (3)", children)
	}
	report := first.Output("segment_report")
	if report == nil || report.Len() != 3 {
		t.Fatalf("segment_report should reduce 3 children, got %v", report)
	}
	orders := first.Output("raw_orders").Len()
	if orders < 200 || orders > 5000 {
		t.Errorf("raw_orders has %d rows for a day, want a few hundred to a few thousand", orders)
	}
	// The weekly rollup ran for the week holding the day.
	if n := e.count(`SELECT count(*) FROM _strata.current WHERE product = 'clv__weekly_customer_rollup' AND partition = '2024-W10'`); n != 1 {
		t.Fatalf("weekly rollup partition 2024-W10 missing")
	}
	// The product view answers by name, as in the DuckDB CLI.
	if n := e.count(`SELECT count(*) FROM daily_customer_metrics WHERE _partition = '2024-03-10'`); n == 0 {
		t.Fatal("view daily_customer_metrics is empty")
	}

	// Deterministic: a second run writes the same rows as version 2.
	second := e.run("clv", "2024-03-10")
	e.mustSucceed(second)
	if second.Output("raw_orders").Len() != orders {
		t.Fatal("raw_orders is not deterministic")
	}
	parts, err := e.wh.Partitions(ctx, "daily_customer_metrics")
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != 1 || parts[0].Current != 2 || len(parts[0].Versions) != 2 {
		t.Fatalf("partitions after two runs: %+v", parts)
	}
	v1, err := e.wh.Read(ctx, "daily_customer_metrics", warehouse.Selection{Partitions: []string{"2024-03-10"}, Version: 1}, -1)
	if err != nil || v1.Len() == 0 {
		t.Fatalf("version 1 unreadable: %v", err)
	}
	if err := e.wh.Rollback(ctx, "daily_customer_metrics", "2024-03-10", 1); err != nil {
		t.Fatal(err)
	}
	parts, _ = e.wh.Partitions(ctx, "daily_customer_metrics")
	if parts[0].Current != 1 {
		t.Fatalf("rollback: current = %d", parts[0].Current)
	}
}

// A broken block fails the run with its line; nothing of the run is
// published and earlier versions stay current.
func TestFailedRunPublishesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	e.mustSucceed(e.run("p", "2024-01-05"))
	writeFiles(t, e.dir, map[string]string{"blocks/src/src.go": strings.Replace(srcBlock, "return t, nil", "var m map[string]int\n\tm[\"x\"] = 1\n\treturn t, nil", 1)})
	e.reload()
	res := e.run("p", "2024-01-05")
	if res.State != StateFailed || !strings.Contains(res.Error, "assignment to entry in nil map") {
		t.Fatalf("want a failed run naming the panic, got %s: %s", res.State, res.Error)
	}
	if n := e.count(`SELECT count(*) FROM _strata.versions WHERE run_id = ?`, res.RunID); n != 0 {
		t.Fatalf("failed run published %d versions", n)
	}
	if n := e.count(`SELECT version FROM _strata.current WHERE product = 'p__agg' AND partition = '2024-01-05'`); n != 1 {
		t.Fatalf("current version of agg = %d, want 1", n)
	}
	for _, b := range res.Blocks {
		if b.Block == "agg" && b.State != StateSkipped {
			t.Fatalf("downstream of a failure should be skipped, got %s", b.State)
		}
	}
}

// Bad partition keys get clear errors naming the expected format or range.
func TestRunRejectsBadPartitions(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	for key, want := range map[string]string{
		"2024-3-10":  "YYYY-MM-DD",
		"2023-12-31": "2024-01-01",
		"2024-W10":   "YYYY-MM-DD",
	} {
		_, err := e.eng.Run(context.Background(), "p", key, RunOptions{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("partition %q: error %v, want it to mention %q", key, err, want)
		}
	}
	if _, err := e.eng.Run(context.Background(), "nope", "2024-01-01", RunOptions{}); err == nil || !strings.Contains(err.Error(), "pipelines: p") {
		t.Errorf("unknown pipeline: %v", err)
	}
}

// A block whose output schema changes keeps old versions readable, and a
// window across both schemas unions by column name.
func TestSchemaChangeKeepsOldVersions(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	e.mustSucceed(e.run("p", "2024-01-02"))
	writeFiles(t, e.dir, map[string]string{"blocks/agg.sql": `SELECT count(*) AS n, sum(x) AS s, 'v2' AS note FROM src`})
	e.reload()
	e.mustSucceed(e.run("p", "2024-01-03"))
	ctx := context.Background()
	win, err := e.wh.Read(ctx, "p__agg", warehouse.Selection{Last: 5}, -1)
	if err != nil || win.Len() != 2 || win.Column("note") == nil || win.Column("day") == nil {
		t.Fatalf("window should union both schemas by name: %v %v", err, win)
	}
	e.mustSucceed(e.run("p", "2024-01-02"))
	old, err := e.wh.Read(ctx, "p__agg", warehouse.Selection{Partitions: []string{"2024-01-02"}, Version: 1}, -1)
	if err != nil || old.Column("day") == nil || old.Column("note") != nil {
		t.Fatalf("version 1 should keep its own schema: %v %v", err, old)
	}
}

// A second process gets "in use by pid", not a hang.
func TestWarehouseInUse(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	_, err := warehouse.Open(context.Background(), filepath.Join(e.dir, ".strata", "warehouse.duckdb"), warehouse.Options{})
	if err == nil || !strings.Contains(err.Error(), fmt.Sprint(os.Getpid())) {
		t.Fatalf("second open: %v", err)
	}
}

// ctx.Query and ctx.Product reach the warehouse through the kernel
// protocol, with windows resolved by the product's partitioning.
func TestBlocksQueryProducts(t *testing.T) {
	t.Parallel()
	files := dailyFiles("")
	files["pipelines/reader.yaml"] = `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: reader
`
	files["blocks/reader/reader.go"] = `package reader

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	last, err := ctx.Product("p__agg", sdk.Last(2))
	if err != nil {
		return nil, err
	}
	week, err := ctx.Product("p__agg", sdk.Period("2024-W01"))
	if err != nil {
		return nil, err
	}
	rng, err := ctx.Product("p__agg", sdk.Range("2024-01-02", "2024-01-04"))
	if err != nil {
		return nil, err
	}
	q, err := ctx.Query("SELECT sum(n) AS total FROM p__agg WHERE _partition <= ?", ctx.Partition.Key)
	if err != nil {
		return nil, err
	}
	t := sdk.NewTable(sdk.Int64("last"), sdk.Int64("week"), sdk.Int64("range"), sdk.Int64("total"))
	t.Append(last.Len(), week.Len(), rng.Len(), q.Column("total").Int64s()[0])
	return t, nil
}
`
	e := newEnv(t, false, files)
	e.backfill(spec("2024-01-01", "2024-01-09"))
	res := e.run("reader", "2024-01-05")
	e.mustSucceed(res)
	row := res.Output("reader").Row(0)
	// Days 1..5 have n = 1..5 rows: total 15. Week 1 of 2024 is Jan 1-7.
	if row[0] != int64(2) || row[1] != int64(7) || row[2] != int64(3) || row[3] != int64(15) {
		t.Fatalf("last, week, range, total = %v", row)
	}
}

// A failure upstream of a dynamic block skips its children and the reduce
// with a reason, and the run ends.
func TestFailureBeforeFanOutEnds(t *testing.T) {
	t.Parallel()
	files := fanFiles(3, "")
	files["blocks/items/items.go"] = strings.Replace(itemsBlock, "n, err := strconv.Atoi", "if ctx.Partition.Key == \"2024-01-03\" {\n\t\treturn nil, fmt.Errorf(\"boom\")\n\t}\n\tn, err := strconv.Atoi", 1)
	e := newEnv(t, false, files)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := e.eng.Run(ctx, "fan", "2024-01-03", RunOptions{})
	if err != nil || res.State != StateFailed {
		t.Fatalf("want a failed run, got %v %+v", err, res)
	}
	states := map[string]State{}
	for _, b := range res.Blocks {
		states[b.Block] = b.State
	}
	if states["items"] != StateFailed || states["work"] != StateSkipped || states["total"] != StateSkipped {
		t.Fatalf("states: %v", states)
	}
}
