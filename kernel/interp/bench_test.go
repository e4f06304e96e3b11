package interp

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/stratahq/strata/kernel/protocol"
)

const benchBlock = `package orders

import (
	"fmt"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.Int64("id"), sdk.String("name"))
	for i := 0; i < 10; i++ {
		t.Append(int64(i), strings.Repeat("x", i))
	}
	fmt.Println("rows", t.Len())
	return t, nil
}
`

// BenchmarkExecEdited: an editor run of a block just edited (a new source,
// so no cached program): parse, type-check, classify, rewrite, a fresh
// interpreter, run. What analysis adds must stay cheap.
func BenchmarkExecEdited(b *testing.B) {
	e := NewExecutor()
	env := &protocol.Env{Stdout: io.Discard, Stderr: io.Discard, Log: func(string, string) {}}
	i := 0
	for b.Loop() {
		i++
		req := &protocol.ExecRequest{Filename: "orders.go", Source: benchBlock + fmt.Sprintf("// edit %d\n", i)}
		if _, res := e.Exec(context.Background(), req, nil, env); res.Error != nil {
			b.Fatal(res.Error)
		}
	}
}
