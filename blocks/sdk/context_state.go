package sdk

import (
	"encoding/json"
	"fmt"
	"maps"
	"sort"
	"strings"
	"sync"
)

// State is a block's incremental state: a few named values, such as the
// cursor "last_id" of a source that is read by id rather than by time.
//
// The coordinator stores the values a block leaves in its State with the
// version the block publishes, in the same transaction as its rows, and
// hands the next run the state of the block's latest current version. So a
// retry reads the last committed values (never those of a failed attempt),
// and a rollback, which makes an older version current, rewinds the state
// with the data. A block that does not touch its State carries the values
// it was handed forward to its new version.
type State struct {
	mu      sync.Mutex
	vals    map[string]string
	touched bool
}

// NewState returns a State holding vals (copied); the kernel makes one per run.
func NewState(vals map[string]string) *State {
	return &State{vals: maps.Clone(vals)}
}

// Get returns the value of key, "" when it is not set.
func (s *State) Get(key string) string {
	v, _ := s.Lookup(key)
	return v
}

// Lookup returns the value of key and whether it is set.
func (s *State) Lookup(key string) (string, bool) {
	if s == nil {
		return "", false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.vals[key]
	return v, ok
}

// Set sets key to value; it is stored only if the run publishes.
func (s *State) Set(key, value string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.vals == nil {
		s.vals = map[string]string{}
	}
	s.vals[key] = value
	s.touched = true
}

// Delete removes key.
func (s *State) Delete(key string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.vals, key)
	s.touched = true
}

// Keys returns the keys that are set, sorted.
func (s *State) Keys() []string {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.vals))
	for k := range s.vals {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// GetJSON decodes the value of key into v; ok is false when it is not set.
func (s *State) GetJSON(key string, v any) (ok bool, err error) {
	raw, ok := s.Lookup(key)
	if !ok {
		return false, nil
	}
	if err := json.Unmarshal([]byte(raw), v); err != nil {
		return true, fmt.Errorf("state %q: %w", key, err)
	}
	return true, nil
}

// SetJSON sets key to v encoded as JSON.
func (s *State) SetJSON(key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("state %q: %w", key, err)
	}
	s.Set(key, string(b))
	return nil
}

// Values returns a copy of every value.
func (s *State) Values() map[string]string {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := maps.Clone(s.vals)
	if out == nil {
		out = map[string]string{}
	}
	return out
}

// Touched reports whether the block called Set or Delete.
func (s *State) Touched() bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.touched
}

// ExportKey identifies one export of a partition: the export block's
// product name, the partition and the export's version, which the export
// ledger numbers. A retry, a resume or a worker's redelivery of the same
// export gets the same key; an export that completed under a key is not
// run again. A destination that upserts by the key ends with one copy even
// when an export failed midway and ran again.
type ExportKey struct {
	Product   string `json:"product"`
	Partition string `json:"partition"`
	Version   int    `json:"version"`
}

// String is "product/partition/version", fit for a column or a file name.
func (k ExportKey) String() string {
	if k.Product == "" {
		return ""
	}
	return fmt.Sprintf("%s/%s/%d", k.Product, k.Partition, k.Version)
}

// IsZero reports whether there is no key (the block is not an Export, or
// it runs outside a project).
func (k ExportKey) IsZero() bool { return k.Product == "" }

// FileSafe is the key with every character outside [A-Za-z0-9._=-]
// replaced by '_', for a file or object name.
func (k ExportKey) FileSafe() string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '=', r == '-':
			return r
		}
		return '_'
	}, k.String())
}
