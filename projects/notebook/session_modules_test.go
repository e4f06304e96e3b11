package notebook

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/kernel/modtest"
)

const uuidCell = `package raw_orders

import (
	"github.com/google/uuid"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	out := sdk.NewTable(sdk.String("id"))
	out.Append(uuid.NewSHA1(uuid.NameSpaceURL, []byte(ctx.Partition.Key)).String())
	return out, nil
}
`

// A cell importing a module makes the session build the project kernel
// (the cell says so), then runs interpreted in it; the next run reuses it.
// A generic function of a module, which symbol tables cannot carry, runs
// compiled and says why.
func TestCellImportingModuleRunsInProjectKernel(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip(err)
	}
	if _, err := build.FindToolchain(); err != nil {
		t.Skip(err)
	}
	m, eng := newTestManagerWith(t, true)
	dir := eng.Project().Dir
	for _, f := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join("../../kernel/testdata/modules", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	modtest.Download(t, goCmd, dir)
	rec := newRecorder()
	s, err := m.Attach("tab-mod", rec, "h1")
	if err != nil {
		t.Fatal(err)
	}
	ev := run(t, s, rec, Exec{ID: "m1", Pipeline: "clv", Block: "raw_orders", Source: uuidCell, Partition: "2024-01-03"})
	if ev.Kind != EventResult || ev.Result.Preview.RowCount != 1 || ev.Result.Engine != "" {
		t.Fatalf("uuid cell: %+v %+v", ev.Result, ev.Error)
	}
	building, compiling := false, false
	rec.mu.Lock()
	for _, e := range rec.events {
		if e.Kind == EventLog && e.ID == "m1" && strings.HasPrefix(e.Log.Msg, "building the project kernel: uuid") {
			building = true
		}
		// and how far the build got, while it runs
		if e.Kind == EventLog && e.ID == "m1" && e.Log.Msg == "project kernel: compiling the kernel" {
			compiling = true
		}
	}
	rec.mu.Unlock()
	if !building || !compiling {
		t.Fatalf("the cell did not say it was building the project kernel (%v) and how far it got (%v)", building, compiling)
	}
	ev = run(t, s, rec, Exec{ID: "m2", Pipeline: "clv", Block: "raw_orders", Source: uuidCell, Partition: "2024-01-04"})
	if ev.Kind != EventResult {
		t.Fatalf("second run: %+v", ev.Error)
	}

	generic := strings.Replace(strings.Replace(uuidCell, `"github.com/google/uuid"`, "\"github.com/google/uuid\"\n\t\"github.com/samber/lo\"", 1),
		`out.Append(uuid`, `out.Append(lo.Ternary(true, "", "x") + uuid`, 1)
	ev = run(t, s, rec, Exec{ID: "m3", Pipeline: "clv", Block: "raw_orders", Source: generic, Partition: "2024-01-03"})
	if ev.Kind != EventResult || !strings.Contains(ev.Result.Engine, "lo.Ternary") {
		t.Fatalf("generic module function: %+v %+v", ev.Result, ev.Error)
	}

	missing := strings.Replace(uuidCell, `"github.com/google/uuid"`, `uuid "github.com/gofrs/uuid"`, 1)
	ev = run(t, s, rec, Exec{ID: "m4", Pipeline: "clv", Block: "raw_orders", Source: missing, Partition: "2024-01-03"})
	if ev.Kind != EventError || ev.Error.Run == nil || ev.Error.Run.Line != 4 || !strings.Contains(ev.Error.Run.Message, "go get github.com/gofrs/uuid") {
		t.Fatalf("a module not in go.mod: %+v", ev.Error)
	}
}

// Without a Go toolchain a cell importing a module is refused, saying what
// to install; the plain kernel is not asked.
func TestCellImportingModuleWithoutToolchain(t *testing.T) {
	t.Setenv("STRATA_GO", "off")
	m, _ := newTestManager(t)
	rec := newRecorder()
	s, err := m.Attach("tab-nogo", rec, "h1")
	if err != nil {
		t.Fatal(err)
	}
	ev := run(t, s, rec, Exec{ID: "n1", Pipeline: "clv", Block: "raw_orders", Source: uuidCell, Partition: "2024-01-03"})
	if ev.Kind != EventError || ev.Error.Run == nil || ev.Error.Run.Kind != "refused" ||
		!strings.Contains(ev.Error.Run.Message, "github.com/google/uuid") || !strings.Contains(ev.Error.Run.Message, "go.dev/dl") {
		t.Fatalf("without a toolchain: %+v %+v", ev.Error, ev.Error.Run)
	}
}
