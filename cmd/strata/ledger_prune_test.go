package main

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

const prunePipeline = `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
variables: {out: "%s"}
blocks:
  - id: sales
  - id: lake
    upstream: [sales]
`

// sales counts its runs in its cursor.
const pruneSales = `package sales

import (
	"strconv"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	n, _ := strconv.Atoi(ctx.State().Get("runs"))
	ctx.State().Set("runs", strconv.Itoa(n+1))
	t := sdk.NewTable(sdk.String("day"), sdk.Int64("run"))
	t.Append(ctx.Partition.Key, int64(n+1))
	return t, nil
}
`

// lake exports, then fails while the file "fail" exists (after its side
// effect: the export stays not completed).
const pruneLake = `package lake

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/stratahq/strata/blocks/sdk"
)

func Export(ctx *sdk.Context, sales *sdk.Table) error {
	out := ctx.Var("out", "")
	if _, err := ctx.ExportParquet(filepath.Join(out, "lake")); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(out, "fail")); err == nil {
		return errors.New("destination down")
	}
	return nil
}
`

// TestBackfillPrunesLedgers: the export ledger and the block states are
// pruned when a backfill ends, keeping what exactly-once needs. With
// retention 1, a partition run five times (the fourth failing after its
// export's side effect) keeps its newest export row and the not-completed
// one; its block states are those of the versions retention kept; the next
// export of the partition still gets a new number; the cursor goes on.
func TestBackfillPrunesLedgers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "proj")
	out := t.TempDir()
	writeExtProject(t, dir, map[string]string{
		"strata.yaml":           "name: prune\nretention: 1\n",
		"pipelines/ex.yaml":     fmt.Sprintf(prunePipeline, out),
		"blocks/sales/sales.go": pruneSales,
		"blocks/lake/lake.go":   pruneLake,
	})
	run := func(wantOK bool, args ...string) {
		t.Helper()
		o, code := strataproc.Run(t, bin, append(args, "--engine", "interp")...)
		if (code == 0) != wantOK {
			t.Fatalf("strata %s: exit %d\n%s", strings.Join(args, " "), code, o)
		}
	}
	for i := 0; i < 3; i++ {
		run(true, "run", dir, "ex", "--partition", "2024-01-01")
	}
	if err := os.WriteFile(filepath.Join(out, "fail"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	run(false, "run", dir, "ex", "--partition", "2024-01-01")
	if err := os.Remove(filepath.Join(out, "fail")); err != nil {
		t.Fatal(err)
	}
	run(true, "run", dir, "ex", "--partition", "2024-01-01")
	ledger := func() (string, int) {
		t.Helper()
		db, err := sql.Open("duckdb", filepath.Join(dir, ".strata", "warehouse.duckdb"))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		rows, err := db.Query(`SELECT partition, version, completed_at IS NOT NULL FROM _strata.exports ORDER BY 1, 2`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var b strings.Builder
		for rows.Next() {
			var p string
			var v int
			var done bool
			if err := rows.Scan(&p, &v, &done); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s/%d/%v ", p, v, done)
		}
		var orphans int
		if err := db.QueryRow(`SELECT count(*) FROM _strata.version_state s WHERE NOT EXISTS (SELECT 1 FROM _strata.versions v
			WHERE v.product = s.product AND v.partition = s.partition AND v.version = s.version)`).Scan(&orphans); err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(b.String()), orphans
	}
	before, orphans := ledger()
	t.Logf("before the backfill: exports %s; %d states of dropped versions", before, orphans)
	if before != "2024-01-01/1/true 2024-01-01/2/true 2024-01-01/3/true 2024-01-01/4/false 2024-01-01/5/true" || orphans == 0 {
		t.Fatalf("the setup went otherwise: exports %s, %d orphan states", before, orphans)
	}

	run(true, "backfill", dir, "ex", "--from", "2024-01-02", "--to", "2024-01-02")
	after, orphans := ledger()
	// Kept: the export not completed (its run may come again) and the
	// newest of each partition (numbers are never handed out twice).
	if want := "2024-01-01/4/false 2024-01-01/5/true 2024-01-02/1/true"; after != want || orphans != 0 {
		t.Fatalf("after the backfill: exports %s, %d states of dropped versions; want exports %s and none", after, orphans, want)
	}
	run(true, "run", dir, "ex", "--partition", "2024-01-01")
	if again, _ := ledger(); !strings.Contains(again, "2024-01-01/6/true") {
		t.Fatalf("the next export of 2024-01-01: %s, want version 6", again)
	}
	o, code := strataproc.Run(t, bin, "preview", dir, "ex", "sales", "--partition", "2024-01-01", "--format", "json")
	if code != 0 || !strings.Contains(o, `"2024-01-01",
          6`) && !strings.Contains(strings.Join(strings.Fields(o), ""), `"2024-01-01","2024-01-01",6]`) {
		t.Fatalf("the cursor did not go on from the kept state (want run 6):\n%s", o)
	}
}
