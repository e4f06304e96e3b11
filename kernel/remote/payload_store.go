package remote

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// blobHeader marks a message whose body lives in the object store:
// "<object name> <size> <sha256 hex>".
const blobHeader = "Strata-Blob"

// inlineLimit is the largest body sent in the message itself; the server's
// max_payload is 1 MiB and headers need room.
const inlineLimit = 1<<20 - 8<<10

// payloads moves message bodies, through the object store when they are
// too big for a message.
type payloads struct {
	obs     jetstream.ObjectStore
	timeout time.Duration
	limit   int
}

// pack returns the message for body: inline, or a reference to an object
// stored under name.
func (p *payloads) pack(ctx context.Context, subject, name string, body []byte) (*nats.Msg, error) {
	m := nats.NewMsg(subject)
	if len(body) <= p.limit {
		m.Data = body
		return m, nil
	}
	sum := sha256.Sum256(body)
	cctx, cancel := context.WithTimeout(ctx, p.timeout+time.Duration(len(body)>>20)*250*time.Millisecond)
	defer cancel()
	if _, err := p.obs.PutBytes(cctx, name, body); err != nil {
		return nil, fmt.Errorf("store %d byte payload %s in the object store: %w", len(body), name, err)
	}
	m.Header.Set(blobHeader, name+" "+strconv.Itoa(len(body))+" "+hex.EncodeToString(sum[:]))
	return m, nil
}

// unpack returns a message's body, fetching and checking it when it is a
// reference. The object's name is returned so its reader can delete it.
func (p *payloads) unpack(ctx context.Context, h nats.Header, data []byte) (body []byte, object string, err error) {
	ref := h.Get(blobHeader)
	if ref == "" {
		return data, "", nil
	}
	f := strings.Fields(ref)
	if len(f) != 3 {
		return nil, "", fmt.Errorf("bad %s header %q: want name, size and digest", blobHeader, ref)
	}
	size, err := strconv.Atoi(f[1])
	if err != nil {
		return nil, "", fmt.Errorf("bad %s header %q: size: %w", blobHeader, ref, err)
	}
	cctx, cancel := context.WithTimeout(ctx, p.timeout+time.Duration(size>>20)*250*time.Millisecond)
	defer cancel()
	b, err := p.obs.GetBytes(cctx, f[0])
	if err != nil {
		return nil, f[0], fmt.Errorf("fetch payload %s (%d bytes) from the object store: %w", f[0], size, err)
	}
	sum := sha256.Sum256(b)
	if len(b) != size || hex.EncodeToString(sum[:]) != f[2] {
		return nil, f[0], fmt.Errorf("payload %s: got %d bytes with digest %x, want %d bytes with digest %s", f[0], len(b), sum, size, f[2])
	}
	return b, f[0], nil
}

// drop deletes an object once read; a failure only leaves it for the
// bucket's TTL.
func (p *payloads) drop(name string) {
	if name == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), p.timeout)
	defer cancel()
	_ = p.obs.Delete(ctx, name)
}
