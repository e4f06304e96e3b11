package projectkernel

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/kernel/modtest"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/supervisor"
)

// project is the test project with the corpus modules, shared by the tests
// of one run (its folder and build folder are stable, as a user's are).
func project(t *testing.T) (string, *build.Toolchain) {
	t.Helper()
	tc, err := build.FindToolchain()
	if err != nil {
		t.Skip(err)
	}
	return modtest.Project(t, "../testdata/modules"), tc
}

type discard struct{}

func (discard) Stream(name, data string) {}
func (discard) Log(l protocol.LogLine)   {}
func (discard) HostCall(context.Context, *protocol.HostCall) (*sdk.Table, error) {
	return nil, sdk.ErrNoWarehouse
}

// run starts kernel k and runs one block on it.
func run(t *testing.T, k *Kernel, src string) *protocol.Result {
	t.Helper()
	sk, err := supervisor.Start(context.Background(), supervisor.Config{Command: k.Command()})
	if err != nil {
		t.Fatal(err)
	}
	defer sk.Close()
	res, _ := sk.Exec(context.Background(), &protocol.ExecRequest{Filename: "blocks/b/b.go", Source: src}, nil, discard{})
	return res
}

const uuidBlock = `package b

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

// The project kernel interprets a block importing a module with the
// module's compiled code; the same import set is reused, not rebuilt.
func TestProjectKernelRunsModuleImport(t *testing.T) {
	dir, tc := project(t)
	var steps []string
	opt := Options{Dir: filepath.Join(dir, ".strata", "kernel"), Project: dir, Tool: tc,
		Progress: func(s string) { steps = append(steps, s) }}
	k, err := Build(context.Background(), opt, Imports(uuidBlock))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(k.Imports, ",") != "github.com/google/uuid" || k.Cached {
		t.Fatalf("kernel %+v", k)
	}
	// A build that is not cached says what it does while it does it.
	if got := strings.Join(steps, "\n"); !strings.Contains(got, "extracting the symbols of github.com/google/uuid") || !strings.Contains(got, "compiling the kernel") {
		t.Fatalf("progress of a first build:\n%s", got)
	}
	res := run(t, k, uuidBlock)
	if res.Error != nil {
		t.Fatalf("error: %+v", res.Error)
	}
	if got, want := strings.TrimSpace(res.Stdout), "1a6f8e1b-5a2f-5f0e-8d6a-7b1f5b7c3f34"; len(got) != len(want) || got[14] != '5' {
		t.Fatalf("stdout %q, want a version 5 UUID", got)
	}
	again, err := Build(context.Background(), opt, []string{"github.com/google/uuid"})
	if err != nil || !again.Cached || again.Path != k.Path {
		t.Fatalf("unchanged import set: %+v, %v; want the same kernel, cached", again, err)
	}
}

// A project that vendors its modules gets a kernel built from vendor/: the
// interpreted block sees the vendored source, not the module cache's (the
// cache still supplies the interpreter the kernel links).
func TestProjectKernelVendored(t *testing.T) {
	dir, tc := project(t)
	modtest.Vendor(t, dir, "github.com/google/uuid", "v1.6.0", map[string]string{
		"strata_marker.go": "package uuid\n\nfunc Vendored() string { return \"from vendor/\" }\n"})
	src := strings.Replace(uuidBlock, `fmt.Println(uuid.NewSHA1(`, `fmt.Println(uuid.Vendored(), uuid.NewSHA1(`, 1)
	opt := Options{Dir: filepath.Join(dir, ".strata", "kernel"), Project: dir, Tool: tc}
	k, err := Build(context.Background(), opt, Imports(src))
	if err != nil {
		t.Fatal(err)
	}
	res := run(t, k, src)
	if res.Error != nil {
		t.Fatalf("error: %+v", res.Error)
	}
	if got := strings.TrimSpace(res.Stdout); !strings.HasPrefix(got, "from vendor/ ") {
		t.Fatalf("stdout %q, want the vendored source's marker first", got)
	}
}
