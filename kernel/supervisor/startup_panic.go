package supervisor

import (
	"regexp"
	"strings"
)

// A compiled worker whose block panics while its package initializes (a
// package variable's initializer, an init function that still runs at
// start-up) dies before it is ready, and Go prints the panic and a trace.
// That raw trace was the error of every Go block of the build ("no kernel:
// kernel exited before ready: exit status 2: panic: … goroutine 1
// [running]: …"); startupPanic reads from it what the user needs: the
// panic and the block's line that raised it.

// traceFrame is a frame line of a Go trace in a block's file: the build
// names block files by their project paths (//line), never absolute.
var traceFrame = regexp.MustCompile(`(?m)^\t([^/\s][^\s:]*\.go):(\d+)`)

// startupPanic says "<panic> (at <file>:<line>, while the blocks' packages
// initialized)" when tail is a Go panic trace through a block's file.
func startupPanic(tail string) (string, bool) {
	m := goPanicLine.FindStringSubmatch(tail)
	if m == nil || !strings.Contains(tail, ".init") {
		return "", false
	}
	f := traceFrame.FindStringSubmatch(tail)
	if f == nil {
		return "", false
	}
	return "panic: " + m[1] + " (at " + f[1] + ":" + f[2] + ", while the blocks' packages initialized: a package variable's initializer or an init function; every Go block built with it fails until it is fixed)", true
}
