package build

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/kerneltest"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/supervisor"
)

// streams keeps what a run streamed, by stream name.
type streams struct {
	collect
	mu  sync.Mutex
	got map[string]string
}

func (s *streams) Stream(name, data string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.got == nil {
		s.got = map[string]string{}
	}
	s.got[name] += data
}

func (s *streams) stderr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.got["stderr"]
}

// What a compiled block writes to os.Stderr, through the log package or
// with println is the run's stderr stream, as in the interpreter: it was
// written to the worker's own stderr, which only a crash report reads, so
// a backfill's log.Println lines vanished from every run's log in compiled
// mode, and later its println lines (the runtime writes those to fd 2,
// which the worker keeps its own).
func TestStderrReachesTheRunInBothModes(t *testing.T) {
	tc := toolchain(t)
	src := `package logs

import (
	"fmt"
	"log"
	"os"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	log.SetFlags(0)
	log.Println("via log")
	fmt.Fprintln(os.Stderr, "via stderr")
	println("via println", 42)
	print("via print\n")
	fmt.Println("via stdout")
	return sdk.NewTable(sdk.Int64("x")), nil
}
`
	file := "blocks/logs/logs.go"
	compiled := startWorker(t, tc, Block{File: file, Source: src})
	interp, err := supervisor.Start(context.Background(), kerneltest.Config())
	if err != nil {
		t.Fatal(err)
	}
	defer interp.Close()
	req := &protocol.ExecRequest{Filename: file, Source: src, Timeout: 10 * time.Second}
	for _, k := range []struct {
		name string
		k    *supervisor.Kernel
	}{{"compiled", compiled}, {"interp", interp}} {
		for run := 0; run < 2; run++ { // the second run: nothing left over from the first
			h := &streams{}
			res, _ := k.k.Exec(context.Background(), req, []*sdk.Table{}, h)
			if res.Error != nil {
				t.Fatalf("%s: %v", k.name, res.Error)
			}
			// println reaches the stream by another path than os.Stderr
			// in a compiled worker, so the order between the two kinds
			// is not kept (as between two files).
			got := strings.Split(strings.TrimSuffix(h.stderr(), "\n"), "\n")
			slices.Sort(got)
			if want := []string{"via log", "via print", "via println 42", "via stderr"}; !slices.Equal(got, want) {
				t.Errorf("%s run %d: stderr stream %q, want the block's four lines", k.name, run, h.stderr())
			}
			if res.Stdout != "via stdout\n" || strings.Contains(res.Stdout, "via log") {
				t.Errorf("%s run %d: stdout %q", k.name, run, res.Stdout)
			}
		}
	}
}
