package build

import (
	"strings"
	"testing"

	"github.com/stratahq/strata/kernel/modtest"
)

const sqliteBlock = `package store

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
