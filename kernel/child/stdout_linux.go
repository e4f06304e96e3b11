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
	return os.NewFile(uintptr(fd), "protocol"), nil
}
