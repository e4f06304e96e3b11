// Package exttest gives tests the DuckDB extension wheels that `make setup`
// downloads (.cache/duckdb-wheels, or STRATA_DUCKDB_WHEELS), and installs
// extensions from them for tests that need one loaded.
//
// Without the wheels a test is skipped with the reason, except under CI
// (CI=true), where it fails: CI must not pass by skipping what it never set up.
package exttest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stratahq/strata/projects/extensions"
)

// WheelsEnv names the folder of wheels when it is not the repository's
// .cache/duckdb-wheels.
const WheelsEnv = "STRATA_DUCKDB_WHEELS"

// Wheels is the folder holding the duckdb-extension-* wheels.
func Wheels(t testing.TB) string {
	t.Helper()
	dir := os.Getenv(WheelsEnv)
	if dir == "" {
		root, err := repoRoot()
		if err != nil {
			unavailable(t, "no repository root above the test's folder: "+err.Error())
		}
		dir = filepath.Join(root, ".cache", "duckdb-wheels")
	}
	if ws, _ := filepath.Glob(filepath.Join(dir, "*.whl")); len(ws) == 0 {
		unavailable(t, "no DuckDB extension wheels in "+dir+" (make setup downloads them)")
	}
	return dir
}

// Require makes sure the named extensions are installed in the user's
// extension folder (installing them from Wheels when missing), as
// `make setup` does, so a test can LOAD them.
func Require(t testing.TB, names ...string) {
	t.Helper()
	_, st, err := extensions.List(context.Background(), names)
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	for _, s := range st {
		if !s.Installed {
			missing = append(missing, s.Name)
		}
	}
	if len(missing) == 0 {
		return
	}
	if _, err := extensions.Install(context.Background(), missing, extensions.Options{From: []string{Wheels(t)}}); err != nil {
		t.Fatal(err)
	}
}

func unavailable(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s; CI must have them", why)
	}
	t.Skip(why)
}

func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}
