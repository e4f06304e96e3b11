package interp

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/stratahq/strata/kernel/protocol"
)

// loopClosureBlocks make a function literal in a loop and, before the new
// closure is used, return from a closure the same literal made in an
// earlier iteration. Go prints the wanted line; yaegi (without
// loopFuncLits) handed over the closure of two iterations back, or none.
var loopClosureBlocks = []struct{ name, body, want string }{
	{"argument beside a call", `
	var fs []func() int
	keep := func(f func() int, _ int) { fs = append(fs, f) }
	last := func() int {
		if len(fs) == 0 {
			return -1
		}
		return fs[len(fs)-1]()
	}
	for i := range 4 {
		keep(func() int { return i * 10 }, last())
	}
	for _, f := range fs {
		fmt.Print(f(), " ")
	}
	fmt.Println()
`, "0 10 20 30 \n"},
	{"block's own method, as errgroup", `
	var g group
	for _, w := range []string{"a", "b", "c", "d"} {
		g.add(func() string { return w }, g.runLast())
	}
	fmt.Println(g.got)
`, "[a b c]\n"},
}

const loopClosureHead = `package b

import (
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
)

type group struct {
	fs  []func() string
	got []string
}

func (g *group) add(f func() string, _ int) { g.fs = append(g.fs, f) }

func (g *group) runLast() int {
	if len(g.fs) > 0 {
		g.got = append(g.got, g.fs[len(g.fs)-1]())
	}
	return 0
}

func Load(ctx *sdk.Context) (*sdk.Table, error) {`

// yaegi keeps a function literal's closure in a slot of the frame that
// makes it, and a closure puts back, when it returns, whatever the slot
// held before it was made. In a loop that slot is the next iteration's: a
// closure returning between the next literal's evaluation and its use (in
// another goroutine, as corpus adv5_errgroup_wg's g2.Go did now and then
// under load, or here in the same one) replaced the new closure with an
// older one (another iteration's variables) or with no function at all.
func TestLoopClosureNotReplacedByAnEarlierOne(t *testing.T) {
	e := NewExecutor()
	for _, c := range loopClosureBlocks {
		src := loopClosureHead + c.body + "\treturn sdk.NewTable(sdk.Int64(\"n\")), nil\n}\n"
		var out bytes.Buffer
		env := &protocol.Env{Stdout: &out, Stderr: io.Discard, Log: func(string, string) {}}
		_, res := e.Exec(context.Background(), &protocol.ExecRequest{Filename: "b.go", Source: src}, nil, env)
		if res.Error != nil {
			t.Errorf("%s: %s (line %d); printed %q", c.name, res.Error.Message, res.Error.Line, out.String())
			continue
		}
		if got := out.String(); got != c.want {
			t.Errorf("%s: printed %q, want %q", c.name, got, c.want)
		}
	}
}
