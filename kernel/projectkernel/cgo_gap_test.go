package projectkernel

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/kernel/modtest"
)

// sqliteBlock runs `select 6 * 7` through go-sqlite3, a package with C code.
var sqliteBlock = modtest.SQLiteBlock("b")

// A package with C code (go-sqlite3) is a gap of the project kernel, which
// is built without cgo: its pure-Go fallback is a stub, so the block is
// told at its import line that it runs compiled instead of running the stub.
func TestProjectKernelCgoPackageIsGap(t *testing.T) {
	tc, err := build.FindToolchain()
	if err != nil {
		t.Skip(err)
	}
	dir := modtest.Project(t, "../testdata/cgomodules")
	opt := Options{Dir: filepath.Join(dir, ".strata", "kernel"), Project: dir, Tool: tc}
	k, err := Build(context.Background(), opt, Imports(sqliteBlock))
	if err != nil {
		t.Fatal(err)
	}
	if why := k.Gaps["github.com/mattn/go-sqlite3"]; !strings.Contains(why, "cgo") || !strings.Contains(why, "runs compiled") {
		t.Fatalf("gaps %q, want go-sqlite3 named a cgo gap", k.Gaps)
	}
	res := run(t, k, sqliteBlock)
	if e := res.Error; e == nil || e.Line != 7 || !strings.Contains(e.Message, "runs compiled") {
		t.Fatalf("got %+v, want the gap at the import line 7", res.Error)
	}
}
