package interp

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/stratahq/strata/kernel/protocol"
)

const loadPrintsBlock = `package b

import (
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
)

var table = build()

func build() map[string]int {
	fmt.Println("build")
	return map[string]int{"a": 1}
}

func init() { fmt.Println("init", len(table)) }

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	fmt.Println("load", table)
	return sdk.NewTable(sdk.Int64("n")), nil
}
`

const initOnlyBlock = `package b

import (
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
)

func init() { fmt.Println("init") }

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	fmt.Println("load")
	return sdk.NewTable(sdk.Int64("n")), nil
}
`

// What a block prints while it loads (package variables' initializers,
// init functions) is the start of its run's stdout, on every run: yaegi
// runs that code when the kernel loads the block, which happened before the
// run's stdout was connected, and a cached interpreter never ran it again.
func TestLoadTimeOutputReachesEachRun(t *testing.T) {
	e := NewExecutor()
	for _, c := range []struct{ src, want string }{
		{loadPrintsBlock, "build\ninit 1\nload map[a:1]\n"},
		{initOnlyBlock, "init\nload\n"},
	} {
		for run := 1; run <= 2; run++ {
			var out bytes.Buffer
			env := &protocol.Env{Stdout: &out, Stderr: io.Discard, Log: func(string, string) {}}
			_, res := e.Exec(context.Background(), &protocol.ExecRequest{Filename: "b.go", Source: c.src}, nil, env)
			if res.Error != nil {
				t.Fatalf("run %d: %+v", run, res.Error)
			}
			if out.String() != c.want {
				t.Errorf("run %d: stdout %q, want %q", run, out.String(), c.want)
			}
		}
	}
}
