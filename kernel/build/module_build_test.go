package build

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/kernel/modtest"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/supervisor"
)

const uuidBlock = `package ids

import (
	"fmt"

	"github.com/google/uuid"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	fmt.Println(uuid.NewSHA1(uuid.NameSpaceURL, []byte("https://example.com/orders")))
	return sdk.NewTable(), nil
}
`

// runModuleBlock builds one block against the project in module and runs it.
func runModuleBlock(t *testing.T, module, src string) *protocol.Result {
	t.Helper()
	tc := toolchain(t)
	file := "blocks/ids/ids.go"
	w, err := Build(context.Background(), Options{Dir: t.TempDir(), Tool: tc, Module: module}, []Block{{File: file, Source: src}})
	if err != nil {
		t.Fatal(err)
	}
	if rerr := w.Failed[file]; rerr != nil {
		return &protocol.Result{Error: rerr}
	}
	pools := NewPools(supervisor.Config{}, 1)
	defer pools.Close()
	ex, release := pools.Acquire(w)
	defer release()
	res, _, err := ex.Exec(context.Background(), &protocol.ExecRequest{Filename: file, Source: src}, nil, &collect{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A block imports a module the project's go.mod requires; the worker is
// built offline against the version go.sum pins.
func TestCompiledModuleImport(t *testing.T) {
	module := modtest.Project(t, "../testdata/modules")
	res := runModuleBlock(t, module, uuidBlock)
	if res.Error != nil {
		t.Fatalf("error: %+v", res.Error)
	}
	if got := strings.TrimSpace(res.Stdout); len(got) != 36 || got[14] != '5' {
		t.Fatalf("stdout %q, want a version 5 UUID", got)
	}
}

// A package no module of go.mod provides is refused at its import line,
// saying what to run.
func TestCompiledModuleNotRequired(t *testing.T) {
	module := modtest.Project(t, "../testdata/modules")
	src := strings.Replace(uuidBlock, `"github.com/google/uuid"`, `uuid "github.com/gofrs/uuid"`, 1)
	res := runModuleBlock(t, module, src)
	e := res.Error
	if e == nil || e.Kind != protocol.ErrRefused || e.Line != 6 || e.Column != 2 || !strings.Contains(e.Message, "go get github.com/gofrs/uuid") {
		t.Fatalf("got %+v, want refused at 6:2 naming go get", e)
	}
}

// A module go.mod requires but the module cache lacks is refused at the
// import line naming strata mod download: a run never downloads.
func TestCompiledModuleNotCached(t *testing.T) {
	module := modtest.Project(t, "../testdata/modules")
	t.Setenv("GOMODCACHE", filepath.Join(t.TempDir(), "empty-cache"))
	res := runModuleBlock(t, module, uuidBlock)
	e := res.Error
	if e == nil || e.Kind != protocol.ErrRefused || e.Line != 6 || !strings.Contains(e.Message, "strata mod download") {
		t.Fatalf("got %+v, want refused at line 6 naming strata mod download", e)
	}
	if _, err := os.Stat(filepath.Join(os.Getenv("GOMODCACHE"), "github.com", "google")); err == nil {
		t.Fatal("the build downloaded a module")
	}
}

// A project that vendors its modules (go mod vendor) builds from vendor/:
// the block sees the vendored source, even one the user changed, and the
// module cache is never read (here it is empty).
func TestCompiledModuleVendored(t *testing.T) {
	module := modtest.Project(t, "../testdata/modules")
	modtest.Vendor(t, module, "github.com/google/uuid", "v1.6.0", map[string]string{
		"strata_marker.go": "package uuid\n\nfunc Vendored() string { return \"from vendor/\" }\n"})
	t.Setenv("GOMODCACHE", filepath.Join(t.TempDir(), "empty-cache"))
	src := strings.Replace(uuidBlock, `fmt.Println(uuid.NewSHA1(`, `fmt.Println(uuid.Vendored(), uuid.NewSHA1(`, 1)
	res := runModuleBlock(t, module, src)
	if res.Error != nil {
		t.Fatalf("error: %+v", res.Error)
	}
	if got := strings.TrimSpace(res.Stdout); !strings.HasPrefix(got, "from vendor/ ") {
		t.Fatalf("stdout %q, want the vendored source's marker first", got)
	}
}
