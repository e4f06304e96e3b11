package remote

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"strings"
	"sync"
	"testing"

	"github.com/nats-io/nats.go"

	"github.com/stratahq/strata/kernel/protocol"
)

// A block on a worker that asks for a secret gets its value; the value
// crosses NATS sealed to the worker's one-time key (a subscriber to every
// subject, JetStream's included, never sees it) and what the block printed,
// logged and returned of it comes back masked.
func TestSecretIsSealedToTheWorker(t *testing.T) {
	const value = "value-that-must-not-travel"
	ns := natsServer(t)
	spy := connect(t, ns, "spy")
	var mu sync.Mutex
	var wire []string
	if _, err := spy.Subscribe(">", func(m *nats.Msg) {
		mu.Lock()
		wire = append(wire, m.Subject+" "+string(m.Data)+" "+strings.Join(m.Header.Values("Nats-Msg-Id"), ","))
		mu.Unlock()
	}); err != nil {
		t.Fatal(err)
	}
	p := newPool(t, ns)
	startAgent(t, ns, "w1", 1)
	req := block(`func Load(ctx *sdk.Context) (*sdk.Table, error) {
	v, err := ctx.Secret("pg")
	if err != nil {
		return nil, err
	}
	fmt.Println("the secret is", v)
	ctx.Log.Info("logged " + v)
	t := sdk.NewTable(sdk.String("v"), sdk.Int64("n"))
	t.Append("got "+v, int64(len(v)))
	return t, nil
}`)
	h := &recorder{reply: protocol.SecretTable(value)}
	res, out, err := p.Exec(context.Background(), req, nil, h)
	if err != nil {
		t.Fatal(err)
	}
	if res.Error != nil {
		t.Fatalf("the block failed on the worker: %+v", res.Error)
	}
	if len(h.calls) != 1 || h.calls[0] != "secret:" {
		t.Fatalf("the coordinator's handler was asked %v: want one secret call", h.calls)
	}
	if got := out.Row(0)[1].(int64); got != int64(len(value)) {
		t.Fatalf("the block saw a value of %d bytes, want %d", got, len(value))
	}
	if got := out.Row(0)[0].(string); got != "got ***" {
		t.Fatalf("output %q: want the value masked", got)
	}
	shown := strings.Join(h.out, "\n")
	if !strings.Contains(shown, "the secret is ***") || !strings.Contains(shown, "log:logged ***") {
		t.Fatalf("stream and log %q: want the value masked", shown)
	}
	spy.Flush()
	mu.Lock()
	defer mu.Unlock()
	if len(wire) == 0 {
		t.Fatal("the spy saw no NATS traffic")
	}
	for _, m := range wire {
		if strings.Contains(m, value) {
			t.Fatalf("the value crossed NATS in clear: %.300s", m)
		}
	}
	if strings.Contains(shown, value) {
		t.Fatalf("the value reached the coordinator's output: %s", shown)
	}
}

// A sealed value opens only with the worker's key, for the attempt and the
// name it was sealed for; a call without a key is refused, not answered in
// clear.
func TestSealedSecretOpensOnlyForItsCall(t *testing.T) {
	own, err := ecdh.X25519().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sealSecret(own.PublicKey().Bytes(), 7, "pg", "postgres://u:pw-1234@h/db")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(s.Box), "pw-1234") {
		t.Fatal("the box holds the value in clear")
	}
	if v, err := s.open(own, 7, "pg"); err != nil || v != "postgres://u:pw-1234@h/db" {
		t.Fatalf("open: %q, %v", v, err)
	}
	if _, err := s.open(own, 8, "pg"); err == nil {
		t.Fatal("opened for another attempt")
	}
	if _, err := s.open(own, 7, "api"); err == nil {
		t.Fatal("opened as another secret")
	}
	other, _ := ecdh.X25519().GenerateKey(rand.Reader)
	if _, err := s.open(other, 7, "pg"); err == nil {
		t.Fatal("opened with another key")
	}
	if _, err := answerSecret(context.Background(), &call{attempt: 7, h: &recorder{reply: protocol.SecretTable("x-secret")}}, &protocol.HostCall{Method: "secret", Secret: "pg"}); err == nil || !strings.Contains(err.Error(), "never sent to workers in clear") {
		t.Fatalf("a call without a key: %v", err)
	}
	var m masker
	m.remember("postgres://u:pw-1234@h/db")
	if got := m.mask("dial pw-1234 failed"); got != "dial *** failed" {
		t.Fatalf("the password inside the URL is not masked: %q", got)
	}
}
