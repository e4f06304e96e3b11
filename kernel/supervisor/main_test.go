package supervisor

import (
	"os"
	"strconv"
	"testing"

	"github.com/stratahq/strata/kernel/child"
	"github.com/stratahq/strata/kernel/interp"
)

// The test binary doubles as the kernel: started with STRATA_KERNEL_CHILD=1
// it runs exactly what `strata kernel` runs, so every test drives a real
// child process over the real protocol.
func TestMain(m *testing.M) {
	if os.Getenv("STRATA_KERNEL_CHILD") == "1" {
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
	os.Exit(m.Run())
}

func testConfig() Config {
	return Config{Command: []string{os.Args[0]}, Env: []string{"STRATA_KERNEL_CHILD=1"}}
}
