package server

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/stratahq/strata/projects/notebook"
)

// Bad input gets an error message and the connection keeps working.
func TestWSMalformedMessages(t *testing.T) {
	e := newEnv(t)
	c := e.connect()
	cases := []struct {
		name string
		kind int
		data string
		code string
		id   string
	}{
		{"not JSON", websocket.TextMessage, "hello?", WSBadMessage, ""},
		{"truncated JSON", websocket.TextMessage, `{"type": "ping", "id": "x"`, WSBadMessage, ""},
		{"type of the wrong type", websocket.TextMessage, `{"type": 5, "id": "t5"}`, WSBadMessage, "t5"},
		{"a JSON array", websocket.TextMessage, `[1, 2]`, WSBadMessage, ""},
		{"missing type", websocket.TextMessage, `{"id": "m1"}`, WSBadMessage, "m1"},
		{"unknown type", websocket.TextMessage, `{"type": "launch_missiles", "id": "u1"}`, WSUnknownType, "u1"},
		{"binary frame", websocket.BinaryMessage, "\x00\x01", WSBadMessage, ""},
		{"bad topic", websocket.TextMessage, `{"type": "subscribe", "id": "s1", "topic": "everything"}`, WSInvalid, "s1"},
		{"bad session id", websocket.TextMessage, `{"type": "hello", "id": "h1", "session": "../x"}`, WSInvalid, "h1"},
		{"execute without block", websocket.TextMessage, `{"type": "execute", "id": "e1", "pipeline": "clv"}`, WSInvalid, "e1"},
		{"interrupt with nothing running", websocket.TextMessage, `{"type": "interrupt", "id": "i1"}`, WSNotRunning, "i1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c.sendRaw(tc.kind, []byte(tc.data))
			m, _ := c.await("error", 5*time.Second, func(m Message) bool { return m.Type == MsgError })
			if m.Error == nil || m.Error.Code != tc.code || m.ID != tc.id || m.Error.Message == "" {
				t.Fatalf("got %+v %+v, want code %s id %q", m, m.Error, tc.code, tc.id)
			}
			c.send(ClientMessage{Type: MsgPing, ID: "after-" + tc.name})
			c.await("pong", 5*time.Second, func(m Message) bool { return m.Type == MsgPong && m.ID == "after-"+tc.name })
		})
	}
	t.Run("oversized message closes with 1009", func(t *testing.T) {
		c := e.connect()
		big := `{"type":"execute","id":"big","pipeline":"clv","block":"raw_orders","source":"` + strings.Repeat("x", DefaultWSReadLimit) + `"}`
		c.sendRaw(websocket.TextMessage, []byte(big))
		// The server answers with close 1009; the client may see it, or a
		// reset if the socket closed with the rest of the message unread.
		err := c.closed(5 * time.Second)
		if !websocket.IsCloseError(err, websocket.CloseMessageTooBig, websocket.CloseAbnormalClosure) && !strings.Contains(err.Error(), "reset") {
			t.Fatalf("want close 1009, got %v", err)
		}
		// Other connections are unaffected.
		c2 := e.connect()
		c2.send(ClientMessage{Type: MsgPing, ID: "still"})
		c2.await("pong", 5*time.Second, func(m Message) bool { return m.Type == MsgPong })
	})
}

func TestWSExecuteGo(t *testing.T) {
	e := newEnv(t)
	c := e.connect()
	st := c.hello("tab-1")
	if st.State != StateIdle || st.Session != "tab-1" {
		t.Fatalf("hello status %+v", st)
	}
	final, before := c.execute("raw_orders", loadSource, "2024-03-10", 30*time.Second)
	if final.Type != MsgResult {
		t.Fatalf("want result, got %+v %+v", final, final.Error)
	}
	if final.Preview == nil || final.Preview.RowCount != 250 || len(final.Preview.Rows) != previewRows || len(final.Preview.Columns) != 2 {
		t.Fatalf("preview %+v", final.Preview)
	}
	if final.Entry != "Load" || final.DurationMS == nil {
		t.Fatalf("entry %q duration %v", final.Entry, final.DurationMS)
	}
	var stdout, logs strings.Builder
	busy := false
	for _, m := range before {
		switch m.Type {
		case MsgStdout:
			stdout.WriteString(m.Data)
		case MsgLog:
			logs.WriteString(m.Msg)
		case MsgStatus:
			busy = busy || (m.State == StateBusy && m.Block == "raw_orders" && m.ExecID == final.ID)
		}
	}
	if stdout.String() != "hello from 2024-03-10\n" || !strings.Contains(logs.String(), "built") || !busy {
		t.Fatalf("stdout %q, logs %q, busy status %v in %+v", stdout.String(), logs.String(), busy, before)
	}
	idle, _ := c.await("idle status", 5*time.Second, func(m Message) bool { return m.Type == MsgStatus && m.State == StateIdle })
	if idle.ExecID != "" {
		t.Fatalf("idle status %+v", idle)
	}

	t.Run("SQL block", func(t *testing.T) {
		// daily_customer_metrics reads raw_orders from the warehouse: run the
		// pipeline for the partition first.
		e.call(http.MethodPost, "/api/v1/pipelines/clv/runs?wait=true", map[string]string{"partition": "2024-03-10"}, http.StatusOK, nil)
		final, _ := c.execute("daily_customer_metrics", "SELECT count(*) AS n, $partition_key AS k FROM raw_orders", "2024-03-10", 30*time.Second)
		if final.Type != MsgResult || final.Preview.RowCount != 1 || final.Preview.Rows[0][1] != "2024-03-10" {
			t.Fatalf("SQL result %+v %+v", final, final.Error)
		}
	})
	t.Run("missing upstream data", func(t *testing.T) {
		final, _ := c.execute("clv", "package clv", "2021-01-01", 30*time.Second)
		if final.Type != MsgError || final.Error.Code != WSInvalid || !strings.Contains(final.Error.Message, "run the pipeline") {
			t.Fatalf("got %+v %+v", final, final.Error)
		}
	})
}

