//go:build linux

package native

import (
	"os"
	"syscall"
)

// redirectFD1 makes fd 1 the pipe, so writes that bypass os.Stdout are caught too.
func redirectFD1(w *os.File) error { return syscall.Dup3(int(w.Fd()), 1, 0) }

// readPipe is one read(2) of the capture pipe's read end, which does not block.
func readPipe(fd int, buf []byte) (int, error) { return syscall.Read(fd, buf) }
