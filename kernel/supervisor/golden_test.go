package supervisor

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/blocks/tableio"
	"github.com/stratahq/strata/kernel/golden"
	"github.com/stratahq/strata/kernel/protocol"
)

var update = flag.Bool("update", false, "rewrite the .golden files of kernel/testdata/golden")

// TestGolden runs every example block in kernel/testdata/golden through a
// real kernel process and compares what came back with NAME.golden. The
// first line of each block says how to run it:
//
//	// run: partition=2024-03-10 tz=America/New_York input=orders:orders.csv timeout=1s memory_mb=256 allow=os/exec
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("../testdata/golden/*.go")
	if len(files) == 0 {
		t.Fatal("no golden examples")
	}
	// The goldens show the kernel's own report of a timeout ("timed out
	// after 1s"). The supervisor's hard stop fires the default 500ms grace
	// after the deadline, and on a deadline the interpreter first waits
	// 400ms for the block to stop (an endless loop never does), leaving
	// 100ms to write the result: under -race on a loaded 2-core machine
	// that was once too little and the hard stop's message won (a flake).
	// A grace far above any scheduling delay makes the kernel's report the
	// only one the test can see; a kernel that never reports still fails.
	cfg := testConfig()
	cfg.Grace = 30 * time.Second
	pool := NewPool(cfg, 2)
	t.Cleanup(pool.Close) // after the parallel subtests, unlike defer
	for _, file := range files {
		file := file
		name := strings.TrimSuffix(filepath.Base(file), ".go")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			req, inputs, memMB, err := golden.Request(file)
			if err != nil {
				t.Fatal(err)
			}
			h := &collect{}
			var res *protocol.Result
			var out *sdk.Table
			if memMB > 0 {
				// A kernel of its own with a small limit.
				cfg := cfg
				cfg.MemoryLimit = int64(memMB) << 20
				k, err := Start(context.Background(), cfg)
				if err != nil {
					t.Fatal(err)
				}
				defer k.Close()
				res, out = k.Exec(context.Background(), req, inputs, h)
			} else {
				res, out, err = pool.Exec(context.Background(), req, inputs, h)
				if err != nil {
					t.Fatal(err)
				}
			}
			got := inUse.ReplaceAllString(renderResult(res, out, h), "(N MiB in use)")
			golden := strings.TrimSuffix(file, ".go") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./kernel/supervisor -run TestGolden -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s: output differs from %s\n--- got\n%s\n--- want\n%s", file, golden, got, want)
			}
		})
	}
}

// inUse masks the measured memory, which varies from run to run.
var inUse = regexp.MustCompile(`\(\d+ MiB in use\)`)

func renderResult(res *protocol.Result, out *sdk.Table, h *collect) string {
	var b strings.Builder
	fmt.Fprintf(&b, "entry: %s\n", res.Entry)
	if res.Error != nil {
		fmt.Fprintf(&b, "error: %s at %d:%d: %s\n", res.Error.Kind, res.Error.Line, res.Error.Column, res.Error.Message)
		for _, d := range res.Error.Diagnostics[min(1, len(res.Error.Diagnostics)):] {
			fmt.Fprintf(&b, "  also %d:%d: %s\n", d.Line, d.Column, d.Message)
		}
	}
	if res.Stdout != "" {
		fmt.Fprintf(&b, "stdout:\n%s", res.Stdout)
	}
	if logs := h.logLines(); len(logs) > 0 {
		fmt.Fprintf(&b, "logs:\n%s", strings.Join(logs, ""))
	}
	if out != nil {
		b.WriteString("table:\n")
		_ = tableio.WriteText(&b, out, 20, time.UTC)
	}
	return b.String()
}

// collect is a Handler that keeps what a run streamed.
type collect struct {
	mu     sync.Mutex
	stdout strings.Builder
	stderr strings.Builder
	logs   []string
	calls  []*protocol.HostCall
	answer func(*protocol.HostCall) (*sdk.Table, error)
}

func (c *collect) Stream(name, data string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch name {
	case "stdout":
		c.stdout.WriteString(data)
	case "stderr":
		c.stderr.WriteString(data)
	}
}

func (c *collect) Log(l protocol.LogLine) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.logs = append(c.logs, fmt.Sprintf("  %s %s\n", l.Level, l.Msg))
}

func (c *collect) HostCall(_ context.Context, call *protocol.HostCall) (*sdk.Table, error) {
	c.mu.Lock()
	c.calls = append(c.calls, call)
	c.mu.Unlock()
	if c.answer == nil {
		return nil, sdk.ErrNoWarehouse
	}
	return c.answer(call)
}

func (c *collect) logLines() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := append([]string(nil), c.logs...)
	sort.Strings(out)
	return out
}
