package sources

import (
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2" // the tests read Parquet and the warehouse directly

	"github.com/stratahq/strata/e2e/strataproc"
)

// token is the API token of the servers these tests start.
const token = "sources-0123456789abcdef"

// strataCmd runs the binary with env added to this process's environment.
func strataCmd(t testing.TB, bin string, env []string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

// writeExtProject writes files (paths relative to dir).
func writeExtProject(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// warehouse is a project's DuckDB file, opened while no strata process
// holds it (after a kill, or after the last process exited).
type warehouse struct{ db *sql.DB }

func openWarehouse(projectDir string) (*warehouse, error) {
	path := filepath.Join(projectDir, ".strata", "warehouse.duckdb")
	db, err := sql.Open("duckdb", path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return &warehouse{db}, nil
}

func (w *warehouse) close() error { return w.db.Close() }

func TestMain(m *testing.M) {
	code := m.Run()
	strataproc.Cleanup()
	os.Exit(code)
}
