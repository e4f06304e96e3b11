package redact

import (
	"strings"
	"testing"
)

func newStream(values ...string) *Stream {
	mask := func(s string) string {
		for _, v := range values {
			s = strings.ReplaceAll(s, v, "***")
		}
		return s
	}
	return NewStream(mask, func() []string { return values })
}

// TestStreamMasksAValueSplitAcrossWrites: every way of cutting a line that
// holds the value into pieces shows *** and never the value, and shows
// everything else of the line.
func TestStreamMasksAValueSplitAcrossWrites(t *testing.T) {
	const secret = "s3cr3t-Value"
	line := "dsn=" + secret + " ok\n"
	for i := 0; i <= len(line); i++ {
		for j := i; j <= len(line); j++ {
			s := newStream(secret)
			var got strings.Builder
			for _, p := range []string{line[:i], line[i:j], line[j:]} {
				got.WriteString(s.Write("stdout", p))
			}
			for _, p := range s.Flush() {
				got.WriteString(p.Data)
			}
			if got.String() != "dsn=*** ok\n" {
				t.Fatalf("cut at %d,%d: got %q", i, j, got.String())
			}
		}
	}
}

func TestStreamHoldsOnlyAPossibleStart(t *testing.T) {
	s := newStream("abcdef")
	if got := s.Write("stdout", "xyz abc"); got != "xyz " {
		t.Fatalf("Write = %q, want the text before a possible start of the value", got)
	}
	if got := s.Write("stderr", "abd"); got != "abd" {
		t.Fatalf("another stream's text is its own: got %q", got)
	}
	if got := s.Write("stdout", "d!"); got != "abcd!" {
		t.Fatalf("a tail that turned out not to be the value: got %q", got)
	}
	s.Write("stdout", "ab")
	s.Write("stderr", "abc")
	if got := s.Flush(); len(got) != 2 || got[0] != (Piece{"stdout", "ab"}) || got[1] != (Piece{"stderr", "abc"}) {
		t.Fatalf("Flush = %+v", got)
	}
	if got := s.Flush(); len(got) != 0 {
		t.Fatalf("a second Flush = %+v, want nothing", got)
	}
}

func TestStreamWithoutValuesPassesThrough(t *testing.T) {
	s := newStream()
	if got := s.Write("stdout", "anything"); got != "anything" {
		t.Fatal(got)
	}
	if len(s.Flush()) != 0 {
		t.Fatal("held something with no values")
	}
}
