package remote

import (
	"context"
	"sync"
	"time"

	"github.com/stratahq/strata/kernel/protocol"
)

// SecretFunc asks the coordinator for a project secret by name, sealed to
// the call, and masks its value in everything the task sends back.
type SecretFunc func(ctx context.Context, name string) (string, error)

// lakeSecretTTL is how long a worker keeps a lake's credentials (the
// catalog's password, a bucket's key) between tasks. Every task that
// writes or reads the lake's files needs them: without the cache each
// would cost the coordinator two or three sealed host calls. A rotated
// value is picked up within the TTL; meanwhile a task that fails with
// the old one is answered ErrNotHere or sends its table, never a wrong
// result.
const lakeSecretTTL = time.Minute

// lakeSecrets are the lake credentials this worker was given, in memory
// only (never in a file, a log or a message), by secret name.
type lakeSecrets struct {
	mu   sync.Mutex
	vals map[string]cachedSecret
}

type cachedSecret struct {
	value string
	at    time.Time
}

func (c *lakeSecrets) get(name string, now time.Time) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.vals[name]
	if !ok || now.Sub(v.at) > lakeSecretTTL {
		return "", false
	}
	return v.value, true
}

func (c *lakeSecrets) put(name, value string, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.vals == nil {
		c.vals = map[string]cachedSecret{}
	}
	c.vals[name] = cachedSecret{value: value, at: now}
}

// lakeSecret asks for a lake credential for a task that reads or writes
// the lake here (a catalog's password, a bucket's key id or secret). Like
// a block's secret it comes sealed and is masked in what the task sends
// back; unlike a block's, the block never sees it (the worker's own DuckDB
// uses it), so the output may still be written to the data path. Kept for
// lakeSecretTTL, and masked in every task that uses the kept value.
func (h *agentHandler) lakeSecret(ctx context.Context, name string) (string, error) {
	if v, ok := h.a.lakeKeys.get(name, time.Now()); ok {
		h.secrets.remember(v)
		return v, nil
	}
	t, err := h.call(ctx, &protocol.HostCall{Method: "secret", Secret: name})
	if err != nil {
		return "", err
	}
	v, err := protocol.SecretValue(t)
	if err != nil {
		return "", err
	}
	h.a.lakeKeys.put(name, v, time.Now())
	return v, nil
}
