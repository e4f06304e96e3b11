package remote

import (
	"context"
	"strings"
	"testing"

	"github.com/stratahq/strata/kernel/protocol"
)

// A block on a worker that asks for a secret is refused by the coordinator
// before its handler is asked: the value would cross NATS in clear.
func TestSecretIsNotSentToAWorker(t *testing.T) {
	ns := natsServer(t)
	p := newPool(t, ns)
	startAgent(t, ns, "w1", 1)
	req := block(`func Load(ctx *sdk.Context) (*sdk.Table, error) {
	v, err := ctx.Secret("pg")
	if err != nil {
		return nil, err
	}
	t := sdk.NewTable(sdk.String("v"))
	t.Append(v)
	return t, nil
}`)
	h := &recorder{reply: protocol.SecretTable("value-that-must-not-travel")}
	res, _, err := p.Exec(context.Background(), req, nil, h)
	if err != nil {
		t.Fatal(err)
	}
	if res.Error == nil || !strings.Contains(res.Error.Message, "secrets are not sent to workers") {
		t.Fatalf("result %+v: want the refusal", res.Error)
	}
	if len(h.calls) != 0 {
		t.Fatalf("the coordinator's handler was asked: %v", h.calls)
	}
}
