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

// guardStdin moves the protocol to a private copy of fd 0 and points fd 0
// at /dev/null, so that code reading stdin (fmt.Scanln in a compiled block,
// native code) gets EOF instead of the coordinator's messages.
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
	return os.NewFile(uintptr(fd), "protocol-in"), nil
}
