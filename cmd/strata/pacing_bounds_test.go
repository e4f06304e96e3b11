package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// TestPacingBoundsRefused: `--rate 0/m` ran the backfill unpaced and a
// pipeline's `concurrency: 100000` ran that many partitions at once,
// although the documented bounds (1/d..1000/s, 1..1000) refuse them. Both
// are refused: the CLI and the API (400) name the rate and the range, the
// pipeline file gets a load problem at its file, line and field.
func TestPacingBoundsRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "proj")
	write := func(p, c string) {
		t.Helper()
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("strata.yaml", "name: pace\ntimezone: UTC\n")
	pipeline := `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: d
`
	write("pipelines/daily.yaml", pipeline)
	write("blocks/d.sql", "SELECT $partition_key AS day\n")

	out, code := strataproc.Run(t, bin, "backfill", dir, "daily", "--from", "2024-01-01", "--to", "2024-01-02", "--rate", "0/m")
	if code == 0 || !strings.Contains(out, `rate "0/m" starts no partition at all: want between 1/d`) {
		t.Fatalf("--rate 0/m: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, ".strata", "warehouse.duckdb")); err == nil {
		if out, _ := strataproc.Run(t, bin, "backfill", "list", dir); strings.Contains(out, "bf_") {
			t.Fatalf("a refused rate recorded a backfill:\n%s", out)
		}
	}

	srv := strataproc.Start(t, bin, dir, "0123456789abcdef-test")
	status, body, err := srv.Request(http.MethodPost, "/backfills", `{"pipeline":"daily","from":"2024-01-01","to":"2024-01-02","rate":"0/m"}`)
	if err != nil || status != http.StatusBadRequest || !strings.Contains(string(body), `rate \"0/m\" starts no partition`) {
		t.Fatalf("API rate 0/m: %d %s %v", status, body, err)
	}
	status, body, err = srv.Request(http.MethodPost, "/backfills", `{"pipeline":"daily","from":"2024-01-01","to":"2024-01-02","concurrency":100000}`)
	if err != nil || status != http.StatusBadRequest || !strings.Contains(string(body), "concurrency 100000") {
		t.Fatalf("API concurrency 100000: %d %s %v", status, body, err)
	}
	srv.Stop(t)

	write("pipelines/daily.yaml", pipeline+"concurrency: 100000\n")
	out, code = strataproc.Run(t, bin, "backfill", dir, "daily", "--from", "2024-01-01", "--to", "2024-01-02")
	if code == 0 || !strings.Contains(out, "pipelines/daily.yaml:4") || !strings.Contains(out, "concurrency 100000 is out of range: want between 1 and 1000") {
		t.Fatalf("concurrency: 100000 in the pipeline file: exit %d\n%s", code, out)
	}
}
