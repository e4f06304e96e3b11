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

// The demo of partitions beyond the calendar: orders by day × region ×
// customer, customers being a dynamic dimension read from the product
// dim_customers, with a week × region × customer rollup.
const cellsCustomers = `variables: {ids: "%s"}
blocks:
  - id: list
    product: dim_customers
`

const cellsCustomersGo = `package list

import (
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.String("id"))
	for _, id := range strings.Split(ctx.Var("ids", ""), ",") {
		t.Append(id)
	}
	return t, nil
}
`

const cellsOrders = `partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: region
      values: [us, eu]
    - name: customer
      from: {product: dim_customers, column: id}
variables: {tag: "%s"}
retries: {attempts: 0}
blocks:
  - id: load
  - id: weekly
    upstream: [load]
    partitions: {interval: week}
`

const cellsOrdersGo = `package load

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.String("day"), sdk.String("region"), sdk.String("customer"), sdk.String("tag"))
	t.Append(ctx.Partition.TimeKey, ctx.Partition.Value("region"), ctx.Partition.Value("customer"), ctx.Var("tag", ""))
	return t, nil
}
`

const cellsWeeklySQL = `SELECT count(*) AS days, $dim_region AS region, $dim_customer AS customer FROM load`

// TestCellsThroughBinary is issue 27's "done": a day × region × customer
// pipeline backfilled, reviewed, partly promoted by a dimension, rolled
// back as a whole and per cell, and extended by a new customer with
// --where customer=@new, all through the real binary, with the warehouse
// checked cell by cell.
func TestCellsThroughBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "cells")
	run := func(want int, args ...string) string {
		t.Helper()
		return runWant(t, bin, want, args...)
	}
	contains := func(out string, wants ...string) {
		t.Helper()
		mustContain(t, out, wants...)
	}
	write := func(files map[string]string) {
		t.Helper()
		for p, c := range files {
			full := filepath.Join(dir, p)
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	run(0, "init", dir)
	write(map[string]string{
		"pipelines/customers.yaml": fmt.Sprintf(cellsCustomers, "c1,c2"),
		"blocks/list/list.go":      cellsCustomersGo,
		"pipelines/orders.yaml":    fmt.Sprintf(cellsOrders, "v1"),
		"blocks/load/load.go":      cellsOrdersGo,
		"blocks/weekly.sql":        cellsWeeklySQL,
	})
	contains(run(1, "backfill", dir, "orders", "--from", "2024-01-01", "--to", "2024-01-03", "--dry-run"),
		"dimension customer: its key set is column id of product dim_customers, which has no current data")
	run(0, "run", dir, "customers")

	var plan struct {
		Total      int            `json:"total"`
		KeySets    map[string]int `json:"key_sets"`
		Partitions []struct{ Key string }
	}
	if err := json.Unmarshal([]byte(run(0, "backfill", dir, "orders", "--from", "2024-01-01", "--to", "2024-01-03", "--dry-run", "--format", "json")), &plan); err != nil {
		t.Fatal(err)
	}
	if plan.Total != 12 || plan.KeySets["customer"] != 1 || plan.Partitions[0].Key != "2024-01-01|us|c1" {
		t.Fatalf("plan: %+v", plan)
	}
	contains(run(0, "backfill", dir, "orders", "--from", "2024-01-01", "--to", "2024-01-03"), "16 succeeded")
	contains(run(1, "backfill", dir, "orders", "--from", "2024-01-01", "--to", "2024-01-03", "--where", "region=mars"),
		`where region=mars: "mars" is not a value of dimension region: want us, eu`)

	// A change, reviewed for one region, promoted for one customer.
	write(map[string]string{"pipelines/orders.yaml": fmt.Sprintf(cellsOrders, "v2")})
	contains(run(0, "backfill", dir, "orders", "--from", "2024-01-01", "--to", "2024-01-03", "--reprocess", "stale", "--dry-run"),
		"12 partitions, 12 to run")
	out := run(0, "backfill", dir, "orders", "--from", "2024-01-01", "--to", "2024-01-03", "--reprocess", "stale", "--where", "region=eu", "--publish", "review")
	contains(out, "where region=eu (8 partitions)", "ready for review")
	var list []struct{ ID string }
	if err := json.Unmarshal([]byte(run(0, "backfill", "list", dir, "--format", "json")), &list); err != nil || len(list) != 2 {
		t.Fatalf("backfill list: %v %v", list, err)
	}
	id := list[0].ID
	contains(run(0, "backfill", "diff", dir, id, "--product", "load", "--partition", "2024-01-02|eu|c1"), "changed")
	contains(run(0, "backfill", "promote", dir, id, "--where", "customer=c1"), "orders__load: 3 partitions", "still staged for review")
	cells := currentCells(t, dir, "orders__load")
	for key, v := range cells {
		want := 1
		if strings.HasSuffix(key, "|eu|c1") {
			want = 2
		}
		if v != want {
			t.Errorf("after the partial promote, %s is v%d, want v%d", key, v, want)
		}
	}
	run(0, "backfill", "promote", dir, id)
	contains(run(0, "backfill", "rollback", dir, id), "rolled back")
	run(0, "rollback", dir, "orders__load", "--partition", "2024-01-02|eu|c1", "--to-version", "2")

	// A new customer: key set v2, and only its cells run.
	write(map[string]string{"pipelines/customers.yaml": fmt.Sprintf(cellsCustomers, "c1,c2,c3")})
	run(0, "run", dir, "customers")
	contains(run(0, "backfill", dir, "orders", "--from", "2024-01-01", "--to", "2024-01-03", "--where", "customer=@new"),
		"where customer=@new (8 partitions)", "8 succeeded")

	// The warehouse, cell by cell.
	cells = currentCells(t, dir, "orders__load")
	if len(cells) != 18 {
		t.Fatalf("%d current cells, want 3 days × 2 regions × 3 customers: %v", len(cells), cells)
	}
	for _, day := range []string{"2024-01-01", "2024-01-02", "2024-01-03"} {
		for _, region := range []string{"us", "eu"} {
			for _, customer := range []string{"c1", "c2", "c3"} {
				key := day + "|" + region + "|" + customer
				want := 1
				if key == "2024-01-02|eu|c1" {
					want = 2
				}
				if cells[key] != want {
					t.Errorf("%s is v%d, want v%d", key, cells[key], want)
				}
				var pv struct {
					Preview struct {
						Columns []struct{ Name string }
						Rows    [][]any
					}
				}
				if err := json.Unmarshal([]byte(run(0, "preview", dir, "orders", "load", "--partition", key, "--format", "json")), &pv); err != nil || len(pv.Preview.Rows) != 1 {
					t.Fatalf("preview %s: %+v %v", key, pv, err)
				}
				r := map[string]any{}
				for i, c := range pv.Preview.Columns {
					r[c.Name] = pv.Preview.Rows[0][i]
				}
				wantTag := map[int]string{1: "v1", 2: "v2"}[want]
				if customer == "c3" {
					wantTag = "v2" // computed after the change
				}
				if r["day"] != day || r["region"] != region || r["customer"] != customer || r["tag"] != wantTag {
					t.Errorf("%s holds %v, want tag %s", key, r, wantTag)
				}
			}
		}
	}
	weekly := currentCells(t, dir, "orders__weekly")
	if len(weekly) != 6 || weekly["2024-W01|eu|c3"] != 1 {
		t.Fatalf("weekly cells: %v", weekly)
	}
}

// currentCells reads product's current version per partition from the
// warehouse file (the binary has exited).
func currentCells(t *testing.T, dir, product string) map[string]int {
	t.Helper()
	db, err := sql.Open("duckdb", filepath.Join(dir, ".strata", "warehouse.duckdb")+"?access_mode=read_only")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT partition, version FROM _strata.current WHERE product = ?`, product)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var k string
		var v int
		if err := rows.Scan(&k, &v); err != nil {
			t.Fatal(err)
		}
		out[k] = v
	}
	return out
}
