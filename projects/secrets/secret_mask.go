package secrets

import (
	"net/url"
	"sort"
	"strings"

	"github.com/stratahq/strata/kernel/redact"
)

// remember adds a resolved value, and the password inside it, to what Mask
// replaces.
func (s *Store) remember(v string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	// A new slice: Mask reads the old one without the lock.
	needles := append([]string(nil), s.needles...)
	for _, n := range append([]string{v}, passwords(v)...) {
		if len(n) < minLen || containsStr(needles, n) {
			continue
		}
		needles = append(needles, n)
	}
	// Longest first: a value containing another is replaced whole.
	sort.Slice(needles, func(i, j int) bool { return len(needles[i]) > len(needles[j]) })
	s.needles = needles
}

// passwords finds the password of a URL (postgres://u:PW@h/db) or of a
// key=value connection string (host=h password=PW): an error that quotes
// the connection's parts must not show it either.
func passwords(v string) []string {
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

// Active reports whether anything was resolved, so Mask has work to do.
func (s *Store) Active() bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.needles) > 0
}

// Mask replaces every value resolved so far, and its password, by ***.
func (s *Store) Mask(text string) string {
	if s == nil {
		return text
	}
	s.mu.Lock()
	needles := s.needles
	s.mu.Unlock()
	for _, n := range needles {
		if strings.Contains(text, n) {
			text = strings.ReplaceAll(text, n, Mask)
		}
	}
	return text
}

// Stream masks a block's output as it arrives in pieces: a value split
// across two writes (fmt.Print(v[:3]); fmt.Print(v[3:])) is masked too.
// Its Flush must be called when the block ends, or the held tail is lost.
func (s *Store) Stream() *redact.Stream {
	return redact.NewStream(s.Mask, s.values)
}

// values are the needles Mask replaces, as of now.
func (s *Store) values() []string {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.needles
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
