package build

import (
	"context"
	"testing"
	"time"

	"github.com/stratahq/strata/kernel/protocol"
)

// A panic in a helper file of a compiled block names that file and line,
// as the interpreter does (it named the entry file, at no line).
func TestCompiledPanicInAHelperFile(t *testing.T) {
	tc := toolchain(t)
	const entry = `package orders

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.Int64("n"))
	t.Append(double(2))
	return t, nil
}
`
	const helper = `package orders

func double(n int64) int64 {
	if n == 2 {
		panic("no double")
	}
	return 2 * n
}
`
	k := startWorker(t, tc, Block{File: "blocks/orders/orders.go", Source: entry, Others: map[string]string{"blocks/orders/helpers.go": helper}})
	req := &protocol.ExecRequest{Filename: "blocks/orders/orders.go", Source: entry, Timeout: time.Minute,
		Files: []protocol.SourceFile{{Name: "blocks/orders/helpers.go", Source: helper}}}
	res, _ := k.Exec(context.Background(), req, nil, &collect{})
	if res.Error == nil || res.Error.Kind != protocol.ErrPanic || res.Error.File != "blocks/orders/helpers.go" || res.Error.Line != 5 {
		t.Fatalf("want a panic at blocks/orders/helpers.go:5, got %+v", res.Error)
	}
}
