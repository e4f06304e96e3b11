package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// $STRATA_CPUPROFILE=PREFIX writes the process's Go CPU profile to
// PREFIX.COMMAND.PID.pprof when the command ends (here `strata init`);
// unset, nothing is written.
func TestCPUProfileEnv(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := t.TempDir()
	prefix := filepath.Join(dir, "prof")
	cmd := exec.Command(bin, "init", filepath.Join(dir, "p"))
	cmd.Env = append(os.Environ(), "STRATA_CPUPROFILE="+prefix)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("strata init: %v\n%s", err, out)
	}
	files, _ := filepath.Glob(prefix + ".init.*.pprof")
	if len(files) != 1 {
		t.Fatalf("profiles written: %v, want one %s.init.PID.pprof", files, prefix)
	}
	// A pprof profile is gzipped protobuf.
	if b, err := os.ReadFile(files[0]); err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Fatalf("profile %s: %v, not a gzipped pprof profile (%d bytes)", files[0], err, len(b))
	}
	cmd = exec.Command(bin, "init", filepath.Join(dir, "q"))
	cmd.Env = append(os.Environ(), "STRATA_CPUPROFILE=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("strata init: %v\n%s", err, out)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*.pprof")); len(files) != 1 {
		t.Fatalf("profiles after a run without the variable: %v", files)
	}
}
