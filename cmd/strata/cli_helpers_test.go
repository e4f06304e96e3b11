package main

import (
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// runWant runs the binary with args and fails the test unless it exits
// with want; it returns what the command printed.
func runWant(t testing.TB, bin string, want int, args ...string) string {
	t.Helper()
	out, code := strataproc.Run(t, bin, args...)
	if code != want {
		t.Fatalf("strata %s: exit %d, want %d\n%s", strings.Join(args, " "), code, want, out)
	}
	return out
}

// mustContain fails the test unless out holds every one of wants.
func mustContain(t testing.TB, out string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(out, w) {
			t.Fatalf("output lacks %q:\n%s", w, out)
		}
	}
}
