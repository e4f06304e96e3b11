package main

import (
	"flag"
	"os"

	"github.com/stratahq/strata/kernel/child"
	"github.com/stratahq/strata/kernel/interp"
)

func init() {
	register("kernel", "run a kernel process (started by strata itself; speaks the protocol on stdio)", runKernel)
}

func runKernel(args []string) error {
	fs := flag.NewFlagSet("kernel", flag.ContinueOnError)
	mem := fs.Int64("memory-limit", 0, "memory limit in bytes")
	if err := fs.Parse(args); err != nil {
		return err
	}
	return child.Main(interp.NewExecutor(), child.Options{MemoryLimit: *mem})
}

// kernelCommand is how this binary starts its own kernels.
func kernelCommand() []string {
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	return []string{exe, "kernel"}
}
