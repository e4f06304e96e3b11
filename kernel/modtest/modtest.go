// Package modtest makes project folders whose go.mod requires third-party
// modules, for tests of blocks that import them: a copy of a go.mod and
// go.sum kept under testdata, laid out as `strata init` lays out a project
// (the SDK replaced by ./.strata/sdk), with its modules in the module cache.
// Filling the cache is the one thing such tests may fetch, from the Go
// module proxy; everything after runs offline.
package modtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Project copies the go.mod and go.sum of the folder from into a new
// project folder and downloads its modules into the module cache when they
// are not there yet. It skips the test when no go command is found.
func Project(t testing.TB, from string) string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no Go toolchain:", err)
	}
	dir := t.TempDir()
	for _, f := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(from, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sdk := filepath.Join(dir, ".strata", "sdk")
	if err := os.MkdirAll(sdk, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sdk, "go.mod"), []byte("module github.com/stratahq/strata\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	Download(t, goCmd, dir)
	return dir
}

// Download runs `go mod download` in dir, as `strata mod download` does:
// nothing is fetched when the cache holds every module already.
func Download(t testing.TB, goCmd, dir string) {
	t.Helper()
	cmd := exec.Command(goCmd, "mod", "download")
	cmd.Dir = dir
	cmd.Env = append(Env(), "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go mod download in %s: %v\n%s", dir, err, out)
	}
}

// Env is the environment without the variables a test's go command must
// not inherit from the one running the tests.
func Env() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k != "GOFLAGS" && k != "GOWORK" {
			env = append(env, kv)
		}
	}
	return env
}

// Vendor makes project vendor one module, as `go mod vendor` would: its
// go.mod requires only that module (and the SDK), vendor/ holds a copy of
// the module from the module cache plus extra files (name → content, to
// tell vendored source from the cache's), and vendor/modules.txt lists it.
func Vendor(t testing.TB, project, module, version string, extra map[string]string) {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	cache := strings.TrimSpace(string(out))
	gomod := "module vendortest\n\ngo 1.26.0\n\nrequire (\n\t" + module + " " + version +
		"\n\tgithub.com/stratahq/strata v0.0.0\n)\n\nreplace github.com/stratahq/strata => ./.strata/sdk\n"
	if err := os.WriteFile(filepath.Join(project, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(project, "vendor", filepath.FromSlash(module))
	if err := os.CopyFS(dst, os.DirFS(filepath.Join(cache, filepath.FromSlash(module)+"@"+version))); err != nil {
		t.Fatal(err)
	}
	for name, content := range extra {
		if err := os.WriteFile(filepath.Join(dst, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	txt := "# " + module + " " + version + "\n## explicit\n" + module + "\n# github.com/stratahq/strata v0.0.0 => ./.strata/sdk\n## explicit\n"
	if err := os.WriteFile(filepath.Join(project, "vendor", "modules.txt"), []byte(txt), 0o644); err != nil {
		t.Fatal(err)
	}
}

// SQLiteBlock is a block of package pkg that runs `select 6 * 7` through
// github.com/mattn/go-sqlite3 (testdata/cgomodules), a package with C code:
// compiled it needs cgo, and the project kernel (built without) must treat
// it as a gap.
func SQLiteBlock(pkg string) string {
	return "package " + pkg + `

import (
	"database/sql"
	"fmt"

	_ "github.com/mattn/go-sqlite3"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	db, err := sql.Open("sqlite3", ":memory:")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("select 6 * 7").Scan(&n); err != nil {
		return nil, err
	}
	fmt.Println("sqlite says", n)
	return sdk.NewTable(), nil
}
`
}
