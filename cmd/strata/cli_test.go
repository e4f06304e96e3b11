package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

func TestMain(m *testing.M) {
	code := m.Run()
	strataproc.Cleanup()
	os.Exit(code)
}

// TestReadmeCommands builds the real binary and runs the commands the
// README and the issues show, in order, on a fresh demo project.
func TestReadmeCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := strataproc.Binary(t)
	demo := filepath.Join(dir, "demo")
	run := func(want int, args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != want {
			t.Fatalf("strata %s: exit %d, want %d\n%s", strings.Join(args, " "), code, want, out)
		}
		return string(out)
	}
	contains := func(out, want string) {
		t.Helper()
		if !strings.Contains(out, want) {
			t.Fatalf("output lacks %q:\n%s", want, out)
		}
	}

	run(0, "init", demo, "--demo")
	first := run(0, "run", demo, "clv", "--partition", "2024-03-10")
	contains(first, "succeeded")
	contains(first, "      │ ") // what the blocks logged, under their lines
	contains(first, "info generated orders orders=")
	contains(run(0, "preview", demo, "clv", "daily_customer_metrics", "--partition", "2024-03-10", "--limit", "20"), " rows, 20 shown)")
	var last struct {
		Preview struct {
			RowCount int `json:"row_count"`
		} `json:"preview"`
	}
	if err := json.Unmarshal([]byte(run(0, "preview", demo, "clv", "daily_customer_metrics", "--last", "7", "--format", "json")), &last); err != nil || last.Preview.RowCount == 0 {
		t.Fatalf("preview --last 7 --format json: %v %+v", err, last)
	}
	contains(run(0, "products", demo), "daily_customer_metrics")
	contains(run(0, "run", demo, "clv", "--partition", "2024-03-10"), "version 2")
	contains(run(0, "preview", demo, "clv", "daily_customer_metrics", "--partition", "2024-03-10", "--version", "1"), "rows")
	contains(run(0, "rollback", demo, "clv", "daily_customer_metrics", "--partition", "2024-03-10", "--to-version", "1"), "version 1 is current")

	// Bad input: clear errors, non-zero exits.
	contains(run(1, "run", demo, "clv", "--partition", "2024-3-10"), "YYYY-MM-DD")
	contains(run(1, "run", demo, "clv", "--partition", "2099-01-01"), "partition: partition 2099-01-01 has not started yet (the current partition is ")
	contains(run(1, "preview", demo, "clv", "daily_customer_metrics", "--partition", "2024-03-10", "--version", "9"), "no version 9")

	// A typo in a pipeline file: its file, line and field, said once.
	yaml := filepath.Join(demo, "pipelines", "clv.yaml")
	good, err := os.ReadFile(yaml)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(yaml, []byte(strings.Replace(string(good), "upstream: [raw_orders]", "upstream: [raw_order]", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := run(1, "run", demo, "clv", "--partition", "2024-03-10")
	contains(out, `pipelines/clv.yaml:17:16: blocks[1].upstream[0]: unknown upstream "raw_order"`)
	contains(out, `did you mean "raw_orders"?`)
	if n := strings.Count(out, "unknown upstream"); n != 1 {
		t.Fatalf("the problem is printed %d times:\n%s", n, out)
	}
	if err := os.WriteFile(yaml, good, 0o644); err != nil {
		t.Fatal(err)
	}

	// Backfills.
	contains(run(0, "backfill", demo, "clv", "--from", "2024-03-01", "--to", "2024-03-12", "--dry-run"), "12 partitions")
	out = run(0, "backfill", demo, "clv", "--from", "2024-03-01", "--to", "2024-03-05", "--concurrency", "2", "--rate", "600/m")
	contains(out, "succeeded")
	id := strings.Fields(strings.TrimPrefix(out, "backfill "))[0]
	id = strings.TrimSuffix(id, ":")
	contains(run(0, "backfill", "list", demo), id)
	var status struct {
		Counts map[string]int `json:"counts"`
	}
	if err := json.Unmarshal([]byte(run(0, "backfill", "status", demo, id, "--format", "json")), &status); err != nil || status.Counts["succeeded"] == 0 {
		t.Fatalf("status: %v %+v", err, status)
	}

	// One block, no project.
	golden := filepath.Join("..", "..", "kernel", "testdata", "golden")
	var res struct {
		Columns  []map[string]string `json:"columns"`
		RowCount int                 `json:"row_count"`
		Stdout   string              `json:"stdout"`
	}
	if err := json.Unmarshal([]byte(run(0, "exec", filepath.Join(golden, "load_orders.go"), "--partition", "2024-03-10", "--tz", "America/New_York", "--format", "json")), &res); err != nil ||
		res.RowCount != 3 || !strings.Contains(res.Stdout, "loaded 3 rows for 2024-03-10") || res.Columns[0]["type"] != "int64" {
		t.Fatalf("exec --format json: %v %+v", err, res)
	}
	contains(run(1, "exec", filepath.Join(golden, "type_error.go")), "type_error.go:11:14")
	if _, err := os.Stat(filepath.Join(demo, "go.mod")); err != nil {
		t.Fatal("init wrote no go.mod")
	}
}
