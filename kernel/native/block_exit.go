package native

import (
	"fmt"
	"log"
	"os"
	"runtime"
)

// ExitMarker starts the line a worker writes to stderr when a block ends
// the process; the supervisor reads the block's line from it.
const ExitMarker = "strata: block called os.Exit("

// Exit replaces os.Exit in compiled blocks (kernel/build rewrites the
// calls): it says where the block called it, sends what the block printed,
// and ends the process with the block's status, skipping its defers as
// os.Exit does. The supervisor reports the run as the block's os.Exit.
func Exit(code int) { exitFrom(2, code) }

func exitFrom(skip, code int) {
	_, file, line, _ := runtime.Caller(skip)
	if current != nil {
		current.flushOutput()
	}
	fmt.Fprintf(workerStderr, "%s%d) at %s:%d\n", ExitMarker, code, file, line)
	os.Exit(code)
}

// Fatal, Fatalf and Fatalln replace log's: they log as log.Fatal does (to
// log's output, at the caller's file and line when log's flags say so),
// then Exit(1).
func Fatal(v ...any) {
	_ = log.Output(2, fmt.Sprint(v...))
	exitFrom(2, 1)
}

// Fatalf is log.Fatalf.
func Fatalf(format string, v ...any) {
	_ = log.Output(2, fmt.Sprintf(format, v...))
	exitFrom(2, 1)
}

// Fatalln is log.Fatalln.
func Fatalln(v ...any) {
	_ = log.Output(2, fmt.Sprintln(v...))
	exitFrom(2, 1)
}

// current is the process's executor, for Exit to flush stdout and stderr.
var current *Executor
