package interp

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"testing"

	"github.com/stratahq/strata/kernel/protocol"
)

// A block that registers a name process-wide (expvar, http.HandleFunc,
// sql.Register) ran once per kernel: the next run on it registered again
// and panicked (Reuse of exported var name: hits), so a backfill's
// partitions passed or failed by which kernel ran them. Its runs now ask
// for a fresh kernel.
//
// The block registers in this test process's own tables, which outlive a
// test: each run of the test (go test -count=N) registers names of its own.
func TestRegisteringBlockRestartsKernel(t *testing.T) {
	registers := fmt.Sprintf(registersBlock, registryRuns.Add(1))
	e := NewExecutor()
	for _, c := range []struct {
		src     string
		restart bool
	}{{registers, true}, {initOnlyBlock, false}} {
		env := &protocol.Env{Stdout: io.Discard, Stderr: io.Discard, Log: func(string, string) {}}
		_, res := e.Exec(context.Background(), &protocol.ExecRequest{Filename: "b.go", Source: c.src}, nil, env)
		if res.Error != nil {
			t.Fatalf("%+v", res.Error)
		}
		if res.Restart != c.restart {
			t.Errorf("restart %t, want %t", res.Restart, c.restart)
		}
	}
}

var registryRuns atomic.Int64

const registersBlock = `package b

import (
	"expvar"
	"net/http"

	"github.com/stratahq/strata/blocks/sdk"
)

var hits = expvar.NewInt("interp_registry_restart_hits_%[1]d")

func init() { http.HandleFunc("/interp_registry_restart_%[1]d", func(http.ResponseWriter, *http.Request) {}) }

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	hits.Add(1)
	return sdk.NewTable(sdk.Int64("n")), nil
}
`