func TestWSCompileErrorHasPosition(t *testing.T) {
	e := newEnv(t)
	c := e.connect()
	c.hello("compile")
	src := `package raw_orders

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.Int64("x"))
	var n int = "three"
	_ = n
	return t, nil
}
`
	final, _ := c.execute("raw_orders", src, "2024-03-10", 30*time.Second)
	if final.Type != MsgError || final.Error.Code != WSRun || final.Error.Kind != notebook.ErrCompile {
		t.Fatalf("got %+v %+v", final, final.Error)
	}
	if final.Error.Line != 7 || final.Error.Column != 14 || final.Error.File != "blocks/raw_orders/raw_orders.go" {
		t.Fatalf("position %s:%d:%d: %s", final.Error.File, final.Error.Line, final.Error.Column, final.Error.Message)
	}
	if len(final.Error.Diagnostics) == 0 {
		t.Fatal("no diagnostics")
	}
}

// A flood of executes: one runs, the rest are refused as busy at once, and
// the session and server keep working.
func TestWSFloodIsBusy(t *testing.T) {
	e := newEnv(t)
	c := e.connect()
	c.hello("flood")
	const n = 50
	for i := 0; i < n; i++ {
		c.send(ClientMessage{Type: MsgExecute, ID: fmt.Sprintf("f%d", i), Pipeline: "clv", Block: "raw_orders", Source: sleepSource(300), Partition: "2024-03-10"})
	}
	results, busy := 0, 0
	for results+busy < n {
		m, _ := c.await("reply", 30*time.Second, func(m Message) bool { return m.Type == MsgResult || m.Type == MsgError })
		switch {
		case m.Type == MsgResult:
			results++
		case m.Error.Code == WSBusy:
			busy++
		default:
			t.Fatalf("unexpected %+v", m.Error)
		}
	}
	if results < 1 || busy < n/2 {
		t.Fatalf("%d results, %d busy", results, busy)
	}
	c.await("idle", 10*time.Second, func(m Message) bool { return m.Type == MsgStatus && m.State == StateIdle })
	final, _ := c.execute("raw_orders", trivialSource, "2024-03-10", 30*time.Second)
	if final.Type != MsgResult {
		t.Fatalf("after the flood: %+v", final.Error)
	}
	resp, _ := e.request(http.MethodGet, "/healthz", nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatal("server down after the flood")
	}
}

// memoryHog allocates until the kernel's memory watchdog kills the process:
// a block that takes its kernel down without any opt-in. (os.Exit is turned
// into an error, and panics in goroutines are recovered by the kernel.)
const memoryHog = `package raw_orders

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	var keep [][]byte
	for i := 0; i < 100000; i++ {
		b := make([]byte, 1<<20)
		b[0] = 1
		keep = append(keep, b)
	}
	return sdk.NewTable(sdk.Int64("n")), nil
}
`

// A block that kills its kernel: its session gets the error and a fresh
// kernel; another session, running at the same time, notices nothing.
func TestWSKernelCrashIsolated(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.Notebook.Kernel.MemoryLimit = 256 << 20 })
	a, b := e.connect(), e.connect()
	a.hello("victim")
	b.hello("bystander")
	if final, _ := b.execute("raw_orders", trivialSource, "2024-03-10", 30*time.Second); final.Type != MsgResult {
		t.Fatalf("bystander before: %+v", final.Error)
	}

	var wg sync.WaitGroup
	var bystanderErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 5; i++ {
			final, _ := b.execute("raw_orders", sleepSource(50), "2024-03-10", 30*time.Second)
			if final.Type != MsgResult {
				bystanderErr = fmt.Errorf("run %d: %+v", i, final.Error)
				return
			}
		}
	}()
	final, _ := a.execute("raw_orders", memoryHog, "2024-03-10", 60*time.Second)
	if final.Type != MsgError || final.Error.Code != WSRun || final.Error.Kind != notebook.ErrMemory {
		t.Fatalf("victim: %+v %+v", final, final.Error)
	}
	st, _ := a.await("idle status", 10*time.Second, func(m Message) bool { return m.Type == MsgStatus && m.State == StateIdle })
	if !st.Restarted {
		t.Fatalf("status after the crash does not say restarted: %+v", st)
	}
	wg.Wait()
	if bystanderErr != nil {
		t.Fatalf("bystander: %v", bystanderErr)
	}
	if final, _ := a.execute("raw_orders", trivialSource, "2024-03-10", 30*time.Second); final.Type != MsgResult {
		t.Fatalf("victim after the crash: %+v", final.Error)
	}
}

