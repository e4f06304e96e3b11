// Package kerneltest lets a test binary double as a kernel process, so the
// tests of any package drive real kernels over the real protocol without
// building bin/strata first:
//
//	func TestMain(m *testing.M) {
//		kerneltest.ServeIfChild()
//		os.Exit(m.Run())
//	}
//
// and supervisor.NewPool(kerneltest.Config(), n) starts kernels that run
// exactly what `strata kernel` runs.
package kerneltest

import (
	"os"
	"strconv"

	"github.com/stratahq/strata/kernel/child"
	"github.com/stratahq/strata/kernel/interp"
	"github.com/stratahq/strata/kernel/supervisor"
)

const childEnv = "STRATA_KERNEL_CHILD"

// ServeIfChild serves the kernel protocol and exits when this process was
// started by Config; otherwise it returns at once.
func ServeIfChild() {
	if os.Getenv(childEnv) != "1" {
		return
	}
	var limit int64
	for i, a := range os.Args {
		if a == "--memory-limit" && i+1 < len(os.Args) {
			limit, _ = strconv.ParseInt(os.Args[i+1], 10, 64)
		}
	}
	if err := child.Main(interp.NewExecutor(), child.Options{MemoryLimit: limit}); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	os.Exit(0)
}

// Config starts kernels from the running test binary.
func Config() supervisor.Config {
	return supervisor.Config{Command: []string{os.Args[0]}, Env: []string{childEnv + "=1"}}
}
