package server

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// A SQL block whose upstream has no data for the partition is a request
// that cannot run (code "invalid", as docs/websocket.md documents), not a
// failure of the block's SQL.
func TestWSSQLWithoutUpstreamDataIsInvalid(t *testing.T) {
	e := newEnv(t)
	c := e.connect()
	c.hello("sql-missing")
	for _, tc := range []struct{ block, partition string }{
		{"daily_customer_metrics", "2021-01-01"},
		{"weekly_customer_rollup", "2021-W02"},
	} {
		src, err := os.ReadFile(filepath.Join(e.dir, "blocks", tc.block+".sql"))
		if err != nil {
			t.Fatal(err)
		}
		final, _ := c.execute(tc.block, string(src), tc.partition, 30*time.Second)
		if final.Type != MsgError || final.Error.Code != WSInvalid || !strings.Contains(final.Error.Message, "no data") {
			t.Errorf("%s %s: got %+v %+v", tc.block, tc.partition, final, final.Error)
		}
	}
}

// A client that sends but never reads is disconnected with the documented
// close code 1008 (policy violation), not a bare TCP close: the server stops
// writing while the socket's buffer stays full, so the close frame still
// fits when it gives up.
func TestWSClientThatNeverReadsGets1008(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the send timeout")
	}
	e := newEnv(t)
	ws, _, err := websocket.DefaultDialer.Dial(e.wsURL(), authHeader())
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	var stop atomic.Bool
	var lastWrite atomic.Int64
	lastWrite.Store(time.Now().UnixNano())
	go func() {
		// Pings, each answered with a pong that is never read.
		for i := 0; !stop.Load(); i++ {
			_ = ws.SetWriteDeadline(time.Now().Add(30 * time.Second))
			if ws.WriteJSON(ClientMessage{Type: MsgPing, ID: fmt.Sprintf("p%d-%s", i, strings.Repeat("x", 200))}) != nil {
				return
			}
			lastWrite.Store(time.Now().UnixNano())
		}
	}()
	// Until the pings back up (the server is stuck on pongs nobody
	// reads), then past the send timeout.
	for deadline := time.Now().Add(60 * time.Second); time.Since(time.Unix(0, lastWrite.Load())) < time.Second; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the pings never backed up")
		}
	}
	time.Sleep(wsSendTimeout + time.Second)
	stop.Store(true)
	_ = ws.SetReadDeadline(time.Now().Add(30 * time.Second))
	for {
		_, _, err := ws.ReadMessage()
		if err == nil {
			continue
		}
		var ce *websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != websocket.ClosePolicyViolation {
			t.Fatalf("a client that never reads ended with %v, want close 1008", err)
		}
		return
	}
}
