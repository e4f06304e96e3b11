//go:build linux

package child

import (
	"os"
	"syscall"
)

// guardStdout moves the protocol to a private copy of fd 1 and points fd 1
// at stderr.
func guardStdout() (*os.File, error) {
	fd, err := syscall.Dup(1)
	if err != nil {
		return nil, err
	}
	if err := syscall.Dup3(2, 1, 0); err != nil {
		return nil, err
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
