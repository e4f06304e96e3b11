package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// TestEngines runs the demo through the real binary in both engines: by
// default compiled (a Go toolchain is installed here), interpreted on
// request or without a toolchain, with identical published data; a backfill
// builds once and says which engine ran it.
func TestEngines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no Go toolchain")
	}
	bin := strataproc.Binary(t)
	demo := filepath.Join(t.TempDir(), "demo")
	run := func(env []string, args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("strata %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	want := func(out, s string) {
		t.Helper()
		if !strings.Contains(out, s) {
			t.Fatalf("output lacks %q:\n%s", s, out)
		}
	}
	run(nil, "init", demo, "--demo")
	want(run(nil, "run", demo, "clv", "--partition", "2024-03-10"), "engine compiled")
	if bins, _ := filepath.Glob(filepath.Join(demo, ".strata", "build", "bin", "worker-*")); len(bins) != 1 {
		t.Fatalf("want one worker binary in .strata/build/bin, have %v", bins)
	}
	compiled := run(nil, "preview", demo, "clv", "clv", "--partition", "2024-03-10", "--version", "1", "--format", "csv", "--limit", "100000")
	want(run(nil, "run", demo, "clv", "--partition", "2024-03-10", "--engine", "interp"), "engine interp")
	interp := run(nil, "preview", demo, "clv", "clv", "--partition", "2024-03-10", "--version", "2", "--format", "csv", "--limit", "100000")
	if compiled != interp || len(compiled) < 1000 {
		t.Fatalf("compiled and interpreted outputs differ (%d vs %d bytes)", len(compiled), len(interp))
	}
	want(run([]string{"STRATA_GO=off"}, "run", demo, "clv", "--partition", "2024-03-11"), "engine interp")
	out := run(nil, "backfill", demo, "clv", "--from", "2024-03-01", "--to", "2024-03-04")
	want(out, "(engine compiled)")
	out = run(nil, "backfill", demo, "clv", "--from", "2024-03-05", "--to", "2024-03-06", "--engine", "interp")
	want(out, "(engine interp)")
}
