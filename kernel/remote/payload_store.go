package remote

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// blobHeader marks a message whose body lives in the object store:
// "<object name> <size> <sha256 hex>".
const blobHeader = "Strata-Blob"

// artifactHeader marks a message whose body is a file in the shared
// artifacts folder (--artifacts): "<file name> <size> <sha256 hex>".
const artifactHeader = "Strata-Artifact"

// inlineLimit is the largest body sent in the message itself; the server's
// max_payload is 1 MiB and headers need room.
const inlineLimit = 1<<20 - 8<<10

// payloads moves message bodies, through the object store (or the shared
// artifacts folder, when dir is set) when they are too big for a message.
type payloads struct {
	obs     jetstream.ObjectStore
	dir     string // the pool's folder under --artifacts; "" uses the object store
	timeout time.Duration
	limit   int
}

// newPayloads returns the payload mover of a pool: artifacts, when set, is
// a folder every machine of the pool sees at the same path.
func newPayloads(obs jetstream.ObjectStore, artifacts, pool string, timeout time.Duration) (*payloads, error) {
	p := &payloads{obs: obs, timeout: timeout, limit: inlineLimit}
	if artifacts != "" {
		p.dir = filepath.Join(artifacts, "strata-"+pool)
		if err := os.MkdirAll(p.dir, 0o755); err != nil {
			return nil, fmt.Errorf("artifacts folder: %w", err)
		}
	}
	return p, nil
}

// isBlob reports whether a message's body was stored aside.
func isBlob(h nats.Header) bool { return h.Get(blobHeader) != "" || h.Get(artifactHeader) != "" }

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]`)

// fileOf is where a payload named name lives in the artifacts folder.
func (p *payloads) fileOf(name string) string {
	return filepath.Join(p.dir, unsafeName.ReplaceAllString(name, "_"))
}

// pack returns the message for body: inline, or a reference (size and
// digest) to a copy stored under name.
func (p *payloads) pack(ctx context.Context, subject, name string, body []byte) (*nats.Msg, error) {
	m := nats.NewMsg(subject)
	if len(body) <= p.limit {
		m.Data = body
		return m, nil
	}
	sum := sha256.Sum256(body)
	ref := " " + strconv.Itoa(len(body)) + " " + hex.EncodeToString(sum[:])
	if p.dir != "" {
		f := p.fileOf(name)
		if err := writeFileAtomic(f, body, 0o644); err != nil {
			return nil, fmt.Errorf("store %d byte payload %s in the artifacts folder: %w", len(body), name, err)
		}
		m.Header.Set(artifactHeader, filepath.Base(f)+ref)
		return m, nil
	}
	cctx, cancel := context.WithTimeout(ctx, p.timeout+time.Duration(len(body)>>20)*250*time.Millisecond)
	defer cancel()
	if _, err := p.obs.PutBytes(cctx, name, body); err != nil {
		return nil, fmt.Errorf("store %d byte payload %s in the object store: %w", len(body), name, err)
	}
	m.Header.Set(blobHeader, name+ref)
	return m, nil
}

// unpack returns a message's body, fetching and checking it when it is a
// reference. The object's name is returned so its reader can delete it.
func (p *payloads) unpack(ctx context.Context, h nats.Header, data []byte) (body []byte, object string, err error) {
	ref, kind := h.Get(blobHeader), blobHeader
	if ref == "" {
		ref, kind = h.Get(artifactHeader), artifactHeader
	}
	if ref == "" {
		return data, "", nil
	}
	f := strings.Fields(ref)
	if len(f) != 3 {
		return nil, "", fmt.Errorf("bad %s header %q: want name, size and digest", kind, ref)
	}
	size, err := strconv.Atoi(f[1])
	if err != nil {
		return nil, "", fmt.Errorf("bad %s header %q: size: %w", kind, ref, err)
	}
	var b []byte
	if kind == artifactHeader {
		if p.dir == "" {
			return nil, "", fmt.Errorf("payload %s (%d bytes) is in the sender's artifacts folder, and this process was given none: start it with the same --artifacts folder", f[0], size)
		}
		if f[0] != filepath.Base(f[0]) || f[0] == ".." {
			return nil, "", fmt.Errorf("bad %s header %q: a file name, not a path", kind, ref)
		}
		object = "file:" + f[0]
		if b, err = os.ReadFile(filepath.Join(p.dir, f[0])); err != nil {
			return nil, object, fmt.Errorf("read payload %s (%d bytes) from the artifacts folder %s: %w", f[0], size, p.dir, err)
		}
	} else {
		object = f[0]
		cctx, cancel := context.WithTimeout(ctx, p.timeout+time.Duration(size>>20)*250*time.Millisecond)
		defer cancel()
		if b, err = p.obs.GetBytes(cctx, f[0]); err != nil {
			return nil, object, fmt.Errorf("fetch payload %s (%d bytes) from the object store: %w", f[0], size, err)
		}
	}
	sum := sha256.Sum256(b)
	if len(b) != size || hex.EncodeToString(sum[:]) != f[2] {
		return nil, object, fmt.Errorf("payload %s: got %d bytes with digest %x, want %d bytes with digest %s", f[0], len(b), sum, size, f[2])
	}
	return b, object, nil
}

// drop deletes a payload once read (the object name unpack returned, or
// the name it was packed under); a failure only leaves it for the bucket's
// TTL, or in the folder.
func (p *payloads) drop(name string) {
	switch {
	case name == "":
		return
	case strings.HasPrefix(name, "file:"):
		_ = os.Remove(filepath.Join(p.dir, strings.TrimPrefix(name, "file:")))
		return
	case p.dir != "":
		_ = os.Remove(p.fileOf(name))
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), p.timeout)
	defer cancel()
	_ = p.obs.Delete(ctx, name)
}

// writeFileAtomic writes a whole file or nothing: a reader on another
// machine never sees half of it.
func writeFileAtomic(path string, b []byte, mode os.FileMode) error {
	tmp := fmt.Sprintf("%s.%d.tmp", path, time.Now().UnixNano())
	if err := os.WriteFile(tmp, b, mode); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return nil
}
