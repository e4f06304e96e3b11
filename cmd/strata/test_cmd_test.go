package main

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
	"github.com/stratahq/strata/projects/warehouse"
)

// TestReplayCommand drives `strata test --replay` through the real binary:
// 90 stored days unchanged, then clv changed on disk: the changed
// partitions with their rows, the --expect-unchanged gate (exit 1 when its
// product changed, 0 when not), JUnit that parses, and a warehouse that is
// the same row for row after every replay.
func TestReplayCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	demo := filepath.Join(t.TempDir(), "demo")
	run := func(want int, args ...string) string {
		t.Helper()
		return runWant(t, bin, want, args...)
	}
	contains := func(out string, wants ...string) {
		t.Helper()
		mustContain(t, out, wants...)
	}
	run(0, "init", demo, "--demo")
	run(0, "backfill", demo, "clv", "--from", "2024-01-01", "--to", "2024-03-31")
	before := dumpWarehouse(t, demo)

	out := run(0, "test", demo, "--replay", "clv", "--last", "90", "--expect-unchanged", "daily_customer_metrics", "--expect-unchanged", "clv")
	// 90 days (2024-01-02 to 2024-03-31) and the 13 weeks that hold them.
	contains(out, "replay clv: 103 partitions", "103 partitions: 103 unchanged, 0 changed, 0 failed", "expect unchanged clv__clv: passed")
	sameWarehouse(t, before, dumpWarehouse(t, demo))

	clv := filepath.Join(demo, "blocks", "clv", "clv.go")
	src, err := os.ReadFile(clv)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(clv, []byte(strings.Replace(string(src), "lifetime := 2.0", "lifetime := 2.5", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out = run(1, "test", demo, "--replay", "clv", "--last", "90", "--expect-unchanged", "clv", "--rows", "2")
	contains(out, "103 partitions: 13 unchanged, 90 changed, 0 failed", "  2024-03-31   changed", "      clv (clv__clv): ", " changed, ",
		"        - customer_id=", "        + customer_id=", "expect unchanged clv__clv: FAILED (changed in 90 partitions: 2024-01-02, ")
	// Not gated on clv: the changes are reported, the exit is 0.
	contains(run(0, "test", demo, "--replay", "clv", "--from", "2024-03-01", "--to", "2024-03-10", "--expect-unchanged", "daily_customer_metrics"),
		"replay clv: 12 partitions", "10 changed", "expect unchanged daily_customer_metrics: passed")

	junit := run(1, "test", demo, "--replay", "clv", "--last", "90", "--expect-unchanged", "clv", "--format", "junit")
	var suites struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Suites   []struct {
			Cases []struct {
				Classname string `xml:"classname,attr"`
				Name      string `xml:"name,attr"`
				Failure   *struct {
					Message string `xml:"message,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(junit), &suites); err != nil {
		t.Fatalf("junit does not parse: %v\n%s", err, junit)
	}
	if suites.Failures != 90 || suites.Errors != 0 || len(suites.Suites) != 1 {
		t.Fatalf("junit: %d tests, %d failures, %d errors", suites.Tests, suites.Failures, suites.Errors)
	}
	var js struct {
		Passed bool                  `json:"passed"`
		Counts struct{ Changed int } `json:"counts"`
	}
	if err := json.Unmarshal([]byte(run(0, "test", demo, "--replay", "clv", "--last", "5", "--format", "json")), &js); err != nil || !js.Passed || js.Counts.Changed != 5 {
		t.Fatalf("json: %v %+v", err, js)
	}
	sameWarehouse(t, before, dumpWarehouse(t, demo))

	// Bad input: what, where, what was expected.
	contains(run(1, "test", demo, "--replay", "nope"), `pipeline "nope" not found (pipelines: clv)`)
	contains(run(1, "test", demo, "--replay", "clv", "--expect-unchanged", "orders"), "--expect-unchanged orders: pipeline clv writes no such product")
	contains(run(1, "test", demo, "--replay", "clv", "--from", "2024-03-10", "--to", "2024-03-01"), "--from 2024-03-10 is after --to 2024-03-01")
	contains(run(1, "test", demo, "--replay", "clv", "--from", "2024-3-1"), "--from: ")
	contains(run(1, "test", demo, "--replay", "clv", "--from", "2025-01-01"), "no stored partitions from 2025-01-01 to (open)")
	contains(run(1, "test", demo, "--replay", "clv", "--format", "xml"), `--format "xml": want text, json or junit`)
	contains(run(1, "test", demo, "--replay", "clv", "--last", "-2"), "--last -2: want a positive number")
}

// dumpWarehouse is every table of a project's warehouse, row for row.
func dumpWarehouse(t *testing.T, dir string) map[string]string {
	t.Helper()
	ctx := context.Background()
	wh, err := warehouse.Open(ctx, warehousePath(dir), warehouse.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer wh.Close()
	rows, err := wh.DB().Query(`SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = current_database() ORDER BY ALL`)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for rows.Next() {
		var s, n string
		if err := rows.Scan(&s, &n); err != nil {
			t.Fatal(err)
		}
		names = append(names, fmt.Sprintf("%q.%q", s, n))
	}
	rows.Close()
	out := map[string]string{}
	for _, n := range names {
		var count int64
		var h string
		q := `SELECT count(*), coalesce(md5(string_agg(CAST(t AS VARCHAR), '|' ORDER BY CAST(t AS VARCHAR))), '') FROM ` + n + ` t`
		if err := wh.DB().QueryRow(q).Scan(&count, &h); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		out[n] = fmt.Sprintf("%d rows %s", count, h)
	}
	return out
}

func sameWarehouse(t *testing.T, before, after map[string]string) {
	t.Helper()
	if len(before) != len(after) {
		t.Fatalf("warehouse tables before %d, after %d", len(before), len(after))
	}
	for n, b := range before {
		if after[n] != b {
			t.Errorf("warehouse table %s changed: %s -> %s", n, b, after[n])
		}
	}
}
