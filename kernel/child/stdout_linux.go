//go:build linux

package child

import (
	"os"
	"strconv"
	"syscall"
)

// EarlyProtocolFD names the variable through which a compiled worker's
// first package (kernel/build's early guard, initialized before the
// blocks' packages) says it already moved the protocol off fd 1: a block's
// init function or package variable that prints would otherwise write into
// the protocol stream before Main runs.
const EarlyProtocolFD = "STRATA_EARLY_PROTOCOL_FD"

// guardStdout moves the protocol to a private copy of fd 1 and points fd 1
// at stderr (or takes the copy the early guard made).
func guardStdout() (*os.File, error) {
	fd := -1
	if s, ok := syscall.Getenv(EarlyProtocolFD); ok {
		_ = syscall.Unsetenv(EarlyProtocolFD) // blocks need not see it
		if n, err := strconv.Atoi(s); err == nil && n > 2 {
			fd = n
		}
	}
	if fd < 0 {
		var err error
		if fd, err = syscall.Dup(1); err != nil {
			return nil, err
		}
		if err := syscall.Dup3(2, 1, 0); err != nil {
			return nil, err
		}
	}
	syscall.CloseOnExec(fd)
	// Non-blocking, so the File goes through Go's poller: a read waiting
	// for the next message then parks its goroutine instead of holding a
	// thread and its P in the read syscall, where the goroutine the last
	// message started (the run itself) waited for sysmon to take the P
	// back, 100-200 us per run (issue 9, Transform100k).
	if err := syscall.SetNonblock(fd, true); err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), "protocol"), nil
}
