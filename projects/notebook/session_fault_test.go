package notebook

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/kernel/build"
)

// faultBlock appends a line to log, then hits a fault of the interpreter's
// own plumbing (a reslice past the length, which yaegi raises as a reflect
// panic) at line 10.
func faultBlock(log string) string {
	return fmt.Sprintf(`package raw_orders

import (
	"os"

	"github.com/stratahq/strata/blocks/sdk"
)

func window(s []int, j int) []int {
	return s[1:j]
}

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	f, _ := os.OpenFile(%q, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	f.WriteString("ran\n")
	f.Close()
	_ = window(make([]int, 2, 4), 5)
	return sdk.NewTable(sdk.Int64("n")), nil
}
`, log)
}

// A cell whose interpreted run fails midway is never run again by itself:
// one Run appended three lines (the run, a replay to find the line, then a
// compiled run). It is reported at its line, with compiled offered.
func TestMidRunFaultRunsOnce(t *testing.T) {
	if _, err := build.FindToolchain(); err != nil {
		t.Skip(err)
	}
	m, _ := newTestManagerWith(t, true)
	rec := newRecorder()
	s, err := m.Attach("tab-f", rec, "h1")
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "appended.txt")
	ev := run(t, s, rec, Exec{ID: "f1", Pipeline: "clv", Block: "raw_orders", Source: faultBlock(log), Partition: "2024-01-03"})
	b, _ := os.ReadFile(log)
	if n := strings.Count(string(b), "ran\n"); n != 1 {
		t.Errorf("one Run appended %d lines, want 1", n)
	}
	if ev.Kind != EventError || ev.Error.Run == nil || ev.Error.Run.Kind != "unsupported" {
		t.Fatalf("want the interpreter's fault reported, got %+v", ev)
	}
	if ev.Error.Engine != "" {
		t.Errorf("engine %q: the cell must not have run compiled", ev.Error.Engine)
	}
	if ev.Error.Run.Line != 10 || !strings.Contains(ev.Error.Run.Message, "needs compiled") {
		t.Errorf("fault at line %d (want 10): %s", ev.Error.Run.Line, ev.Error.Run.Message)
	}
	if ev.Error.Offer != OfferCompiled {
		t.Errorf("offer %q, want %q", ev.Error.Offer, OfferCompiled)
	}

	// The one click: the same text run compiled on request, once.
	ev = run(t, s, rec, Exec{ID: "f2", Pipeline: "clv", Block: "raw_orders", Source: faultBlock(log), Partition: "2024-01-03", Engine: EngineCompiled})
	b, _ = os.ReadFile(log)
	if n := strings.Count(string(b), "ran\n"); n != 2 {
		t.Errorf("after run compiled: %d lines, want 2", n)
	}
	if ev.Kind != EventError || ev.Error.Run == nil || ev.Error.Run.Kind != "panic" || !strings.HasPrefix(ev.Error.Engine, "compiled") {
		t.Fatalf("compiled run: want Go's own panic (slice bounds out of range), got %+v %+v", ev.Error, ev.Error.Run)
	}
}

// A cell that times out interpreted says compiled would take a fraction and
// offers it: a CPU-bound block runs tens of times slower in the interpreter.
func TestTimeoutOffersCompiled(t *testing.T) {
	if _, err := build.FindToolchain(); err != nil {
		t.Skip(err)
	}
	shortTimeout := func(dir string) {
		for _, f := range []string{"strata.yaml", "pipelines/clv.yaml"} {
			p := filepath.Join(dir, f)
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(strings.Replace(string(b), "timeout: 30s", "timeout: 1s", 1)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	m, _ := newTestManagerWith(t, true, shortTimeout)
	rec := newRecorder()
	s, err := m.Attach("tab-t", rec, "h1")
	if err != nil {
		t.Fatal(err)
	}
	spin := `package raw_orders

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	n := 0
	for {
		n++
	}
}
`
	ev := run(t, s, rec, Exec{ID: "t1", Pipeline: "clv", Block: "raw_orders", Source: spin, Partition: "2024-01-03"})
	if ev.Kind != EventError || ev.Error.Run == nil || ev.Error.Run.Kind != "timeout" {
		t.Fatalf("want a timeout, got %+v", ev.Error)
	}
	if ev.Error.Offer != OfferCompiled || !strings.Contains(ev.Error.Run.Message, "compiled would take a fraction") {
		t.Errorf("offer %q, message %q", ev.Error.Offer, ev.Error.Run.Message)
	}

}
