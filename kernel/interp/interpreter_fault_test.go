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

// A needs-compiled refusal says whether the block had started running
// (RunError.Started): one before running may run compiled at once, one
// midway must not run again by itself. An initializer's fault as the block
// loads is midway too: it was taken for a refusal to compile.
func TestRefusalSaysWhetherTheBlockRan(t *testing.T) {
	head := "package b\n\nimport \"github.com/stratahq/strata/blocks/sdk\"\n\nfunc window(s []int, j int) []int {\n\treturn s[1:j]\n}\n\n"
	cases := []struct {
		name, src string
		started   bool
	}{
		{"before running", head + "func Load(ctx *sdk.Context) (*sdk.Table, error) {\n\tfor i := range func(yield func(int) bool) { yield(1) } {\n\t\t_ = i\n\t}\n\treturn sdk.NewTable(sdk.Int64(\"n\")), nil\n}\n", false},
		{"in the entry", head + "func Load(ctx *sdk.Context) (*sdk.Table, error) {\n\t_ = window(make([]int, 2, 4), 5)\n\treturn sdk.NewTable(sdk.Int64(\"n\")), nil\n}\n", true},
		{"in an initializer", head + "var w = window(make([]int, 2, 4), 5)\n\nfunc Load(ctx *sdk.Context) (*sdk.Table, error) {\n\treturn sdk.NewTable(sdk.Int64(\"n\")), nil\n}\n", true},
	}
	for _, c := range cases {
		env := &protocol.Env{Stdout: io.Discard, Stderr: io.Discard, Log: func(string, string) {}}
		_, res := NewExecutor().Exec(context.Background(), &protocol.ExecRequest{Filename: "b.go", Source: c.src}, nil, env)
		if res.Error == nil || res.Error.Kind != protocol.ErrUnsupported {
			t.Errorf("%s: want a needs-compiled refusal, got %+v", c.name, res.Error)
			continue
		}
		if res.Error.Started != c.started {
			t.Errorf("%s: Started %v, want %v: %s", c.name, res.Error.Started, c.started, res.Error.Message)
		}
	}
}
