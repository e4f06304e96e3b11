package build

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/blocks/tableio"
	"github.com/stratahq/strata/kernel/golden"
	"github.com/stratahq/strata/kernel/kerneltest"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/supervisor"
)

func TestMain(m *testing.M) {
	kerneltest.ServeIfChild()
	serveFloorIfChild()
	os.Exit(m.Run())
}

// toolchain skips a test when no Go toolchain is installed.
func toolchain(t testing.TB) *Toolchain {
	t.Helper()
	tc, err := FindToolchain()
	if err != nil {
		t.Skip(err)
	}
	return tc
}

// startWorker builds blocks into a worker and starts it; every block must
// build. The worker stops with the test.
func startWorker(t testing.TB, tc *Toolchain, blocks ...Block) *supervisor.Kernel {
	t.Helper()
	w, err := Build(context.Background(), Options{Dir: t.TempDir(), Tool: tc}, blocks)
	if err != nil || len(w.Failed) > 0 {
		t.Fatal(err, w.Failed)
	}
	k, err := supervisor.Start(context.Background(), supervisor.Config{Command: []string{w.Path}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	return k
}

// TestGoldenBothModes runs every golden block interpreted and compiled and
// compares what a user sees: stdout, the output table and the error's kind.
// (Messages differ in wording between the modes: the interpreter's panics
// are its own.)
func TestGoldenBothModes(t *testing.T) {
	tc := toolchain(t)
	files, _ := filepath.Glob("../testdata/golden/*.go")
	if len(files) == 0 {
		t.Fatal("no golden examples")
	}
	type example struct {
		file   string
		req    *protocol.ExecRequest
		inputs []*sdk.Table
		mem    int
	}
	var exs []example
	var blocks []Block
	var allow []string
	for _, f := range files {
		req, inputs, mem, err := golden.Request(f)
		if err != nil {
			t.Fatal(err)
		}
		exs = append(exs, example{f, req, inputs, mem})
		blocks = append(blocks, Block{File: req.Filename, Source: req.Source})
		allow = append(allow, req.Allow...)
	}
	// One worker for all examples, as for a project.
	start := time.Now()
	w, err := Build(context.Background(), Options{Dir: t.TempDir(), Tool: tc, Allow: allow}, blocks)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("built %d blocks (%d failed to compile) in %v", len(blocks), len(w.Failed), time.Since(start))
	interp := supervisor.NewPool(kerneltest.Config(), 2)
	t.Cleanup(interp.Close) // after the parallel subtests, unlike defer
	pools := NewPools(supervisor.Config{}, 2)
	t.Cleanup(pools.Close)
	compiled, release := pools.Acquire(w)
	t.Cleanup(release)

	for _, ex := range exs {
		t.Run(strings.TrimSuffix(filepath.Base(ex.file), ".go"), func(t *testing.T) {
			t.Parallel()
			run := func(mode string) string {
				h := &collect{}
				var res *protocol.Result
				var out *sdk.Table
				var err error
				switch {
				case ex.mem > 0:
					cfg := kerneltest.Config()
					if mode == "compiled" {
						cfg = supervisor.Config{Command: []string{w.Path}}
					}
					cfg.MemoryLimit = int64(ex.mem) << 20
					k, err := supervisor.Start(context.Background(), cfg)
					if err != nil {
						t.Fatal(err)
					}
					defer k.Close()
					res, out = k.Exec(context.Background(), ex.req, ex.inputs, h)
				case mode == "compiled":
					res, out, err = compiled.Exec(context.Background(), ex.req, ex.inputs, h)
				default:
					res, out, err = interp.Exec(context.Background(), ex.req, ex.inputs, h)
				}
				if err != nil {
					t.Fatal(err)
				}
				return render(res, out)
			}
			gi, gc := run("interp"), run("compiled")
			if strings.HasPrefix(gi, "error kind: unsupported\n") {
				// What the interpreter cannot run is what compiled mode is for.
				if strings.HasPrefix(gc, "error kind: unsupported") || strings.HasPrefix(gc, "error kind: compile") {
					t.Errorf("compiled mode refused a block the interpreter cannot run:\n%s", gc)
				}
				return
			}
			if gi != gc {
				t.Errorf("modes differ\n--- interpreted\n%s\n--- compiled\n%s", gi, gc)
			}
		})
	}
}

func render(res *protocol.Result, out *sdk.Table) string {
	var b strings.Builder
	if res.Error != nil {
		fmt.Fprintf(&b, "error kind: %s\n", res.Error.Kind)
	}
	if res.Stdout != "" {
		fmt.Fprintf(&b, "stdout:\n%s", res.Stdout)
	}
	if out != nil {
		b.WriteString("table:\n")
		_ = tableio.WriteText(&b, out, 20, time.UTC)
	}
	return b.String()
}

// collect is a Handler that answers host calls like a run without a warehouse.
type collect struct {
	mu   sync.Mutex
	logs []string
}

func (c *collect) Stream(name, data string) {}
func (c *collect) Log(l protocol.LogLine) {
	c.mu.Lock()
	c.logs = append(c.logs, l.Msg)
	c.mu.Unlock()
}
func (c *collect) HostCall(context.Context, *protocol.HostCall) (*sdk.Table, error) {
	return nil, sdk.ErrNoWarehouse
}
