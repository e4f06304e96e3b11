//go:build linux

package child

import (
	"os"
	"syscall"
)

// guardStdin moves the protocol's input to a private copy of fd 0 and points
// fd 0 at /dev/null: a block that reads stdin (fmt.Scanln, bufio on
// os.Stdin) reads nothing instead of the coordinator's messages.
func guardStdin() (*os.File, error) {
	fd, err := syscall.Dup(0)
	if err != nil {
		return nil, err
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		return nil, err
	}
	defer null.Close()
	if err := syscall.Dup3(int(null.Fd()), 0, 0); err != nil {
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
	return os.NewFile(uintptr(fd), "protocol-in"), nil
}
