package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/scaffold"
)

// TestBuildGridWarehouse is not a test: it builds the project the grid
// benchmark (e2e/bench.mjs) starts bin/strata on, and is skipped unless
// STRATA_GRID_WAREHOUSE names the folder to build it in (so `make test`
// never pays for it). The project holds:
//
//   - customers: an unpartitioned pipeline whose product dim_customers lists
//     STRATA_GRID_CUSTOMERS (500) ids, run for real: it is the key set of
//   - cells: day × region (static, STRATA_GRID_REGIONS = 20 values) ×
//     customer (dynamic, from dim_customers), one SQL block, and one ended
//     backfill over 365 days of it (3.65 million cells);
//   - days: the same block over 365 one-dimensional days, backfilled: the
//     baseline the figures are divided by.
//
// Each backfill is launched through the engine (its spec, pipeline version
// and key set versions are the real ones) and cancelled at once; its run
// log and its published versions are then written with SQL, as
// BenchmarkPlanCells seeds its catalog (running 3.65 million cells is not
// what the grid benchmark measures): 98% of the cells succeeded, 1% failed,
// 1% were skipped, every cell has a current version published by the
// backfill and 10% of them hold another code hash (stale). The backfill
// ids are written to STRATA_GRID_WAREHOUSE/grid-bench.json.
func TestBuildGridWarehouse(t *testing.T) {
	dir := os.Getenv("STRATA_GRID_WAREHOUSE")
	if dir == "" {
		t.Skip("STRATA_GRID_WAREHOUSE not set: this builds the grid benchmark's project (e2e/bench.mjs)")
	}
	customers := envInt("STRATA_GRID_CUSTOMERS", 500)
	regions := envInt("STRATA_GRID_REGIONS", 20)
	const days = 365
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := scaffold.Init(dir, false); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, gridFiles(customers, regions))
	e := openEnv(t, dir)
	e.mustSucceed(e.run("customers", "all"))
	cells := seedGridBackfill(t, e, "cells", days, regions, customers)
	oneD := seedGridBackfill(t, e, "days", days, 0, 0)
	e.close()
	out := fmt.Sprintf(`{"cells": %q, "days": %q, "cell_count": %d, "day_count": %d}`+"\n", cells, oneD, days*customers*regions, days)
	if err := os.WriteFile(filepath.Join(dir, "grid-bench.json"), []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("grid warehouse in %s: %s", dir, out)
}

