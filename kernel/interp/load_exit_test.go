package interp

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/kernel/protocol"
)

// os.Exit or log.Fatal while the block loads (in init, or an initializer
// calling a function that does) parked the loading goroutine, and the run
// waited for it until its timeout: "timed out after 10s", where compiled
// reports the exit at its line. It is now reported at its line.
func TestExitWhileLoadingIsReportedAtItsLine(t *testing.T) {
	for _, c := range []struct {
		name, src string
		line      int
	}{
		{"init", "package b\n\nimport (\n\t\"os\"\n\n\t\"github.com/stratahq/strata/blocks/sdk\"\n)\n\nfunc init() {\n\tos.Exit(4)\n}\n\nfunc Load(ctx *sdk.Context) (*sdk.Table, error) { return sdk.NewTable(sdk.Int64(\"n\")), nil }\n", 10},
		{"initializer", "package b\n\nimport (\n\t\"log\"\n\n\t\"github.com/stratahq/strata/blocks/sdk\"\n)\n\nvar cfg = load()\n\nfunc load() string {\n\tlog.Fatal(\"no config\")\n\treturn \"\"\n}\n\nfunc Load(ctx *sdk.Context) (*sdk.Table, error) { return sdk.NewTable(sdk.String(cfg)), nil }\n", 12},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := NewExecutor()
			env := &protocol.Env{Stdout: io.Discard, Stderr: io.Discard, Log: func(string, string) {}}
			done := make(chan *protocol.Result, 1)
			go func() {
				_, res := e.Exec(context.Background(), &protocol.ExecRequest{Filename: "b.go", Source: c.src}, nil, env)
				done <- res
			}()
			select {
			case res := <-done:
				if res.Error == nil || res.Error.Kind != protocol.ErrPanic || res.Error.Line != c.line || !strings.Contains(res.Error.Message, "os.Exit") || !res.Restart {
					t.Fatalf("want os.Exit reported at line %d and a restart, got %+v (restart %t)", c.line, res.Error, res.Restart)
				}
			case <-time.After(time.Minute): // a guard against the hang, not a measure
				t.Fatal("the run did not return")
			}
		})
	}
}
