//go:build linux

package protocol

import (
	"os"
	"syscall"
)

const sharingSupported = true

func allocateFile(f *os.File, size int64) error {
	return syscall.Fallocate(int(f.Fd()), 0, 0, size)
}

func mapFile(f *os.File, size int64) ([]byte, error) {
	return syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
}

func unmapFile(mem []byte) error { return syscall.Munmap(mem) }