// The running state lives on the server: a reload reattaches with its
// session id and sees the block still running, then its result.
func TestWSReloadReattaches(t *testing.T) {
	e := newEnv(t)
	c := e.connect()
	c.hello("reloading-tab")
	c.send(ClientMessage{Type: MsgExecute, ID: "long", Pipeline: "clv", Block: "raw_orders", Source: sleepSource(1500), Partition: "2024-03-10"})
	c.await("busy", 10*time.Second, func(m Message) bool { return m.Type == MsgStatus && m.State == StateBusy })
	c.conn.Close()

	c2 := e.connect()
	st := c2.hello("reloading-tab")
	if st.State != StateBusy || st.ExecID != "long" || st.Block != "raw_orders" || st.Partition != "2024-03-10" {
		t.Fatalf("after reload: %+v", st)
	}
	final, _ := c2.await("result", 30*time.Second, func(m Message) bool { return m.ID == "long" && (m.Type == MsgResult || m.Type == MsgError) })
	if final.Type != MsgResult {
		t.Fatalf("result after reload: %+v", final.Error)
	}

	t.Run("result kept while detached", func(t *testing.T) {
		c2.send(ClientMessage{Type: MsgExecute, ID: "short", Pipeline: "clv", Block: "raw_orders", Source: sleepSource(200), Partition: "2024-03-10"})
		c2.await("busy", 10*time.Second, func(m Message) bool { return m.Type == MsgStatus && m.State == StateBusy && m.ID == "short" })
		c2.conn.Close()
		time.Sleep(800 * time.Millisecond)
		c3 := e.connect()
		c3.hello("reloading-tab")
		final, _ := c3.await("missed result", 10*time.Second, func(m Message) bool { return m.ID == "short" && m.Type == MsgResult })
		if final.Preview == nil || final.Preview.RowCount != 1 {
			t.Fatalf("missed result %+v", final)
		}
	})
}

func TestWSInterruptAndRestart(t *testing.T) {
	e := newEnv(t)
	c := e.connect()
	c.hello("stopper")
	wait := `package raw_orders

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}
`
	c.send(ClientMessage{Type: MsgExecute, ID: "w1", Pipeline: "clv", Block: "raw_orders", Source: wait, Partition: "2024-03-10"})
	c.await("busy", 10*time.Second, func(m Message) bool { return m.Type == MsgStatus && m.State == StateBusy })
	c.send(ClientMessage{Type: MsgInterrupt, ID: "i1", ExecID: "w1"})
	final, _ := c.await("interrupted", 10*time.Second, func(m Message) bool { return m.ID == "w1" && m.Type == MsgError })
	if final.Error.Kind != notebook.ErrInterrupted {
		t.Fatalf("interrupt: %+v", final.Error)
	}

	spin := `package raw_orders

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	for {
	}
}
`
	c.await("idle", 10*time.Second, func(m Message) bool { return m.Type == MsgStatus && m.State == StateIdle })
	c.send(ClientMessage{Type: MsgExecute, ID: "s1", Pipeline: "clv", Block: "raw_orders", Source: spin, Partition: "2024-03-10"})
	c.await("busy", 10*time.Second, func(m Message) bool { return m.Type == MsgStatus && m.State == StateBusy })
	c.send(ClientMessage{Type: MsgRestart, ID: "r1"})
	// The execution's error and the restart's status may come in either order.
	var stopped, restarted, idle *Message
	for stopped == nil || restarted == nil || idle == nil {
		m, _ := c.await("stopped by restart", 10*time.Second, func(m Message) bool {
			return m.ID == "r1" || m.ID == "s1" && (m.Type == MsgError || m.State == StateIdle)
		})
		switch {
		case m.Type == MsgError:
			stopped = &m
		case m.ID == "r1":
			restarted = &m
		default:
			idle = &m
		}
	}
	if stopped.Error.Kind != notebook.ErrInterrupted || !strings.Contains(stopped.Error.Message, "restart") {
		t.Fatalf("restart: %+v", stopped.Error)
	}
	if !restarted.Restarted {
		t.Fatalf("restart status %+v", restarted)
	}
	if final, _ := c.execute("raw_orders", trivialSource, "2024-03-10", 30*time.Second); final.Type != MsgResult {
		t.Fatalf("after restart: %+v", final.Error)
	}
}

func TestWSSessionsAreReaped(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.SessionIdle = 200 * time.Millisecond })
	c := e.connect()
	c.hello("short-lived")
	if final, _ := c.execute("raw_orders", trivialSource, "2024-03-10", 30*time.Second); final.Type != MsgResult {
		t.Fatal(final.Error)
	}
	c.conn.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		busy, idle, _ := e.srv.sessions.Stats()
		if busy+idle == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("session not reaped: %d busy, %d idle", busy, idle)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
