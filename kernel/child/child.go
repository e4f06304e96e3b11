// Package child is the body of a kernel process (`strata kernel`): it guards
// the protocol stream, enforces the memory limit, and serves an Executor.
// Besides the standard library it imports only kernel/protocol and the SDK,
// which import only the standard library. Each run starts in the process
// state the kernel started with (process_restore.go).
package child

import (
	"fmt"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"

	"github.com/stratahq/strata/kernel/protocol"
)

// ExitMemory is the exit code of a kernel that went over its memory limit;
// the supervisor turns it into "exceeded memory limit".
const ExitMemory = 3

// kernelGCPercent is a kernel's GOGC unless the environment sets one.
const kernelGCPercent = 400

// Options configure a kernel process.
type Options struct {
	MemoryLimit int64 // bytes; 0 means no limit
}

// Main serves ex on the process's stdin and stdout until the coordinator
// closes them. Anything else that writes to fd 1 (native code, a stray
// print) is sent to stderr so it cannot corrupt the protocol, and fd 0 reads
// as empty so a block reading stdin cannot eat the coordinator's messages.
func Main(ex protocol.Executor, opt Options) error {
	protoOut, err := guardStdout()
	if err != nil {
		return fmt.Errorf("kernel: protect protocol stream: %w", err)
	}
	protoIn, err := guardStdin()
	if err != nil {
		return fmt.Errorf("kernel: protect protocol stream: %w", err)
	}
	if opt.MemoryLimit > 0 {
		// The soft limit makes the GC work hard before the watchdog must act.
		debug.SetMemoryLimit(opt.MemoryLimit * 9 / 10)
		// The process's stderr as it is now: a compiled worker later points
		// os.Stderr at the running block's stream (kernel/native), and this
		// message, written just before the exit, must reach the supervisor.
		go watchMemory(opt.MemoryLimit, os.Stderr)
		// A kernel's work is a stream of short runs that each allocate
		// their tables anew (the decoded inputs, the output): with the
		// default GOGC the GC ran every few runs and returned the pages,
		// so the next run faulted them back in; that was half of a 100k-row
		// Transform's CPU (BenchmarkTransform100kCompiled, GOGC=400: 10.2
		// -> 4.7 ms). The memory limit above still bounds the heap. A GOGC
		// in the environment wins.
		if os.Getenv("GOGC") == "" {
			debug.SetGCPercent(kernelGCPercent)
		}
	}
	// The coordinator names a directory for shared table files; blocks
	// need not see it.
	shared := os.Getenv(protocol.SharedDirEnv)
	_ = os.Unsetenv(protocol.SharedDirEnv)
	return protocol.ServeWith(protoIn, protoOut, restoring{ex, currentState()}, protocol.ServeOptions{SharedDir: shared})
}

// watchMemory ends the process when the Go heap passes the limit. A block
// that allocates without bound would otherwise take the machine with it.
func watchMemory(limit int64, stderr *os.File) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	for range time.Tick(10 * time.Millisecond) {
		metrics.Read(sample)
		if used := int64(sample[0].Value.Uint64()); used > limit {
			fmt.Fprintf(stderr, "strata kernel: exceeded memory limit of %d MiB (%d MiB in use)\n", limit>>20, used>>20)
			os.Exit(ExitMemory)
		}
	}
}
