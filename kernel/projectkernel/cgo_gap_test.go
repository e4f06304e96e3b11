package projectkernel

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/kernel/modtest"
)

const sqliteBlock = `package b

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
