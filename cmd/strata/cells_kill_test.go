package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/strataproc"
)

// cellsGatedGo marks each cell it starts (at-KEY) and waits while hold-KEY
// exists in dir: the test kills the backfill while one cell is held.
func cellsGatedGo(dir string) string {
	return fmt.Sprintf(`package load

import (
	"os"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

const dir = %q

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	k := ctx.Partition.Key
	_ = os.WriteFile(dir+"/at-"+k, nil, 0o644)
	for {
		if _, err := os.Stat(dir + "/hold-" + k); err != nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	t := sdk.NewTable(sdk.String("day"), sdk.String("region"), sdk.String("customer"), sdk.String("tag"))
	t.Append(ctx.Partition.TimeKey, ctx.Partition.Value("region"), ctx.Partition.Value("customer"), ctx.Var("tag", ""))
	return t, nil
}
`, dir)
}

// TestCellsBackfillKilledResumes: a day × region × customer backfill killed
// while a cell runs, the key set grown meanwhile, resumed: it finishes the
// cells of the key set it was launched with (v1), each cell current once,
// and none of the new customer's.
func TestCellsBackfillKilledResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("kills the real binary")
	}
	bin := strataproc.Binary(t)
	root := t.TempDir()
	dir, gates := filepath.Join(root, "cells"), filepath.Join(root, "gates")
	if err := os.MkdirAll(gates, 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(want int, args ...string) string {
		t.Helper()
		return runWant(t, bin, want, args...)
	}
	run(0, "init", dir)
	for p, c := range map[string]string{
		"pipelines/customers.yaml": fmt.Sprintf(cellsCustomers, "c1,c2"),
		"blocks/list/list.go":      cellsCustomersGo,
		"pipelines/orders.yaml":    strings.Replace(fmt.Sprintf(cellsOrders, "v1"), "  - id: weekly\n    upstream: [load]\n    partitions: {interval: week}\n", "", 1),
		"blocks/load/load.go":      cellsGatedGo(gates),
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run(0, "run", dir, "customers")
	held := "2024-01-02|eu|c1"
	hold := filepath.Join(gates, "hold-"+held)
	if err := os.WriteFile(hold, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	bf := exec.Command(bin, "backfill", dir, "orders", "--from", "2024-01-01", "--to", "2024-01-03", "--concurrency", "2")
	if err := bf.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = bf.Process.Kill(); _ = bf.Wait() })
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(gates, "at-"+held)); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the held cell never started")
		}
	}
	if err := bf.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = bf.Wait()
	if err := os.Remove(hold); err != nil {
		t.Fatal(err)
	}
	// A new customer meanwhile: key set v2. The resume keeps v1's cells.
	if err := os.WriteFile(filepath.Join(dir, "pipelines/customers.yaml"), []byte(fmt.Sprintf(cellsCustomers, "c1,c2,c3")), 0o644); err != nil {
		t.Fatal(err)
	}
	run(0, "run", dir, "customers")
	out := run(0, "backfill", "list", dir)
	id := ""
	for _, f := range strings.Fields(out) {
		if strings.HasPrefix(f, "bf_") {
			id = f
		}
	}
	if id == "" {
		t.Fatalf("no backfill listed:\n%s", out)
	}
	out = run(0, "backfill", "resume", dir, id)
	if !strings.Contains(out, "succeeded") {
		t.Fatalf("resume:\n%s", out)
	}
	status := run(0, "backfill", "status", dir, id, "--format", "json")
	var doc struct {
		Backfill struct {
			Spec struct {
				KeySets map[string]int `json:"key_sets"`
			}
		}
	}
	if err := json.Unmarshal([]byte(status), &doc); err != nil || doc.Backfill.Spec.KeySets["customer"] != 1 {
		t.Fatalf("the backfill's spec does not pin key set v1 (%v):\n%s", err, status)
	}
	cells := currentCells(t, dir, "orders__load")
	versions := versionCounts(t, dir, "orders__load")
	if len(cells) != 12 {
		t.Fatalf("%d current cells, want the 12 of key set v1: %v", len(cells), cells)
	}
	for key, v := range cells {
		if strings.HasSuffix(key, "|c3") {
			t.Errorf("%s is current: the resume ran a cell of key set v2", key)
		}
		if v != 1 || versions[key] != 1 {
			t.Errorf("%s: current v%d of %d versions, want v1 alone", key, v, versions[key])
		}
	}
}

// versionCounts reads how many versions each partition of product has.
func versionCounts(t *testing.T, dir, product string) map[string]int {
	t.Helper()
	db, err := sql.Open("duckdb", filepath.Join(dir, ".strata", "warehouse.duckdb")+"?access_mode=read_only")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT partition, count(*) FROM _strata.versions WHERE product = ? GROUP BY partition`, product)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			t.Fatal(err)
		}
		out[k] = n
	}
	return out
}
