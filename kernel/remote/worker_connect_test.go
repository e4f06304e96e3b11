package remote

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// lockedBuffer is a log written by NATS callbacks and read by the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Waiting for an unreachable server must not turn a wrong token into an
// endless silent retry: the server answers, refuses, and the connection
// ends with the reason in the worker's log.
func TestWorkerConnectWrongTokenEnds(t *testing.T) {
	ns := natsServer(t)
	var log lockedBuffer
	nc, err := WorkerConnect(ns.ClientURL(), &log, ConnectOptions("w-wrong", nats.Token("not-the-token"))...)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer nc.Close()
	deadline := time.Now().Add(20 * time.Second)
	for !nc.IsClosed() {
		if time.Now().After(deadline) {
			t.Fatalf("a worker with a wrong token is still retrying after 20s; log:\n%s", log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(strings.ToLower(log.String()), "authorization") {
		t.Fatalf("the worker's log does not say the token was refused:\n%s", log.String())
	}
}
