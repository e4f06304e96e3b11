package notebook

import (
	"strings"
	"testing"

	"github.com/stratahq/strata/kernel/build"
)

const iterBlock = `package raw_orders

import "github.com/stratahq/strata/blocks/sdk"

func upTo(n int) func(func(int) bool) {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	out := sdk.NewTable(sdk.Int64("n"))
	for i := range upTo(4) {
		out.Append(int64(i * i))
	}
	return out, nil
}
`

// A cell the interpreter cannot run (range over a function) runs compiled,
// and the result says so; without a compiler it is refused as before.
func TestUnsupportedCellRunsCompiled(t *testing.T) {
	if _, err := build.FindToolchain(); err != nil {
		t.Skip(err)
	}
	m, _ := newTestManagerWith(t, true)
	rec := newRecorder()
	s, err := m.Attach("tab-c", rec, "h1")
	if err != nil {
		t.Fatal(err)
	}
	ev := run(t, s, rec, Exec{ID: "c1", Pipeline: "clv", Block: "raw_orders", Source: iterBlock, Partition: "2024-01-03"})
	if ev.Kind != EventResult || ev.Result.Preview.RowCount != 4 {
		t.Fatalf("compiled cell: %+v %+v", ev.Result, ev.Error)
	}
	if !strings.HasPrefix(ev.Result.Engine, "compiled: range over a function") {
		t.Errorf("engine %q, want compiled: range over a function…", ev.Result.Engine)
	}
	// A compiled cell that panics says where, and that it ran compiled.
	bad := strings.Replace(iterBlock, "out.Append(int64(i * i))", "out.Append(int64(i * i))\n\t\tvar m map[int]int\n\t\tm[i] = 1", 1)
	ev = run(t, s, rec, Exec{ID: "c2", Pipeline: "clv", Block: "raw_orders", Source: bad, Partition: "2024-01-03"})
	if ev.Kind != EventError || ev.Error.Run == nil || ev.Error.Run.Kind != "panic" || ev.Error.Run.Line != 20 || !strings.HasPrefix(ev.Error.Engine, "compiled:") {
		t.Fatalf("compiled panic: %+v %+v", ev.Error, ev.Error.Run)
	}

	plain, _ := newTestManager(t)
	rec2 := newRecorder()
	s2, err := plain.Attach("tab-d", rec2, "h1")
	if err != nil {
		t.Fatal(err)
	}
	ev = run(t, s2, rec2, Exec{ID: "c3", Pipeline: "clv", Block: "raw_orders", Source: iterBlock, Partition: "2024-01-03"})
	if ev.Kind != EventError || ev.Error.Run == nil || ev.Error.Run.Kind != "unsupported" {
		t.Fatalf("without a compiler: %+v", ev.Error)
	}
}
