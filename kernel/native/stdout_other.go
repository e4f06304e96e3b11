//go:build !linux

package native

import (
	"os"
	"syscall"
)

// redirectFD1 cannot swap descriptors portably; os.Stdout alone is redirected.
func redirectFD1(*os.File) error { return nil }

// readPipe is one read(2) of the capture pipe's read end, which does not block.
func readPipe(fd int, buf []byte) (int, error) { return syscall.Read(fd, buf) }
