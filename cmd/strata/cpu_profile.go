package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
)

// startCPUProfile writes a Go CPU profile of this process when
// $STRATA_CPUPROFILE names a file prefix (off by default): the profile goes
// to PREFIX.COMMAND.PID.pprof, so a coordinator, its workers and the CLI
// calls a test makes beside them do not overwrite each other. It is how the
// coordinator's CPU per partition is taken apart (docs/performance.md). The
// returned function stops and flushes it; call it before the process exits.
func startCPUProfile(command string) func() {
	prefix := os.Getenv("STRATA_CPUPROFILE")
	if prefix == "" {
		return func() {}
	}
	name := fmt.Sprintf("%s.%s.%d.pprof", prefix, filepath.Base(command), os.Getpid())
	f, err := os.Create(name)
	if err != nil {
		fmt.Fprintf(os.Stderr, "strata: STRATA_CPUPROFILE: %v\n", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "strata: STRATA_CPUPROFILE: %v\n", err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
