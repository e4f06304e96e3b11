package remote

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"sync"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
)

// A secret a block on a worker asks for crosses NATS sealed to that one
// call: the worker sends a fresh X25519 public key with the call, the
// coordinator answers with the value encrypted (AES-256-GCM) under a key
// derived from an ECDH with its own fresh key, bound to the attempt and the
// secret's name. Nothing on the wire, in the object store or in a NATS
// server's memory can read it, whether or not the link is TLS; the worker
// keeps the value in memory for the run only (its kernel gets it on its
// pipe) and masks it in what the run sends back.

// sealedSecret is a secret's value as the coordinator sends it to a worker.
type sealedSecret struct {
	Peer  []byte `json:"peer"`  // the coordinator's one-time X25519 public key
	Nonce []byte `json:"nonce"` // AES-GCM nonce
	Box   []byte `json:"box"`   // the value, encrypted and authenticated
}

// sealInfo binds a sealed value to its call: a box replayed to another
// attempt, or as another secret, does not open.
func sealInfo(attempt uint64, name string) string {
	return fmt.Sprintf("strata secret/%d/%s", attempt, name)
}

// sealKey derives the AES key from an ECDH shared secret.
func sealKey(shared []byte, info string) (cipher.AEAD, error) {
	key, err := hkdf.Key(sha256.New, shared, nil, info, 32)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// sealSecret encrypts value to a worker's public key.
func sealSecret(workerKey []byte, attempt uint64, name, value string) (*sealedSecret, error) {
	peer, err := ecdh.X25519().NewPublicKey(workerKey)
	if err != nil {
		return nil, fmt.Errorf("the worker's key for secret %q: %w", name, err)
	}
	own, err := ecdh.X25519().GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	shared, err := own.ECDH(peer)
	if err != nil {
		return nil, err
	}
	info := sealInfo(attempt, name)
	aead, err := sealKey(shared, info)
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return &sealedSecret{Peer: own.PublicKey().Bytes(), Nonce: nonce, Box: aead.Seal(nil, nonce, []byte(value), []byte(info))}, nil
}

// open decrypts a sealed value with the worker's one-time key.
func (s *sealedSecret) open(own *ecdh.PrivateKey, attempt uint64, name string) (string, error) {
	peer, err := ecdh.X25519().NewPublicKey(s.Peer)
	if err != nil {
		return "", err
	}
	shared, err := own.ECDH(peer)
	if err != nil {
		return "", err
	}
	info := sealInfo(attempt, name)
	aead, err := sealKey(shared, info)
	if err != nil {
		return "", err
	}
	if len(s.Nonce) != aead.NonceSize() {
		return "", errors.New("malformed sealed secret")
	}
	v, err := aead.Open(nil, s.Nonce, s.Box, []byte(info))
	if err != nil {
		return "", fmt.Errorf("secret %q does not open: %w", name, err)
	}
	return string(v), nil
}

// answerSecret is the coordinator's side of a worker's ctx.Secret: the
// run's own handler resolves the name (so the block gets only what its
// project names, and the coordinator masks it as for a local kernel) and
// the value leaves sealed. A call without a key (an older worker) is
// refused rather than answered in clear.
func answerSecret(ctx context.Context, c *call, hc *protocol.HostCall) (*sealedSecret, error) {
	if len(hc.SealTo) == 0 {
		return nil, fmt.Errorf("secret %q: the worker sent no key to seal it to (a strata worker older than the coordinator?): secrets are never sent to workers in clear", hc.Secret)
	}
	t, err := c.h.HostCall(ctx, hc)
	if err != nil {
		return nil, err
	}
	v, err := protocol.SecretValue(t)
	if err != nil {
		return nil, err
	}
	return sealSecret(hc.SealTo, c.attempt, hc.Secret, v)
}

// masker hides the secret values one task received in what it sends back:
// its streams, logs, error, state and output text. Like the coordinator's
// store, it masks the value and the password inside a connection string.
type masker struct {
	mu      sync.Mutex
	needles []string
}

// minSecretLen mirrors projects/secrets: a shorter value is refused there,
// and could not be masked without masking ordinary text.
const minSecretLen = 4

func (m *masker) remember(v string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, n := range append([]string{v}, passwordsOf(v)...) {
		if len(n) >= minSecretLen && !containsString(m.needles, n) {
			m.needles = append(m.needles, n)
		}
	}
	sort.Slice(m.needles, func(i, j int) bool { return len(m.needles[i]) > len(m.needles[j]) })
}

// values are the needles mask replaces, as of now.
func (m *masker) values() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.needles...) // remember sorts in place
}

func (m *masker) active() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.needles) > 0
}

func (m *masker) mask(s string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, n := range m.needles {
		s = strings.ReplaceAll(s, n, "***")
	}
	return s
}

// result masks a result and its output table before they leave the worker.
func (m *masker) result(res *protocol.Result, out *sdk.Table) (*protocol.Result, *sdk.Table) {
	if !m.active() {
		return res, out
	}
	if res != nil {
		r := *res
		if r.Error != nil {
			e := *r.Error
			e.Message = m.mask(e.Message)
			r.Error = &e
		}
		r.Stdout = m.mask(r.Stdout)
		if r.State != nil {
			st := make(map[string]string, len(r.State))
			for k, v := range r.State {
				st[k] = m.mask(v)
			}
			r.State = st
		}
		res = &r
	}
	return res, m.table(out)
}

// table is t with its text columns masked; t itself when nothing changes
// (a column is copied, never written in place).
func (m *masker) table(t *sdk.Table) *sdk.Table {
	if t == nil {
		return nil
	}
	changed := false
	out := sdk.NewTable()
	for _, c := range t.Columns() {
		if c.Type == sdk.TypeString {
			vals := c.Strings()
			var masked []string
			for i, v := range vals {
				if mv := m.mask(v); mv != v {
					if masked == nil {
						masked = append([]string(nil), vals...)
					}
					masked[i] = mv
				}
			}
			if masked != nil {
				c, changed = sdk.StringsFrom(c.Name, masked, c.Nulls()), true
			}
		}
		out.AddColumn(c)
	}
	if !changed {
		return t
	}
	return out
}

// passwordsOf finds the password of a URL or of a key=value connection
// string, as projects/secrets does.
func passwordsOf(v string) []string {
	var out []string
	if u, err := url.Parse(v); err == nil && u.User != nil {
		if pw, ok := u.User.Password(); ok {
			out = append(out, pw)
		}
	}
	for _, f := range strings.Fields(v) {
		if k, pw, ok := strings.Cut(f, "="); ok && strings.EqualFold(k, "password") {
			out = append(out, strings.Trim(pw, `'"`))
		}
	}
	return out
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
