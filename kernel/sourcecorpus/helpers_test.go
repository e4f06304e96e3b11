package sourcecorpus

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/modtest"
	"github.com/stratahq/strata/kernel/protocol"
)

var update = flag.Bool("update", false, "rewrite the source corpus' stdout.golden with go run")

type discard struct{}

func (discard) Stream(name, data string) {}
func (discard) Log(l protocol.LogLine)   {}
func (discard) HostCall(context.Context, *protocol.HostCall) (*sdk.Table, error) {
	return nil, sdk.ErrNoWarehouse
}

// goRunIn runs program src named name with `go run` inside the project
// dir, whose go.mod is the corpus'.
func goRunIn(t *testing.T, dir, name, src string) string {
	t.Helper()
	pkg := filepath.Join(dir, "gorun", name)
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", ".")
	cmd.Dir = pkg
	cmd.Env = append(modtest.Env(), "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go run %s: %v", name, err)
	}
	return string(out)
}
