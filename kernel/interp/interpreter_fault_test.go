package interp

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/stratahq/strata/kernel/protocol"
)

// A panic of yaegi's own plumbing at run time (a reflect misuse where Go
// would raise a runtime error) is refused "needs compiled", and the
// refusal names the block's line: it named none (line 0).
func TestInterpreterFaultNamesTheLine(t *testing.T) {
	src := "package b\n\nimport \"github.com/stratahq/strata/blocks/sdk\"\n\nfunc window(s []int, j int) []int {\n\treturn s[1:j]\n}\n\n" +
		"func Load(ctx *sdk.Context) (*sdk.Table, error) {\n\ts := make([]int, 2, 4)\n\t_ = window(s, 5)\n\treturn sdk.NewTable(sdk.Int64(\"n\")), nil\n}\n"
	e := NewExecutor()
	env := &protocol.Env{Stdout: io.Discard, Stderr: io.Discard, Log: func(string, string) {}}
	_, res := e.Exec(context.Background(), &protocol.ExecRequest{Filename: "b.go", Source: src}, nil, env)
	if res.Error == nil || res.Error.Kind != protocol.ErrUnsupported || !strings.Contains(res.Error.Message, "failed running this valid Go") {
		t.Fatalf("want a needs-compiled refusal of yaegi's fault, got %+v", res.Error)
	}
	if res.Error.Line != 6 {
		t.Errorf("the refusal is at line %d, want 6 (return s[1:j]): %+v", res.Error.Line, res.Error)
	}
}
