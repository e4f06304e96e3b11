package partitions

import (
	"errors"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // tests must not depend on the machine's zoneinfo
)

// The test DSL: specs come from the same config strings a pipeline file
// holds, instants are written as RFC 3339 with their offset, and a partition
// is asserted as key + start + end, so each table row reads like the
// calendar fact it checks.

// spec builds a Spec with NewSpec from "interval zone [weekStart] [start]"
// written as separate arguments; it fails the test on error.
func spec(t testing.TB, interval, zone string, more ...string) Spec {
	t.Helper()
	var weekStart, start string
	if len(more) > 0 {
		weekStart = more[0]
	}
	if len(more) > 1 {
		start = more[1]
	}
	s, err := NewSpec(interval, zone, weekStart, start)
	if err != nil {
		t.Fatalf("NewSpec(%q, %q, %q, %q): %v", interval, zone, weekStart, start, err)
	}
	return s
}

// instant parses an RFC 3339 timestamp (offset included).
func instant(t testing.TB, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("bad test instant %q: %v", s, err)
	}
	return v
}

// mustParse parses a key with s and fails the test on error.
func mustParse(t testing.TB, s Spec, key string) Partition {
	t.Helper()
	p, err := s.Parse(key)
	if err != nil {
		t.Fatalf("%s: Parse(%q): %v", s, key, err)
	}
	return p
}

// wantPartition asserts p's key and bounds; start and end are RFC 3339.
func wantPartition(t testing.TB, p Partition, key, start, end string) {
	t.Helper()
	if p.Key != key {
		t.Errorf("key = %q, want %q", p.Key, key)
	}
	if s := instant(t, start); !p.Start.Equal(s) {
		t.Errorf("%s: start = %s, want %s", key, p.Start.Format(time.RFC3339), start)
	}
	if e := instant(t, end); !p.End.Equal(e) {
		t.Errorf("%s: end = %s, want %s", key, p.End.Format(time.RFC3339), end)
	}
}

// samePartition reports whether a and b are the same partition.
func samePartition(a, b Partition) bool {
	return a.Key == b.Key && a.Start.Equal(b.Start) && a.End.Equal(b.End)
}

// keysOf returns the keys of ps.
func keysOf(ps []Partition) []string {
	keys := make([]string, len(ps))
	for i, p := range ps {
		keys[i] = p.Key
	}
	return keys
}

// wantError asserts that err is of kind and its message contains every
// fragment.
func wantError(t testing.TB, err, kind error, fragments ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %v", kind)
	}
	if kind != nil && !errors.Is(err, kind) {
		t.Errorf("error %q is not %v", err, kind)
	}
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error %q does not mention %q", err, f)
		}
	}
}

// checkRoundTrip asserts the invariants of the partition containing t.
func checkRoundTrip(t *testing.T, s Spec, at time.Time) {
	t.Helper()
	p := s.At(at)
	if !p.Contains(at) {
		t.Fatalf("%s: At(%s) = %s [%s, %s) does not contain it", s, at.UTC().Format(time.RFC3339Nano), p.Key, p.Start, p.End)
	}
	q, err := s.Parse(p.Key)
	if err != nil {
		t.Fatalf("%s: Parse(At(%s).Key = %q): %v", s, at.UTC().Format(time.RFC3339Nano), p.Key, err)
	}
	if !samePartition(p, q) {
		t.Fatalf("%s: Parse(%q) = [%s, %s), At gave [%s, %s)", s, p.Key, q.Start, q.End, p.Start, p.End)
	}
	if s.Interval == None {
		return
	}
	if !p.Start.Before(p.End) {
		t.Fatalf("%s: %s is empty", s, p.Key)
	}
	next := s.Next(p)
	if !next.Start.Equal(p.End) || next.Key == p.Key {
		t.Fatalf("%s: Next(%s) = %s starts at %s, want %s", s, p.Key, next.Key, next.Start, p.End)
	}
	if prev := s.Prev(next); !samePartition(prev, p) {
		t.Fatalf("%s: Prev(Next(%s)) = %s", s, p.Key, prev.Key)
	}
}
