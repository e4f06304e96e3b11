package build

import (
	"strings"
	"testing"

	"github.com/stratahq/strata/kernel/modtest"
)

// sqliteBlock runs `select 6 * 7` through go-sqlite3, a package with C code.
var sqliteBlock = modtest.SQLiteBlock("store")

// A block importing a package that only builds with cgo (go-sqlite3) runs
// compiled when a C compiler is found: that worker is built with cgo.
func TestCompiledCgoModule(t *testing.T) {
	if _, ok := cCompiler(); !ok {
		t.Skip("no C compiler: CC unset and neither gcc nor cc on PATH")
	}
	module := modtest.Project(t, "../testdata/cgomodules")
	res := runModuleBlock(t, module, sqliteBlock)
	if res.Error != nil {
		t.Fatalf("error: %+v", res.Error)
	}
	if got := strings.TrimSpace(res.Stdout); got != "sqlite says 42" {
		t.Fatalf("stdout %q, want %q", got, "sqlite says 42")
	}
}

// With no C compiler, a package that builds only with cgo is refused
// naming what to install (the go command's words rewritten).
func TestCgoOnlyHintNamesCompiler(t *testing.T) {
	got := moduleHint("build constraints exclude all Go files in /root/go/pkg/mod/example.com/onlyc@v1.0.0")
	if !strings.Contains(got, "example.com/onlyc@v1.0.0") || !strings.Contains(got, "install gcc") {
		t.Fatalf("hint %q, want the package and what to install", got)
	}
}
