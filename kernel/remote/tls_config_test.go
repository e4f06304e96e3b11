package remote

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nats-io/nats.go"

	"github.com/stratahq/strata/kernel/kerneltest"
	"github.com/stratahq/strata/kernel/supervisor"
)

// The embedded listener with a self-signed certificate: a worker that pins
// its fingerprint (or trusts the certificate file) connects and runs a
// task; one that pins another fingerprint, or trusts only the system's
// roots, is refused before it sends its token. The certificate is kept and
// reused. Off loopback, a listener without TLS is refused even with a token.
func TestTLSListener(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tls")
	cfg, fp, created, err := SelfSignedTLS(dir, []string{"127.0.0.1"})
	if err != nil || !created || len(fp) != 64 {
		t.Fatalf("self-signed: %v created %v fingerprint %q", err, created, fp)
	}
	if _, fp2, created, err := SelfSignedTLS(dir, nil); err != nil || created || fp2 != fp {
		t.Fatalf("second start: %v created %v fingerprint %s, want the kept %s", err, created, fp2, fp)
	}
	ns, err := StartServer(ServerConfig{Listen: "127.0.0.1:0", Token: testToken, StoreDir: t.TempDir(), TLS: cfg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Shutdown)
	url := ns.ClientURL()
	if !strings.HasPrefix(url, "tls://") {
		t.Fatalf("client URL %s, want tls://", url)
	}
	dial := func(ca, pin string) (*nats.Conn, error) {
		tc, err := ClientTLS(ca, pin)
		if err != nil {
			t.Fatal(err)
		}
		return nats.Connect(url, ConnectOptions("w", nats.Token(testToken), nats.Secure(tc), nats.MaxReconnects(0))...)
	}

	// The coordinator's own connection is in-process and needs no TLS.
	coord, err := ConnectInProcess(ns, testToken, "coordinator")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(coord.Close)
	p, err := NewPool(context.Background(), coord, testSettings())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)

	nc, err := dial("", fp)
	if err != nil {
		t.Fatalf("pinned worker: %v", err)
	}
	nc.Close()
	nc, err = dial(filepath.Join(dir, "cert.pem"), "")
	if err != nil {
		t.Fatalf("worker trusting the certificate file: %v", err)
	}
	nc.Close()
	wrong := strings.Repeat("ab", 32)
	if _, err := dial("", wrong); err == nil || !strings.Contains(err.Error(), "not the pinned") {
		t.Fatalf("wrong pin: %v, want refused naming the fingerprints", err)
	}
	if _, err := dial("", ""); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("system roots only: %v, want a certificate error", err)
	}
	if _, err := nats.Connect(strings.Replace(url, "tls://", "nats://", 1), nats.Token(testToken), nats.MaxReconnects(0)); err == nil {
		t.Fatal("a client without TLS connected to a TLS listener")
	}

	// A task over the pinned connection.
	tc, _ := ClientTLS("", fp)
	startAgentOn(t, url, "w-tls", nats.Secure(tc))
	req := block(`func Transform(ctx *sdk.Context) (*sdk.Table, error) {
	out := sdk.NewTable(sdk.String("s"))
	out.Append("over tls")
	return out, nil
}`)
	res, out, err := p.Exec(context.Background(), req, nil, &recorder{})
	if err != nil || res.Error != nil || res.Worker != "w-tls" || out.Column("s").Strings()[0] != "over tls" {
		t.Fatalf("exec over TLS: %v %+v worker %q", err, res.Error, res.Worker)
	}

	if _, err := StartServer(ServerConfig{Listen: "0.0.0.0:0", Token: testToken, StoreDir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "without TLS refused") {
		t.Fatalf("listener off loopback without TLS: %v, want refused", err)
	}
	if _, err := ClientTLS("", "sha256:12"); err == nil {
		t.Fatal("a short pin was accepted")
	}
}

// startAgentOn runs a one-slot worker connected to url with opts.
func startAgentOn(t *testing.T, url, id string, opts ...nats.Option) {
	t.Helper()
	nc, err := nats.Connect(url, ConnectOptions(id, append(opts, nats.Token(testToken))...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	kernels := supervisor.NewPool(kerneltest.Config(), 1)
	a, err := NewAgent(nc, testSettings(), AgentConfig{Slots: 1, ID: id}, kernels)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = a.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done; kernels.Close() })
}
