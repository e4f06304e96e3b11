package server

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/kernel/build"
)

// wsFaultBlock appends a line to log, then hits a fault of the
// interpreter's plumbing (a reslice past the length) at line 10.
func wsFaultBlock(log string) string {
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

// Ctrl+Enter on a cell whose interpreted run faults midway runs it once:
// it appended three lines (the run, a replay, a silent compiled re-run).
// The error offers compiled, and an execute with engine "compiled" takes it.
func TestWSMidRunFaultRunsOnce(t *testing.T) {
	if _, err := build.FindToolchain(); err != nil {
		t.Skip(err)
	}
	e := newCompiledEnv(t)
	c := e.connect()
	c.hello("ws-fault")
	log := filepath.Join(t.TempDir(), "appended.txt")
	src := wsFaultBlock(log)
	m, _ := c.execute("raw_orders", src, "2024-01-03", 60*time.Second)
	b, _ := os.ReadFile(log)
	if n := strings.Count(string(b), "ran\n"); n != 1 {
		t.Errorf("one Run appended %d lines, want 1", n)
	}
	if m.Type != MsgError || m.Error.Kind != "unsupported" || m.Error.Line != 10 || m.Engine != "" {
		t.Fatalf("want the interpreter's fault at line 10, not run compiled: %+v %+v", m, m.Error)
	}
	if m.Error.Offer != "compiled" || !strings.HasPrefix(m.Error.Message, "this valid Go needs compiled: ") {
		t.Errorf("offer %q, message %q", m.Error.Offer, m.Error.Message)
	}

	id := c.nextID()
	c.send(ClientMessage{Type: MsgExecute, ID: id, Pipeline: "clv", Block: "raw_orders", Source: src, Partition: "2024-01-03", Engine: "compiled"})
	m, _ = c.await("compiled result", 120*time.Second, func(m Message) bool { return m.ID == id && (m.Type == MsgResult || m.Type == MsgError) })
	b, _ = os.ReadFile(log)
	if n := strings.Count(string(b), "ran\n"); n != 2 {
		t.Errorf("after run compiled: %d lines, want 2", n)
	}
	if m.Type != MsgError || m.Error.Kind != "panic" || !strings.HasPrefix(m.Engine, "compiled") {
		t.Errorf("compiled run: want Go's panic (slice bounds out of range), got %+v %+v", m, m.Error)
	}

	id = c.nextID()
	c.send(ClientMessage{Type: MsgExecute, ID: id, Pipeline: "clv", Block: "raw_orders", Source: src, Partition: "2024-01-03", Engine: "fast"})
	m, _ = c.await("refusal", 10*time.Second, func(m Message) bool { return m.ID == id && m.Type == MsgError })
	if m.Error.Code != WSInvalid || !strings.Contains(m.Error.Message, `engine "fast"`) {
		t.Errorf("unknown engine: %+v", m.Error)
	}
}
