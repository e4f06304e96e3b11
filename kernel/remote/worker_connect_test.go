package remote

import (
	"bytes"
	"path/filepath"
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

// A worker that does not trust the listener's certificate (no pin, or
// another one) must end with the reason, not wait forever as for a server
// still starting: e2e's TestScaleOutCompiledWorkersPauseResume hung on it.
func TestWorkerConnectUntrustedCertificateEnds(t *testing.T) {
	cfg, _, _, err := SelfSignedTLS(filepath.Join(t.TempDir(), "tls"), []string{"127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	ns, err := StartServer(ServerConfig{Listen: "127.0.0.1:0", Token: testToken, StoreDir: t.TempDir(), TLS: cfg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Shutdown)
	for name, pin := range map[string]string{"system roots": "", "another pin": strings.Repeat("ab", 32)} {
		t.Run(name, func(t *testing.T) {
			tc, err := ClientTLS("", pin)
			if err != nil {
				t.Fatal(err)
			}
			var log lockedBuffer
			nc, err := WorkerConnect(ns.ClientURL(), &log, ConnectOptions("w-untrusting", nats.Token(testToken), nats.Secure(tc))...)
			if err != nil {
				return // refused at once: as good as ending
			}
			defer nc.Close()
			deadline := time.Now().Add(20 * time.Second)
			for !nc.IsClosed() {
				if time.Now().After(deadline) {
					t.Fatalf("a worker that does not trust the certificate is still retrying after 20s; log:\n%s", log.String())
				}
				time.Sleep(50 * time.Millisecond)
			}
			if !strings.Contains(log.String(), "certificate") {
				t.Fatalf("the worker's log does not say the certificate was not trusted:\n%s", log.String())
			}
		})
	}
}