func gridFiles(customers, regions int) map[string]string {
	rs := make([]string, regions)
	for i := range rs {
		rs[i] = fmt.Sprintf("r%02d", i)
	}
	return map[string]string{
		"pipelines/customers.yaml": `blocks:
  - id: list
    product: dim_customers
`,
		"blocks/list.sql": fmt.Sprintf("SELECT 'c' || lpad(i::VARCHAR, 3, '0') AS id FROM range(%d) t(i)\n", customers),
		"pipelines/cells.yaml": fmt.Sprintf(`partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: region
      values: [%s]
    - name: customer
      from: {product: dim_customers, column: id}
blocks:
  - id: load
`, strings.Join(rs, ", ")),
		"pipelines/days.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: load
`,
		"blocks/load.sql": "SELECT $partition_key AS k\n",
	}
}

// seedGridBackfill launches a backfill of pipeline's days (regions ×
// customers cells a day; 0: one-dimensional), cancels it and writes what
// it would have written had it run (see TestBuildGridWarehouse). The cell
// at position n of the backfill's order failed when n%100 == 7 and was
// skipped when n%100 == 8. It returns the backfill's id.
func seedGridBackfill(t *testing.T, e *env, pipeline string, days, regions, customers int) string {
	t.Helper()
	ctx := context.Background()
	t0 := time.Now()
	st, err := e.eng.Launch(ctx, BackfillSpec{Pipeline: pipeline, From: "2024-01-01", To: time.Date(2024, 1, days, 0, 0, 0, 0, time.UTC).Format(time.DateOnly), Concurrency: 1, AllowOverlap: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.eng.Cancel(ctx, st.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.eng.Wait(ctx, st.ID); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: launched and cancelled %s in %v", pipeline, st.ID, time.Since(t0))
	pl, err := e.eng.Pipeline(pipeline)
	if err != nil {
		t.Fatal(err)
	}
	hashes, err := CodeHashes(e.dir, pl)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := e.eng.backfillVersion(ctx, st.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Every cell, numbered by n (which decides its state below).
	cells := fmt.Sprintf(`SELECT strftime(d, '%%Y-%%m-%%d') AS k, d, i AS n
		FROM range(0, %d) t(i), LATERAL (SELECT TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_days(i::INTEGER) AS d)`, days)
	if regions > 0 {
		cells = fmt.Sprintf(`SELECT strftime(d, '%%Y-%%m-%%d') || '|r' || lpad(r::VARCHAR, 2, '0') || '|c' || lpad(c::VARCHAR, 3, '0') AS k, d,
			(i * %d + r) * %d + c AS n
		FROM range(0, %d) t(i), LATERAL (SELECT TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_days(i::INTEGER) AS d),
			range(0, %d) rs(r), range(0, %d) cs(c)`, regions, customers, days, regions, customers)
	}
	db := e.wh.DB()
	for _, q := range []string{`CREATE OR REPLACE TABLE grid_cells AS ` + cells} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("seed %s: %v\n%s", pipeline, err, q)
		}
	}
	for _, q := range []string{
		// The run log: one run-level event per cell, its final state.
		`DELETE FROM _strata.run_events WHERE backfill_id = $1`,
		`INSERT INTO _strata.run_events (seq, event_at, run_id, backfill_id, pipeline, partition_key, block_id, child_key, state, attempt,
			rows, duration_ms, error, error_line, log, output)
		SELECT 1000000000 + n, now(), $1 || ':' || k, $1, $2, k, '', '',
			CASE WHEN n % 100 = 7 THEN 'failed' WHEN n % 100 = 8 THEN 'skipped' ELSE 'succeeded' END, 1,
			1, 20 + n % 50, CASE WHEN n % 100 = 7 THEN 'load: seeded failure' ELSE '' END, 0, '', NULL
		FROM grid_cells ORDER BY n`,
		// Every cell's current version, published by the backfill; 10% of
		// them by other code (stale). (The run or two the launch started
		// before its cancel may have published one already.)
		`DELETE FROM _strata.versions WHERE product = $2 || '__load' AND $1 <> ''`,
		`INSERT INTO _strata.versions (product, partition, partition_start, partition_end, version, run_id, code_hash,
			upstream, row_count, schema, created_at, storage_table, is_current, snapshot)
		SELECT $2 || '__load', k, d, d + INTERVAL 1 DAY, 1, $1 || ':' || k, CASE WHEN n % 10 = 3 THEN 'stale' ELSE $3 END,
			'{}', 1, '[]', now(), 'seed', true, $4
		FROM grid_cells ORDER BY n`,
		`DROP TABLE grid_cells`,
		`INSERT INTO _strata.backfill_events (backfill_id, event_at, state, message) VALUES ($1, now() + INTERVAL 1 SECOND, 'failed', 'seeded: 1% of the cells failed')`,
	} {
		var a []any
		switch {
		case strings.HasPrefix(q, "DROP"):
		case strings.HasPrefix(q, "DELETE FROM _strata.run_events"):
			a = []any{st.ID}
		case strings.Contains(q, "run_events"), strings.HasPrefix(q, "DELETE FROM _strata.versions"):
			a = []any{st.ID, pipeline}
		case strings.Contains(q, "versions"):
			a = []any{st.ID, pipeline, hashes["load"], snap}
		default:
			a = []any{st.ID}
		}
		if _, err := db.ExecContext(ctx, q, a...); err != nil {
			t.Fatalf("seed %s: %v\n%s", pipeline, err, q)
		}
	}
	// Written behind the engine's back (in production only its store and
	// its warehouse writer write these): what it cached of the backfill's
	// status goes.
	e.eng.statusCache.mu.Lock()
	e.eng.statusCache.counts, e.eng.statusCache.shares, e.eng.statusCache.engines = nil, nil, nil
	e.eng.statusCache.mu.Unlock()
	t.Logf("%s: seeded in %v", pipeline, time.Since(t0))
	return st.ID
}

// BenchmarkGridPartitions: the backfill page's reads, server-side (the
// engine calls the HTTP routes make, without HTTP), over the project
// TestBuildGridWarehouse built in STRATA_GRID_WAREHOUSE (skipped without
// it): for the 3.65-million-cell backfill and the 365-day one, the status
// (its first read after a start, then cached), the grid's first page
// (20,000 cells), a page 3 million cells deep, a page filtered by a region
// and a customer, and the first 100 failed cells. Reported per read in
// ms, with the ratio cells/days.
func BenchmarkGridPartitions(b *testing.B) {
	dir := os.Getenv("STRATA_GRID_WAREHOUSE")
	if dir == "" {
		b.Skip("STRATA_GRID_WAREHOUSE not set: build it with TestBuildGridWarehouse")
	}
	raw, err := os.ReadFile(filepath.Join(dir, "grid-bench.json"))
	if err != nil {
		b.Fatal(err)
	}
	var ids struct {
		Cells     string `json:"cells"`
		Days      string `json:"days"`
		CellCount int    `json:"cell_count"`
	}
	if err := json.Unmarshal(raw, &ids); err != nil {
		b.Fatal(err)
	}
	e := openEnv(b, dir)
	ctx := context.Background()
	type read struct {
		name       string
		cells, day func() error
	}
	page := func(id string, q PartitionQuery) func() error {
		return func() error {
			_, _, err := e.eng.BackfillPartitionsQuery(ctx, id, q)
			return err
		}
	}
	status := func(id string) func() error {
		return func() error {
			_, err := e.eng.Backfill(ctx, id)
			return err
		}
	}
	deep := min(3_000_000, ids.CellCount-20_000)
	reads := []read{
		{"status-first", status(ids.Cells), status(ids.Days)},
		{"status", status(ids.Cells), status(ids.Days)},
		{"first-page", page(ids.Cells, PartitionQuery{Limit: 20_000}), page(ids.Days, PartitionQuery{Limit: 20_000})},
		{"deep-page", page(ids.Cells, PartitionQuery{Offset: deep, Limit: 20_000}), page(ids.Days, PartitionQuery{Offset: 300, Limit: 20_000})},
		{"filtered-page", page(ids.Cells, PartitionQuery{Where: map[string][]string{"region": {"r03"}, "customer": {"c007"}}, Limit: 20_000}), page(ids.Days, PartitionQuery{Limit: 20_000})},
		{"failed-page", page(ids.Cells, PartitionQuery{State: string(StateFailed), Limit: 100}), page(ids.Days, PartitionQuery{State: string(StateFailed), Limit: 100})},
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, r := range reads {
			if i > 0 && r.name == "status-first" {
				continue // once: the cache holds it after
			}
			var took [2]time.Duration
			for j, f := range []func() error{r.cells, r.day} {
				t0 := time.Now()
				if err := f(); err != nil {
					b.Fatalf("%s: %v", r.name, err)
				}
				took[j] = time.Since(t0)
			}
			b.ReportMetric(float64(took[0].Microseconds())/1000, r.name+"-ms")
			b.ReportMetric(float64(took[0])/float64(max(took[1], 1)), r.name+"-ratio")
		}
	}
}
